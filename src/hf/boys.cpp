#include "hf/boys.hpp"

#include <cmath>

namespace kmini::hf {

Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> boys_grid() {
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> grid(
      "hf::boys_grid", kBoysTableRows, kBoysTableOrders);
  for (int row = 0; row < kBoysTableRows; ++row) {
    const long double t = row * static_cast<long double>(kBoysTableStep);
    for (int m = 0; m < kBoysTableOrders; ++m) {
      // Terms grow while 2T > 2m+2i+1 and then fall faster than geometrically.
      long double term = 1.0L / (2 * m + 1), sum = term;
      for (int i = 1; term > 1e-21L * sum; ++i) {
        term *= 2.0L * t / (2 * m + 2 * i + 1);
        sum += term;
      }
      grid(row, m) = static_cast<double>(std::exp(-t) * sum);
    }
  }
  return grid;
}

}  // namespace kmini::hf
