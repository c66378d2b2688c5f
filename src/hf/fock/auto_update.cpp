#include "hf/fock/auto_update.hpp"

#include <limits>
#include <utility>

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

AutoUpdate::AutoUpdate(std::vector<const GUpdate*> candidates,
                       std::function<double(double)> slowest_rank)
    : candidates_(std::move(candidates)), slowest_rank_(std::move(slowest_rank)) {}

void AutoUpdate::build(GBuilder& builder, const Matrix<DeviceMemory>& density,
                       const Matrix<DeviceMemory>& g) {
  if (decided_) {
    builder.build_by_class(choice_, density, g);
    return;
  }
  if (builds_++ == 0) {
    builder.build(*candidates_.front(), density, g);
    return;
  }
  builder.warm_up(candidates_, density);
  const std::size_t classes = builder.plan().classes.size(), n = candidates_.size();
  rates_.assign(n, std::vector<double>(classes, -1.0));
  choice_.assign(classes, candidates_.front());
  double overhead = 0.0;
  const auto choose = [&](std::size_t i, const std::vector<double>& seconds,
                          const std::vector<double>& computed) {
    std::vector<std::vector<double>> column(n);
    for (std::size_t k = 0; k < n; ++k) {
      // Every rank takes part in the collective, computed or not.
      const double rate = computed[k] > 0.0 ? seconds[k] / computed[k] : -1.0;
      const double slowest = slowest_rank_(rate);
      rates_[k][i] = rate < 0.0 && slowest <= 0.0 ? -1.0 : slowest;
      column[k] = {rates_[k][i]};
    }
    const std::size_t fastest = fastest_per_class(column).at(0);
    choice_[i] = candidates_[fastest];
    const double best = rates_[fastest][i];
    if (best >= 0.0)
      for (std::size_t k = 0; k < n; ++k)
        overhead += seconds[k] - best * computed[k];
    return fastest;
  };
  builder.build_trial(candidates_, density, g, choose);
  overhead_ = slowest_rank_(overhead);
  trial_seconds_ = slowest_rank_(builder.last().total_seconds());
  decided_ = true;
}

}  // namespace kmini::hf
