// max |m_ij| of a matrix where its execution space can read it: the SCF's commutator norm and
// the incremental build's sizes of a density and its change.
#pragma once

#include <Kokkos_Core.hpp>

namespace kmini::hf {

template <class View>
double largest_magnitude(const char* label, const View& m) {
  using Exec = typename View::execution_space;
  double largest = 0.0;
  Kokkos::parallel_reduce(
      label, Kokkos::RangePolicy<Exec>(0, static_cast<int>(m.size())),
      KOKKOS_LAMBDA(const int k, double& running) {
        const double v = m.data()[k] < 0.0 ? -m.data()[k] : m.data()[k];
        if (v > running) running = v;
      },
      Kokkos::Max<double>(largest));
  return largest;
}

}  // namespace kmini::hf
