// G for a sequence of densities, built from each density's change since the last build.
//
// G is linear in the density, so G(D_n) = G(D_{n-1}) + G(D_n - D_{n-1}). As an SCF converges the
// change shrinks, and with density screening (quartet_screen.hpp) so does the number of
// quartets whose contribution to G(D_n - D_{n-1}) can reach the threshold: late iterations cost a
// fraction of a full build. Each skipped contribution is below the threshold, but they add up:
// late in an SCF the change is small and spread over the whole matrix, so that nearly every
// quartet is skipped, each with a contribution close to its bound, and the skipped parts of
// successive changes do not cancel. Screened at the full build's threshold, that noise (1e-7
// hartree a build for 64 to 128 waters in 6-31G at 1e-11, measured on the H100) kept the SCF from
// converging to 1e-9. So a change is screened at the threshold times
// max|change| / max|density|, but never tighter than kTightestScale times it: early changes
// are as large as the density and screened like it; late ones, a thousandth as tight, still
// skip all but the largest quartets, since their density is a billionth. A full build every
// `full_rebuild_every` builds starts the sum afresh.
#pragma once

#include <functional>

#include <Kokkos_Core.hpp>

#include "hf/quartet_screen.hpp"

namespace kmini::hf {

enum class FockBuild { full, incremental };

class IncrementalG {
 public:
  using DeviceMatrix = Matrix<Kokkos::DefaultExecutionSpace::memory_space>;
  // G of any density (a change of density too), summed over ranks, with the screening threshold
  // multiplied by `threshold_scale`.
  using Build = std::function<void(const DeviceMatrix& density, const DeviceMatrix& g,
                                   double threshold_scale)>;

  static constexpr double kTightestScale = 1e-3;

  IncrementalG(FockBuild mode, int full_rebuild_every);

  // G(density) into g, by `build` of the whole density or of its change since the last call.
  void next(const DeviceMatrix& density, const DeviceMatrix& g, const Build& build);

  // Whether the latest call built G from the whole density, and its threshold's scale.
  bool last_was_full() const { return last_full_; }
  double last_threshold_scale() const { return last_scale_; }

 private:
  FockBuild mode_;
  int full_rebuild_every_;
  int builds_ = 0;
  bool last_full_ = true;
  double last_scale_ = 1.0;
  DeviceMatrix previous_density_, previous_g_, change_;
};

}  // namespace kmini::hf
