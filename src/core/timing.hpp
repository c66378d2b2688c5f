// Timing statistics over repetitions.
#pragma once

#include <cstddef>
#include <vector>

namespace kmini {

struct TimingStats {
  std::size_t count = 0;
  double min = 0.0;
  double median = 0.0;
  double mean = 0.0;
  double max = 0.0;
};

TimingStats summarize(std::vector<double> seconds);

}  // namespace kmini
