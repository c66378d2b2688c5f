#include "hf/auto_update.hpp"

#include <limits>
#include <utility>

#include "core/host_backends.hpp"

namespace kmini::hf {

namespace {

// Builds per candidate in the trials: the first loads kernels and allocates, the second is timed.
constexpr int kBuildsPerCandidate = 2;

}  // namespace

std::vector<std::size_t> fastest_per_class(const std::vector<std::vector<double>>& seconds) {
  std::size_t classes = 0;
  for (const auto& row : seconds)
    classes = std::max(classes, row.size());
  std::vector<std::size_t> fastest(classes, 0);
  for (std::size_t k = 0; k < classes; ++k) {
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < seconds.size(); ++c) {
      if (k < seconds[c].size() && seconds[c][k] < best) {
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
    : candidates_(std::move(candidates)),
      slowest_rank_(std::move(slowest_rank)),
      seconds_(candidates_.size()) {}

void AutoUpdate::build(GBuilder& builder, const Matrix<DeviceMemory>& density,
                       const Matrix<DeviceMemory>& g) {
  if (decided_) {
    builder.build_by_class(choice_, density, g);
    return;
  }
  const std::size_t candidate = static_cast<std::size_t>(builds_ / kBuildsPerCandidate);
  const std::vector<GUpdate> all(builder.plan().classes.size(), candidates_[candidate]);
  std::vector<double> seconds;
  builder.build_by_class(all, density, g, &seconds);
  seconds_[candidate] = seconds;
  ++builds_;
  if (builds_ == static_cast<int>(candidates_.size()) * kBuildsPerCandidate) decide(builder.plan());
}

void AutoUpdate::decide(const QuartetPlan& plan) {
  if (decided_) return;
  std::vector<std::vector<double>> slowest(candidates_.size());
  for (std::size_t c = 0; c < candidates_.size(); ++c) {
    if (seconds_[c].empty()) continue;  // never built: never chosen
    for (const double s : seconds_[c])
      slowest[c].push_back(slowest_rank_(s));
  }
  const std::vector<std::size_t> fastest = fastest_per_class(slowest);
  choice_.assign(plan.classes.size(), candidates_.front());
  for (std::size_t k = 0; k < fastest.size() && k < choice_.size(); ++k)
    choice_[k] = candidates_[fastest[k]];
  seconds_ = slowest;
  decided_ = true;
}

std::vector<double> AutoUpdate::trial_seconds() const {
  std::vector<double> out;
  for (const auto& row : seconds_) {
    double sum = row.empty() ? -1.0 : 0.0;
    for (const double s : row)
      sum += s;
    out.push_back(sum);
  }
  return out;
}

}  // namespace kmini::hf
