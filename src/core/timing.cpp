#include "core/timing.hpp"

#include <algorithm>
#include <numeric>

namespace kmini {

TimingStats summarize(std::vector<double> seconds) {
  TimingStats stats;
  stats.count = seconds.size();
  if (seconds.empty()) return stats;
  std::sort(seconds.begin(), seconds.end());
  const std::size_t n = seconds.size();
  stats.min = seconds.front();
  stats.max = seconds.back();
  stats.median = n % 2 == 1 ? seconds[n / 2] : 0.5 * (seconds[n / 2 - 1] + seconds[n / 2]);
  stats.mean = std::accumulate(seconds.begin(), seconds.end(), 0.0) / static_cast<double>(n);
  return stats;
}

}  // namespace kmini
