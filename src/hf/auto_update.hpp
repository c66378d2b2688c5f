// The hf app's auto variant: the G update chosen class by class, by timing. Which update is
// fastest depends on the class and on the size: on the H100, (ps|ss) quartets of 64 waters in
// 6-31G were 20% faster with warp-aggregated atomics while every other class was faster with
// plain ones, and kernel_split's gather needs many shells to fill the GPU. So auto builds G with
// each candidate in turn in the SCF's first iterations, twice each (the first absorbs kernel
// loading and buffer allocation), times every class of the second build, and from then on
// gives each class its fastest candidate. Every build is a real SCF iteration: the trials cost
// nothing but the slower candidates' extra time.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "hf/g_build.hpp"

namespace kmini::hf {

// For each class (column of seconds[candidate][class]), the candidate with the least time; ties
// and classes nobody timed go to the earlier candidate.
std::vector<std::size_t> fastest_per_class(const std::vector<std::vector<double>>& seconds);

class AutoUpdate {
 public:
  // `slowest_rank` turns a rank's time into the largest over ranks (a collective: every rank
  // makes the same choice).
  AutoUpdate(std::vector<GUpdate> candidates, std::function<double(double)> slowest_rank);

  // One G build: the next trial while there is one, the chosen update per class after that.
  void build(GBuilder& builder, const Matrix<DeviceMemory>& density, const Matrix<DeviceMemory>& g);

  // Ends the trials with what they measured (the SCF may converge before they are done): a
  // candidate never timed is not chosen. Called by build after the last trial; every rank must
  // call it at the same point.
  void decide(const QuartetPlan& plan);

  bool decided() const { return decided_; }
  const std::vector<GUpdate>& candidates() const { return candidates_; }
  // Per class of the plan, once decided.
  const std::vector<GUpdate>& choice() const { return choice_; }
  // Per candidate, its timed trial build summed over classes (slowest rank per class); a
  // negative value when it was never timed.
  std::vector<double> trial_seconds() const;

 private:
  std::vector<GUpdate> candidates_;
  std::function<double(double)> slowest_rank_;
  int builds_ = 0;
  // seconds_[candidate][class], from the candidate's latest build; empty until it has one.
  std::vector<std::vector<double>> seconds_;
  bool decided_ = false;
  std::vector<GUpdate> choice_;
};

// The candidates where G lives: the device updates (atomic, warp_aggregated, kernel_split) on
// every backend, plus cpu on a host-only build with OpenMP. host_update is never faster than
// both of its neighbours, and on a GPU build the host's updates are 30 to 300 times slower.
std::vector<GUpdate> auto_candidates();

}  // namespace kmini::hf
