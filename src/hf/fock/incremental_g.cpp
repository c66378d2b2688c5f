#include "hf/fock/incremental_g.hpp"

#include <algorithm>

#include "hf/screening/largest_magnitude.hpp"

namespace kmini::hf {

namespace {

using Device = Kokkos::DefaultExecutionSpace;

// a = b - c, or a = b + c, element by element.
void combine(const char* label, const IncrementalG::DeviceMatrix& a,
             const IncrementalG::DeviceMatrix& b, const IncrementalG::DeviceMatrix& c,
             double sign) {
  Kokkos::parallel_for(
      label, Kokkos::RangePolicy<Device>(0, static_cast<int>(a.size())),
      KOKKOS_LAMBDA(const int k) { a.data()[k] = b.data()[k] + sign * c.data()[k]; });
}

}  // namespace

IncrementalG::IncrementalG(FockBuild mode, int full_rebuild_every, double loosest_scale)
    : mode_(mode), full_rebuild_every_(full_rebuild_every), loosest_scale_(loosest_scale) {}

double IncrementalG::loosest_scale_for(double threshold) {
  return std::max(1.0, std::min(kLoosestScale, kLoosestThreshold / threshold));
}

double IncrementalG::scale_for(FockBuild mode, bool full, double r, double loosest_scale) {
  if (mode == FockBuild::full) return 1.0;
  if (r >= kLooseAbove) return std::max(1.0, std::min(loosest_scale, r / kLooseReference));
  return full ? 1.0 : kTightestScale;
}

void IncrementalG::next(const DeviceMatrix& density, const DeviceMatrix& g, const Build& build) {
  const int n = static_cast<int>(density.extent(0));
  if (previous_density_.extent(0) == 0) {
    previous_density_ = DeviceMatrix("hf::previous_density", n, n);
    previous_g_ = DeviceMatrix("hf::previous_g", n, n);
    change_ = DeviceMatrix("hf::density_change", n, n);
  }
  double relative = 1.0;
  if (mode_ == FockBuild::incremental && builds_ > 0) {
    combine("hf::density_change", change_, density, previous_density_, -1.0);
    const double whole = largest_magnitude("hf::largest_density", density);
    if (whole > 0.0) relative = largest_magnitude("hf::largest_density_change", change_) / whole;
  }
  const bool loose = mode_ == FockBuild::incremental && relative >= kLooseAbove;
  last_full_ = mode_ == FockBuild::full || builds_ == 0 || since_full_ >= full_rebuild_every_ ||
               (loose_since_full_ && !loose);
  last_scale_ = scale_for(mode_, last_full_, relative, loosest_scale_);
  if (last_full_) {
    build(density, g, last_scale_);
    since_full_ = 1;
    loose_since_full_ = loose;
  } else {
    build(change_, g, last_scale_);
    combine("hf::add_previous_g", g, g, previous_g_, 1.0);
    ++since_full_;
    loose_since_full_ = loose_since_full_ || loose;
  }
  Kokkos::deep_copy(previous_density_, density);
  Kokkos::deep_copy(previous_g_, g);
  ++builds_;
}

}  // namespace kmini::hf
