// The Boys function F_m(T) = integral_0^1 u^{2m} exp(-T u^2) du, which every Coulomb integral over
// Gaussians reduces to.
//
// Below T = kBoysTableEnd, F_M comes from a Taylor series about the nearest point of a grid of
// step 0.1 (dF_m/dT = -F_{m+1}, so the table's higher orders are its derivatives; 8 terms leave
// an error under 1e-16 relative at |dT| <= 0.05), and the lower orders from the downward
// recursion F_m = (2T F_{m+1} + e^-T)/(2m+1), which is stable. Above it, F_0 is its limit
// sqrt(pi / T) / 2 (the erf it omits is 1 to double precision there) and the others come from
// the upward recursion, which is stable there since 2T > 2m+1. The grid is
// filled once on the host from a series in long double.
#pragma once

#include <cmath>

#include <Kokkos_Core.hpp>

#include "core/paired_load.hpp"
#include "hf/unrolled.hpp"

namespace kmini::hf {

// The highest order the table serves: 4 l_max for the ERIs of d shells.
constexpr int kBoysMaxOrder = 8;
constexpr int kBoysTaylorTerms = 8;
constexpr double kBoysTableStep = 0.1;
constexpr double kBoysTableEnd = 40.0;
constexpr int kBoysTableRows = 401;  // T = 0, 0.1, ..., 40
constexpr int kBoysTableOrders = kBoysMaxOrder + kBoysTaylorTerms;

template <class Memory>
struct BoysTable {
  // F_m(i * kBoysTableStep) at (i, m).
  Kokkos::View<const double**, Kokkos::LayoutRight, Memory> values;

  // A row's F_M .. F_{M + kBoysTaylorTerms - 1}, read in aligned pairs (16-byte loads on the
  // GPU: a row is 128 bytes and the table's allocation aligned): each primitive quartet below
  // kBoysTableEnd reads a row of its own, and the s classes' kernels were bound by their L1
  // traffic.
  template <int M>
  KOKKOS_FORCEINLINE_FUNCTION static void read_terms(const double* row, double* terms) {
    constexpr int first = M / 2 * 2;
    constexpr int pairs = (M - first + kBoysTaylorTerms + 1) / 2;
    static_assert(first + 2 * pairs <= kBoysTableOrders, "the pairs stay within the row");
    double read[2 * pairs];
    Impl::static_for<0, pairs>([&](auto k) {
      constexpr int at = 2 * decltype(k)::value;
      load_two(row + first + at, read[at], read[at + 1]);
    });
    Impl::static_for<0, kBoysTaylorTerms>(
        [&](auto k) { terms[decltype(k)::value] = read[M - first + decltype(k)::value]; });
  }

  // F_0(t) .. F_M(t) into f[0..M]. Runs once per primitive quartet, so every division is by a
  // compile-time constant (a product with its reciprocal) and exp is taken only where used.
  template <int M>
  KOKKOS_INLINE_FUNCTION void evaluate(double t, double* f) const {
    static_assert(M <= kBoysMaxOrder, "the table does not reach this order");
    if (t < kBoysTableEnd) {
      const int row = static_cast<int>(t * (1.0 / kBoysTableStep) + 0.5);
      const double dt = row * kBoysTableStep - t;
      double terms[kBoysTaylorTerms];  // F_{M+k}(T0), k = 0 .. kBoysTaylorTerms - 1
      read_terms<M>(&values(row, 0), terms);
      // Horner over the Taylor terms F_{M+k}(T0) dt^k / k!, k from the last down to 1.
      double sum = terms[kBoysTaylorTerms - 1];
      Impl::static_for<1, kBoysTaylorTerms>([&](auto i) {
        constexpr int k = kBoysTaylorTerms - decltype(i)::value;
        sum = terms[k - 1] + sum * dt * (1.0 / k);
      });
      f[M] = sum;
      if constexpr (M > 0) {
        const double exp_minus_t = exp(-t);
        Impl::static_for<0, M>([&](auto i) {
          constexpr int m = M - 1 - decltype(i)::value;
          f[m] = (2.0 * t * f[m + 1] + exp_minus_t) * (1.0 / (2 * m + 1));
        });
      }
    } else {
      // erf(sqrt(t)) rounds to 1 from t = 40 on (erfc(sqrt(40)) < 4e-19), so F_0 is its limit.
      const double inverse_root = reciprocal_sqrt(t);
      f[0] = 0.886226925452758014 * inverse_root;  // sqrt(pi)/2
      if constexpr (M > 0) {
        const double exp_minus_t = exp(-t);
        const double half_inverse = 0.5 * inverse_root * inverse_root;
        Impl::static_for<0, M>([&](auto i) {
          constexpr int m = decltype(i)::value;
          f[m + 1] = ((2 * m + 1) * f[m] - exp_minus_t) * half_inverse;
        });
      }
    }
  }
};

// The grid of F_m values, from the series F_m(T) = e^-T sum_i (2T)^i / ((2m+1)(2m+3)..(2m+2i+1))
// of positive terms (so no cancellation), summed in long double.
Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> boys_grid();

template <class Memory>
BoysTable<Memory> make_boys_table() {
  const auto grid = boys_grid();
  Kokkos::View<double**, Kokkos::LayoutRight, Memory> values("hf::boys_table", grid.extent(0),
                                                             grid.extent(1));
  Kokkos::deep_copy(values, grid);
  return BoysTable<Memory>{values};
}

}  // namespace kmini::hf
