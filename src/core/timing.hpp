// Timing statistics over repetitions, and the host clock they are read from.
#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

namespace kmini {

using Clock = std::chrono::steady_clock;

// Host seconds from `start` to now.
inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct TimingStats {
  std::size_t count = 0;
  double min = 0.0;
  double median = 0.0;
  double mean = 0.0;
  double max = 0.0;
};

TimingStats summarize(std::vector<double> seconds);

}  // namespace kmini
