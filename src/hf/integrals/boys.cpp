#include "hf/integrals/boys.hpp"

#include <cmath>

namespace kmini::hf {

Kokkos::View<BoysRow**, Kokkos::LayoutRight, Kokkos::HostSpace> boys_rows() {
  constexpr int orders = kBoysMaxOrder + kBoysTaylorTerms;  // F_0 .. F_15 at each grid point
  Kokkos::View<BoysRow**, Kokkos::LayoutRight, Kokkos::HostSpace> rows(
      "hf::boys_rows", kBoysMaxOrder + 1, kBoysTableRows);
  for (int i = 0; i < kBoysTableRows; ++i) {
    const long double t = i * static_cast<long double>(kBoysTableStep);
    double f[orders];
    for (int m = 0; m < orders; ++m) {
      // Terms grow while 2T > 2m+1 and then fall faster than geometrically.
      long double term = 1.0L / (2 * m + 1), sum = term;
      for (int k = 1; term > 1e-21L * sum; ++k) {
        term *= 2.0L * t / (2 * m + 2 * k + 1);
        sum += term;
      }
      f[m] = static_cast<double>(std::exp(-t) * sum);
    }
    for (int top = 0; top <= kBoysMaxOrder; ++top) {
      BoysRow& row = rows(top, i);
      for (int k = 0; k < kBoysDoubleTerms; ++k)
        row.leading[k] = f[top + k];
      for (int k = kBoysDoubleTerms; k < kBoysTaylorTerms; ++k)
        row.trailing[k - kBoysDoubleTerms] = static_cast<float>(f[top + k]);
    }
  }
  return rows;
}

}  // namespace kmini::hf
