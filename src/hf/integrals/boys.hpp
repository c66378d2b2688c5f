// The Boys function F_m(T) = integral_0^1 u^{2m} exp(-T u^2) du, which every Coulomb integral over
// Gaussians reduces to.
//
// Below T = kBoysTableEnd, F_M comes from a Taylor series about the nearest point of a grid of
// step 1/16 (dF_m/dT = -F_{m+1}, so the table's higher orders are its derivatives), and the lower
// orders from the downward recursion F_m = (2T F_{m+1} + e^-T)/(2m+1), which is stable. Above
// it, F_0 is its limit sqrt(pi / T) / 2 (the erf it omits is 1 to double precision there) and the
// others come from the upward recursion, which is stable there since 2T > 2m+1. Further out still
// (boys_asymptotic_from), e^-T drops out of that recursion too. The grid is filled once on the
// host from a series in long double.
//
// Each order M a kernel starts from has a table of its own, whose row at T0 holds the eight
// Taylor terms F_M(T0) .. F_{M+7}(T0) in 48 bytes, three 16-byte loads: the first four in double,
// the last four in float. With |dT| <= 1/32 the float terms' rounding (2^-24 relative) reaches
// at most 2^-24 (1/32)^4 / 4! = 2.4e-15 of F_M (F_{M+k} <= F_M), and the terms left out
// (1/32)^8 / 8! = 2.2e-17. The rows were 128 bytes for every order, read in four loads (five at
// odd M) from one 51 KB table; a class now reads 31 KB of its own order's. On the H100 that made
// no build faster: most primitive quartets of a large cluster are far apart, T >= kBoysTableEnd,
// and read no table at all (docs/performance-notes.md).
#pragma once

#include <cmath>

#include <Kokkos_Core.hpp>

#include "core/paired_load.hpp"
#include "hf/integrals/unrolled.hpp"

namespace kmini::hf {

// The highest order the tables serve: 4 l_max for the ERIs of d shells.
constexpr int kBoysMaxOrder = 8;
constexpr int kBoysTaylorTerms = 8;
constexpr int kBoysDoubleTerms = 4;  // the row's leading terms; the others are floats
constexpr double kBoysTableStep = 1.0 / 16;
constexpr double kBoysTableEnd = 40.0;
constexpr int kBoysTableRows = 641;  // T = 0, 1/16, ..., 40

// Order M's table at one grid point T0 (the layout above).
struct alignas(16) BoysRow {
  double leading[kBoysDoubleTerms];                     // F_M(T0) .. F_{M+3}(T0)
  float trailing[kBoysTaylorTerms - kBoysDoubleTerms];  // F_{M+4}(T0) .. F_{M+7}(T0)
};
static_assert(sizeof(BoysRow) == 48, "a row is three 16-byte loads");

// Orders up to this one are evaluated without the table: F_M from its series for small T, F_0 by
// erf and the upward recursion above that. (ss|ss) and (ps|ss), the s-heaviest classes, then load
// nothing per primitive quartet but its products; from M = 2 on the erf and the longer series
// cost more than the row's loads save (docs/performance-notes.md).
constexpr int kBoysTableFreeOrder = 1;

namespace Impl {

// Where the upward recursion takes over from the series for F_0 .. F_M, M <= kBoysTableFreeOrder.
// Upward, each step F_{m+1} = ((2m+1) F_m - e^-T) / (2T) loses digits to the difference as T
// falls: from these points on, F_0 .. F_M stay within 5e-15 relative of the exact values (the
// unit test holds every one to 1e-14), and the series needs at most 21 terms below them.
KOKKOS_INLINE_FUNCTION constexpr double boys_upward_from(int m) {
  return m == 0 ? 1e-3 : m == 1 ? 0.5 : m == 2 ? 1.0 : 2.0;
}
static_assert(kBoysTableFreeOrder <= 3, "boys_upward_from was measured for orders 0 to 3");

// Terms of F_M's series, sum_i (2T)^i / ((2M+3)(2M+5)..(2M+2i+1)) (over 1 / (2M+1)), that leave
// out under 1e-17 of it for every T below `below`: the first i whose term, bounding the
// geometric tail, falls that far (the sum is at least its first term, 1).
KOKKOS_INLINE_FUNCTION constexpr int boys_series_terms(int m, double below) {
  double term = 1.0;
  for (int i = 1;; ++i) {
    const double ratio = 2.0 * below / (2 * m + 2 * i + 1);
    term *= ratio;
    if (ratio < 1.0 && term / (1.0 - ratio) < 1e-17) return i;
  }
}

// From here on F_0 .. F_M are their asymptotic forms, F_0 = sqrt(pi / T) / 2 and
// F_{m+1} = (2m+1) F_m / (2T), to within 2^-53 relative of the exact values: the erfc(sqrt T) and
// e^-T that the exact forms add fall below rounding (found with 50-digit arithmetic on a grid of
// 1/4, checked up to T = 120). A large cluster's primitive quartets are mostly this far apart, and
// the exponential is then the costliest part of the Boys function left.
KOKKOS_INLINE_FUNCTION constexpr double boys_asymptotic_from(int m) {
  constexpr double from[kBoysMaxOrder + 1] = {34.5,  38.75, 42.25, 45.25, 48.0,
                                              50.75, 53.25, 55.5,  57.75};
  return from[m];
}

// F_0 .. F_{M-1} from F_M by the downward recursion F_m = (2T F_{m+1} + e^-T)/(2m+1), stable.
template <int M>
KOKKOS_FORCEINLINE_FUNCTION void boys_downward(double t, double* f) {
  if constexpr (M > 0) {
    const double exp_minus_t = exp(-t);
    static_for<0, M>([&](auto k_) {
      constexpr int m = M - 1 - decltype(k_)::value;
      f[m] = (2.0 * t * f[m + 1] + exp_minus_t) * (1.0 / (2 * m + 1));
    });
  }
}

// F_0 = sqrt(pi)/2 erf(sqrt T) / sqrt T, the others by the upward recursion; `Asymptotic` (for T
// from boys_asymptotic_from(M) on) leaves out the erfc and e^-T, which fall below rounding there.
template <int M, bool Asymptotic = false>
KOKKOS_FORCEINLINE_FUNCTION void boys_upward(double t, double* f) {
  const double inverse_root = reciprocal_sqrt(t);
  // erf(sqrt(t)) rounds to 1 from t = 40 on (erfc(sqrt(40)) < 4e-19), so F_0 is its limit.
  const double erf_root = !Asymptotic && t < kBoysTableEnd ? erf(t * inverse_root) : 1.0;
  f[0] = 0.886226925452758014 * erf_root * inverse_root;  // sqrt(pi)/2
  if constexpr (M > 0) {
    const double exp_minus_t = Asymptotic ? 0.0 : exp(-t);
    const double half_inverse = 0.5 * inverse_root * inverse_root;
    static_for<0, M>([&](auto k_) {
      constexpr int m = decltype(k_)::value;
      f[m + 1] = ((2 * m + 1) * f[m] - exp_minus_t) * half_inverse;
    });
  }
}

// F_M = e^-T sum_i (2T)^i / ((2M+1)(2M+3)..(2M+2i+1)), terms all positive, by Horner; then the
// lower orders downward.
template <int M>
KOKKOS_FORCEINLINE_FUNCTION void boys_by_series(double t, double* f) {
  constexpr int terms = boys_series_terms(M, boys_upward_from(M));
  const double two_t = 2.0 * t;
  double sum = 1.0;
  static_for<1, terms>([&](auto i_) {
    constexpr int i = terms - decltype(i_)::value;
    sum = 1.0 + sum * two_t * (1.0 / (2 * M + 2 * i + 1));
  });
  f[M] = exp(-t) * sum * (1.0 / (2 * M + 1));
  boys_downward<M>(t, f);
}

}  // namespace Impl

template <class Memory>
struct BoysTable {
  // rows(M, i): order M's row at T0 = i * kBoysTableStep.
  Kokkos::View<const BoysRow**, Kokkos::LayoutRight, Memory> rows;

