#include "hf/auto_update.hpp"

#include <limits>
#include <utility>

#include "core/host_backends.hpp"

namespace kmini::hf {

std::vector<std::size_t> fastest_per_class(const std::vector<std::vector<double>>& seconds) {
  std::size_t classes = 0;
  for (const auto& row : seconds)
    classes = std::max(classes, row.size());
  std::vector<std::size_t> fastest(classes, 0);
  for (std::size_t k = 0; k < classes; ++k) {
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < seconds.size(); ++c) {
      if (k < seconds[c].size() && seconds[c][k] >= 0.0 && seconds[c][k] < best) {
        best = seconds[c][k];
        fastest[k] = c;
      }
    }
  }
  return fastest;
}

std::vector<GUpdate> auto_candidates() {
  std::vector<GUpdate> candidates{GUpdate::atomic, GUpdate::warp_aggregated, GUpdate::kernel_split};
  constexpr bool host_only =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, DeviceMemory>::accessible;
  if (host_only && openmp_backend_missing().empty()) candidates.push_back(GUpdate::cpu);
  return candidates;
}

AutoUpdate::AutoUpdate(std::vector<GUpdate> candidates, std::function<double(double)> slowest_rank)
    : candidates_(std::move(candidates)), slowest_rank_(std::move(slowest_rank)) {}

void AutoUpdate::build(GBuilder& builder, const Matrix<DeviceMemory>& density,
                       const Matrix<DeviceMemory>& g) {
  if (decided_) {
    builder.build_by_class(choice_, density, g);
    return;
  }
  if (builds_++ == 0) {
    builder.build(candidates_.front(), density, g);
    return;
  }
  builder.warm_up(candidates_, density);
  std::vector<std::vector<double>> seconds, computed;  // [class][candidate]
  builder.build_in_parts(candidates_, density, g, seconds, computed);
  const std::size_t classes = seconds.size(), n = candidates_.size();
  rates_.assign(n, std::vector<double>(classes, -1.0));
  for (std::size_t i = 0; i < classes; ++i) {
    for (std::size_t k = 0; k < n; ++k) {
      // Every rank takes part in the collective, computed or not.
      const double rate = computed[i][k] > 0.0 ? seconds[i][k] / computed[i][k] : -1.0;
      const double slowest = slowest_rank_(rate);
      rates_[k][i] = rate < 0.0 && slowest <= 0.0 ? -1.0 : slowest;
    }
  }
  const std::vector<std::size_t> fastest = fastest_per_class(rates_);
  choice_.assign(classes, candidates_.front());
  double overhead = 0.0, total = 0.0;
  for (std::size_t i = 0; i < classes; ++i) {
    choice_[i] = candidates_[fastest[i]];
    const double best = rates_[fastest[i]][i];
    for (std::size_t k = 0; k < n; ++k) {
      total += seconds[i][k];
      if (best >= 0.0) overhead += seconds[i][k] - best * computed[i][k];
    }
  }
  overhead_ = slowest_rank_(overhead);
  trial_seconds_ = slowest_rank_(total);
  decided_ = true;
}

}  // namespace kmini::hf
