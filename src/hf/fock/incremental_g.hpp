// G for a sequence of densities, built from each density's change since the last build.
//
// G is linear in the density, so G(D_n) = G(D_{n-1}) + G(D_n - D_{n-1}). As an SCF converges the
// change shrinks, and with density screening (quartet_screen.hpp) so does the number of
// quartets whose contribution to G(D_n - D_{n-1}) can reach the threshold. Each skipped
// contribution is below the threshold, as in a full build, but the skipped parts of successive
// changes add up instead of repeating: late in an SCF the change is small and spread over the
// whole matrix, so that nearly every quartet is skipped, each with a contribution close to its
// bound. Screened at the full build's threshold, that noise (1e-7 hartree a build for 64 to 128
// waters in 6-31G at 1e-11, measured on the H100) kept the SCF from converging to 1e-9.
//
// So a build takes one of three forms, by the change's size r = max|change| / max|density|
// (1 for the first build, from the guess):
//   - loose, while r >= kLooseAbove: at the threshold times r / kLooseReference, at most
//     `loosest_scale` times it (loosest_scale_for: never looser than 1e-9, so that a loose
//     build's noise cannot keep the change from ever falling below kLooseAbove). A change of
//     relative size r screened so keeps about the quartets of a full build at the threshold over
//     kLooseReference, and the quartets kept fall slowly with the threshold: at r / kLooseAbove
//     these builds kept over half of a full build's (docs/performance-notes.md). The energy still
//     moves by far more than they err (1e-6 hartree and more for 128 waters at the full
//     threshold), and nothing of them lasts: the sum of their errors is dropped by:
//   - full: the first build after loose ones whose change falls below kLooseAbove, at the full
//     threshold, and every `full_rebuild_every`-th build since the last full one (the first
//     build is one, loose);
//   - tight, after that: the change (r below kLooseAbove) at kTightestScale times the
//     threshold. Against its bound over the whole density a quartet is then screened at the
//     threshold times kTightestScale / r, so late changes skip all but the largest quartets,
//     and each build's noise is about kTightestScale times that of a change screened at the
//     threshold, below what the convergence test can see. At a thousandth the first tight
//     builds cost nearly a full one (docs/performance-notes.md).
#pragma once

#include <functional>

#include <Kokkos_Core.hpp>

#include "hf/screening/quartet_screen.hpp"

namespace kmini::hf {

enum class FockBuild { full, incremental };

class IncrementalG {
 public:
  using DeviceMatrix = Matrix<Kokkos::DefaultExecutionSpace::memory_space>;
  // G of any density (a change of density too), summed over ranks, with the screening threshold
  // multiplied by `threshold_scale`.
  using Build = std::function<void(const DeviceMatrix& density, const DeviceMatrix& g,
                                   double threshold_scale)>;

  static constexpr double kLooseAbove = 1e-3;
  static constexpr double kLooseReference = 1e-4;
  static constexpr double kLoosestScale = 1000.0;
  static constexpr double kLoosestThreshold = 1e-9;
  static constexpr double kTightestScale = 1e-2;

  // How much looser than `threshold` the loose builds may screen: kLoosestScale, less where that
  // would pass kLoosestThreshold, and never below 1.
  static double loosest_scale_for(double threshold);
  // The threshold's scale of a build whose change has relative size r, in mode `mode`.
  static double scale_for(FockBuild mode, bool full, double r, double loosest_scale);

  IncrementalG(FockBuild mode, int full_rebuild_every, double loosest_scale);

  // G(density) into g, by `build` of the whole density or of its change since the last call.
  void next(const DeviceMatrix& density, const DeviceMatrix& g, const Build& build);

  // Whether the latest call built G from the whole density, and its threshold's scale.
  bool last_was_full() const { return last_full_; }
  double last_threshold_scale() const { return last_scale_; }

 private:
  FockBuild mode_;
  int full_rebuild_every_;
  double loosest_scale_;
  int builds_ = 0;
  int since_full_ = 0;  // builds since the last full one, that one included
  bool loose_since_full_ = false;
  bool last_full_ = true;
  double last_scale_ = 1.0;
  DeviceMatrix previous_density_, previous_g_, change_;
};

}  // namespace kmini::hf
