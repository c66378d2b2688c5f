// The hf app's auto variant: the G update chosen class by class, by timing. Which update is
// fastest depends on the class and on the size (one class can favour warp-aggregated atomics
// where the others favour plain ones, and kernel_split's gather needs many shells to fill the
// GPU: docs/notes/hf-kernels.md), so auto measures instead of following a table.
//
// The trial is the SCF's second G build: every candidate's kernels are first loaded on no work
// (GBuilder::warm_up), then up to a quarter of each class's quartets, spread along its lists, is
// split into stripes, a few per candidate, each timed on its own (GBuilder::build_trial); a
// candidate slower than the fastest so far takes smaller stripes, by its share of the fastest's
// rate (trial::stripe_share), and one that stayed four times slower or more in every
// class before starts the next at that share. A candidate's rate for a class is its time per
// quartet computed there; the class's fastest builds the rest of it at once, and every class of the
// builds that follow. The trial is a real SCF iteration, so it costs only what its slower
// candidates lose on their share of one build (trial_overhead); with equal shares, the slowest
// candidate's had cost most of a build (docs/notes/hf-kernels.md, auto's trial).
//
// The first build, from the guess, takes the first candidate: the guess's density is atoms
// alone, so the quartets it keeps are those with a pair or a pairing on one atom, and the rates
// they gave were not those of the SCF's later builds (docs/notes/hf-screening-and-builds.md,
// auto's trial moved).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "hf/fock/g_build.hpp"

namespace kmini::hf {

// For each class (column of seconds[candidate][class]), the candidate with the least value; ties
// go to the earlier candidate; a candidate whose row is empty or whose value is negative (never
// timed there) is never chosen, and a class nobody timed goes to the first candidate.
std::vector<std::size_t> fastest_per_class(const std::vector<std::vector<double>>& seconds);

class AutoUpdate {
 public:
  // `slowest_rank` turns a rank's value into the largest over ranks (a collective: every rank
  // makes the same choice).
  AutoUpdate(std::vector<const GUpdate*> candidates, std::function<double(double)> slowest_rank);

  // One G build: the trial while undecided, the chosen update per class after that.
  void build(GBuilder& builder, const Matrix<DeviceMemory>& density, const Matrix<DeviceMemory>& g);

  bool decided() const { return decided_; }
  const std::vector<const GUpdate*>& candidates() const { return candidates_; }
  // Per class of the plan, once decided.
  const std::vector<const GUpdate*>& choice() const { return choice_; }
  // rates()[candidate][class]: seconds per computed quartet in the trial (slowest rank); -1 where
  // the candidate computed none of the class.
  const std::vector<std::vector<double>>& rates() const { return rates_; }
  // The trial build's time beyond what the chosen updates would have taken for the same quartets
  // (slowest rank), and the trial build's whole time.
  double trial_overhead() const { return overhead_; }
  double trial_seconds() const { return trial_seconds_; }

 private:
  std::vector<const GUpdate*> candidates_;
  std::function<double(double)> slowest_rank_;
  bool decided_ = false;
  int builds_ = 0;
  std::vector<const GUpdate*> choice_;
  std::vector<std::vector<double>> rates_;
  double overhead_ = 0.0, trial_seconds_ = 0.0;
};

}  // namespace kmini::hf