  // F_0(t) .. F_M(t) into f[0..M]. Runs once per primitive quartet, so every division is by a
  // compile-time constant (a product with its reciprocal) and exp is taken only where used.
  template <int M>
  KOKKOS_INLINE_FUNCTION void evaluate(double t, double* f) const {
    static_assert(M <= kBoysMaxOrder, "the table does not reach this order");
    if (t >= Impl::boys_asymptotic_from(M)) {
      Impl::boys_upward<M, true>(t, f);
      return;
    }
    if constexpr (M <= kBoysTableFreeOrder) {
      if (t < Impl::boys_upward_from(M))
        Impl::boys_by_series<M>(t, f);
      else
        Impl::boys_upward<M>(t, f);
    } else if (t < kBoysTableEnd) {
      const int i = static_cast<int>(t * (1.0 / kBoysTableStep) + 0.5);
      const double dt = i * kBoysTableStep - t;
      const BoysRow& row = rows(M, i);
      double terms[kBoysTaylorTerms];  // F_{M+k}(T0), k = 0 .. kBoysTaylorTerms - 1
      load_two(&row.leading[0], terms[0], terms[1]);
      load_two(&row.leading[2], terms[2], terms[3]);
      float trailing[4];
      load_16_bytes(row.trailing, trailing);
      Impl::static_for<0, 4>([&](auto k) {
        terms[kBoysDoubleTerms + decltype(k)::value] = trailing[decltype(k)::value];
      });
      // Horner over the Taylor terms F_{M+k}(T0) dt^k / k!, k from the last down to 1.
      double sum = terms[kBoysTaylorTerms - 1];
      Impl::static_for<1, kBoysTaylorTerms>([&](auto k_) {
        constexpr int k = kBoysTaylorTerms - decltype(k_)::value;
        sum = terms[k - 1] + sum * dt * (1.0 / k);
      });
      f[M] = sum;
      Impl::boys_downward<M>(t, f);
    } else {
      Impl::boys_upward<M>(t, f);
    }
  }
};

// Every order's table, from the series F_m(T) = e^-T sum_i (2T)^i / ((2m+1)(2m+3)..(2m+2i+1))
// of positive terms (so no cancellation), summed in long double.
Kokkos::View<BoysRow**, Kokkos::LayoutRight, Kokkos::HostSpace> boys_rows();

template <class Memory>
BoysTable<Memory> make_boys_table() {
  const auto host = boys_rows();
  Kokkos::View<BoysRow**, Kokkos::LayoutRight, Memory> rows("hf::boys_table", host.extent(0),
                                                            host.extent(1));
  Kokkos::deep_copy(rows, host);
  return BoysTable<Memory>{rows};
}

}  // namespace kmini::hf
