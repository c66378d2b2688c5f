// GBuilder::build_trial, auto's trial, and the trial's policy (g_build_trial.hpp).
#include "hf/fock/g_build_trial.hpp"

#include <algorithm>
#include <chrono>

#include "core/timing.hpp"
#include "hf/fock/g_build.hpp"
#include "hf/fock/g_build_state.hpp"

namespace kmini::hf {

namespace trial {

double rate_ratio(const std::vector<double>& seconds, const std::vector<double>& computed,
                  std::size_t k) {
  double fastest = -1.0;
  for (std::size_t j = 0; j < seconds.size(); ++j)
    if (computed[j] > 0.0 && seconds[j] > 0.0 &&
        (fastest < 0.0 || seconds[j] / computed[j] < fastest))
      fastest = seconds[j] / computed[j];
  if (fastest < 0.0 || !(computed[k] > 0.0 && seconds[k] > 0.0)) return 1.0;
  return fastest / (seconds[k] / computed[k]);
}

double stripe_share(const std::vector<double>& seconds, const std::vector<double>& computed,
                    std::size_t k) {
  return std::clamp(rate_ratio(seconds, computed, k), kLeastStripeShare, 1.0);
}

ShareSequence::ShareSequence(const std::vector<std::array<int, 2>>& ranges,
                             const std::vector<std::int64_t>& at)
    : ranges_(ranges), at_(at) {
  before_.push_back(0);
  for (const auto& [first, last] : ranges)
    before_.push_back(before_.back() + (at[last] - at[first]));
}

Cursor ShareSequence::at(double fraction) const {
  if (ranges_.empty()) return {};
  if (fraction >= 1.0) return {ranges_.size() - 1, ranges_.back()[1]};
  const auto target =
      static_cast<std::int64_t>(static_cast<double>(before_.back()) * std::max(fraction, 0.0));
  // The last range whose quartets begin at or before the target.
  const std::size_t r = static_cast<std::size_t>(
      std::upper_bound(before_.begin(), before_.end() - 1, target) - before_.begin() - 1);
  const auto [first, last] = ranges_[r];
  const std::int64_t within = at_[first] + (target - before_[r]);
  const int bra = static_cast<int>(
      std::lower_bound(at_.begin() + first, at_.begin() + last, within) - at_.begin());
  return normal({r, bra});
}

Cursor ShareSequence::after_one_bra(const Cursor& c) const {
  if (ranges_.empty() || c.bra >= ranges_[c.range][1]) return c;
  return normal({c.range, c.bra + 1});
}

Cursor ShareSequence::normal(const Cursor& c) const {
  if (c.bra == ranges_[c.range][1] && c.range + 1 < ranges_.size())
    return {c.range + 1, ranges_[c.range + 1][0]};
  return c;
}

}  // namespace trial

void GBuilder::build_trial(const std::vector<const GUpdate*>& candidates,
                           const Matrix<DeviceMemory>& density, const Matrix<DeviceMemory>& g,
                           const ChooseCandidate& choose) {
  Build build;
  build.density = density;
  build.g = g;
  Kokkos::deep_copy(g, 0.0);
  screen(density, build);
  const std::size_t classes = plan_.classes.size(), count = candidates.size();
  last_.seconds.assign(classes, 0.0);
  // Per candidate, the largest share its stripes reached in a class so far: one that stayed far
  // behind the fastest in every class before starts the next one at that share.
  std::vector<double> best_share(count, 0.0);
  for (std::size_t i = 0; i < classes; ++i) {
    std::vector<double> candidate_seconds(count, 0.0), candidate_computed(count, 0.0);
    // The rank's share, its ranges one after another, in `rounds` segments of equal quartet
    // counts, so that every candidate samples the share from end to end. A segment begins with one
    // stripe per candidate, together trial::kShare of it at most (trial::stripe_share); the rest of
    // it waits for the choice. Segments over the share as a whole, not over each of its ranges: per
    // range, each of a rank's eight ranges took its own rounds of stripes, and on four ranks the
    // trial cost more than a whole build (docs/notes/scaling.md).
    std::vector<std::array<trial::Cursor, 2>> rest;
    const auto timed = [&](const GUpdate& update, const trial::Cursor& from,
                           const trial::Cursor& to) {
      const double before = kept_[i];
      Kokkos::fence();
      const auto start = std::chrono::steady_clock::now();
      for (std::size_t r = from.range; r <= to.range && r < plan_.classes[i].share.size(); ++r) {
        const auto [first, last] = plan_.classes[i].share[r];
        const int begin = r == from.range ? from.bra : first;
        const int end = r == to.range ? to.bra : last;
        if (end > begin) run_class(update, i, begin, end, build);
      }
      Kokkos::fence();
      const double seconds = seconds_since(start);
      last_.seconds[i] += seconds;
      return std::array<double, 2>{seconds, kept_[i] - before};
    };
    if (build.candidates[i] > 0) {
      const trial::ShareSequence share(plan_.classes[i].share, offsets(i, build));
      // As many segments as give every candidate the first stripe of a segment equally often: the
      // cost of a quartet changes along the lists, and a fixed order favoured one candidate:
      // (pp|pp) went to the slower of the atomics at every size (docs/notes/hf-kernels.md).
      const std::size_t rounds = (trial::kStripesPerCandidate + count - 1) / count * count;
      const double segment = 1.0 / static_cast<double>(rounds);
      const double stripe = segment * trial::kShare / static_cast<double>(count);
      // Pieces follow one another: a bra longer than a piece ends it.
      trial::Cursor begin = share.at(0.0);
      const auto piece_to = [&](double fraction) {
        const trial::Cursor from = begin;
        begin = std::max(begin, share.at(fraction));
        return std::array<trial::Cursor, 2>{from, begin};
      };
      for (std::size_t r = 0; r < rounds; ++r) {
        const double at_segment = static_cast<double>(r) * segment;
        double reached = at_segment;
        for (std::size_t j = 0; j < count; ++j) {
          const std::size_t k = (j + r) % count;
          const double share_k = candidate_computed[k] > 0.0
                                     ? trial::stripe_share(candidate_seconds, candidate_computed, k)
                                 : best_share[k] > 0.0 && best_share[k] <= trial::kHopelessShare
                                     ? std::max(best_share[k], trial::kLeastStripeShare)
                                     : 1.0;
          reached += stripe * share_k;
          auto [from, to] = piece_to(reached);
          // A class too small for a stripe to reach a bra's end still rates its first candidate on
          // one bra: a class nobody rated went to the first candidate untimed.
          if (r == 0 && j == 0 && !(from < to)) to = begin = share.after_one_bra(begin);
          const std::array<double, 2> took = timed(*candidates[k], from, to);
          candidate_seconds[k] += took[0];
          candidate_computed[k] += took[1];
        }
        rest.push_back(piece_to(r + 1 == rounds ? 1.0 : at_segment + segment));
      }
      for (std::size_t k = 0; k < count; ++k)
        if (candidate_computed[k] > 0.0)
          best_share[k] = std::max(
              best_share[k],
              std::clamp(trial::rate_ratio(candidate_seconds, candidate_computed, k), 0.0, 1.0));
    }
    const std::size_t chosen = choose(i, candidate_seconds, candidate_computed);
    for (const auto& [from, to] : rest)
      timed(*candidates.at(chosen), from, to);
  }
  finish(build, g);
}

}  // namespace kmini::hf
