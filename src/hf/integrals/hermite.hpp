// McMurchie-Davidson's Hermite expansions, which the J engine (fock/j_engine.hpp) builds the
// Coulomb matrix from without forming any ERI:
//
//   - a primitive product of two Cartesian Gaussians is a sum of Hermite Gaussians
//     Lambda_tuv = d^t/dPx^t d^u/dPy^u d^v/dPz^v exp(-zeta |r - P|^2) with the coefficients
//     E^{ij}_t E^{kl}_u E^{mn}_v, one factor per axis (hermite_1d);
//   - the Coulomb interaction of two Hermite Gaussians is R_{t+tau, u+nu, v+phi}(rho, P - Q) times
//     (-1)^{tau+nu+phi}, with R from the Boys function by the recursion in hermite_coulomb.
//
// Hermite indices (t, u, v) of total degree up to L are numbered as Cartesian components are
// (component_index in basis/cartesian.hpp), components_up_to(L) of them.
#pragma once

#include <type_traits>

#include <Kokkos_Core.hpp>

#include "hf/basis/cartesian.hpp"
#include "hf/integrals/boys.hpp"
#include "hf/integrals/unrolled.hpp"

namespace kmini::hf {

// One axis's E^{ij}_t for i <= LA, j <= LB, t <= i + j, of a primitive product with P - A = pa,
// P - B = pb and 1 / (2 zeta) = half_inverse: e[i][j][t]. E^{00}_0 is 1: the product's weight
// (shell_pairs.hpp) carries its exp(-alpha beta / zeta |A - B|^2).
template <int LA, int LB>
struct HermiteAxis {
  double e[LA + 1][LB + 1][LA + LB + 1];
};

template <int LA, int LB>
KOKKOS_INLINE_FUNCTION void hermite_1d(double pa, double pb, double half_inverse,
                                       HermiteAxis<LA, LB>& out) {
  constexpr int T = LA + LB;
  for (int i = 0; i <= LA; ++i)
    for (int j = 0; j <= LB; ++j)
      for (int t = 0; t <= T; ++t)
        out.e[i][j][t] = 0.0;
  out.e[0][0][0] = 1.0;
  // Up in i from (i - 1, 0), then up in j from (i, j - 1):
  // E^{i+1,j}_t = E^{ij}_{t-1} / (2 zeta) + X_PA E^{ij}_t + (t + 1) E^{ij}_{t+1}, X_PB for j.
  for (int i = 0; i <= LA; ++i) {
    for (int j = 0; j <= LB; ++j) {
      if (i == 0 && j == 0) continue;
      const bool up_i = j == 0;
      const int pi = up_i ? i - 1 : i, pj = up_i ? j : j - 1;
      const double x = up_i ? pa : pb;
      for (int t = 0; t <= i + j; ++t) {
        double sum = x * out.e[pi][pj][t];
        if (t > 0) sum += half_inverse * out.e[pi][pj][t - 1];
        if (t + 1 <= pi + pj) sum += (t + 1) * out.e[pi][pj][t + 1];
        out.e[i][j][t] = sum;
      }
    }
  }
}

// R_tuv for t + u + v <= L into r[component_index(t, u, v)], from the auxiliary values
// auxiliary[n] = R^(n)_000, n = 0 .. L, by
//   R^(n)_{t+1,u,v} = t R^(n+1)_{t-1,u,v} + X_PQ R^(n+1)_{tuv}  (likewise along y and z),
// and R_tuv = R^(0)_tuv. One array serves every n: at step n the entries of degree d become
// R^(n) from R^(n+1) of degrees d - 1 and d - 2, taken from the highest degree down, so that
// those are still R^(n+1) when read. `Degree` is an int, or a std::integral_constant where the
// loops should fold to constants once unrolled (the J engine's interactions).
template <class Degree>
KOKKOS_FORCEINLINE_FUNCTION constexpr int degree_value(Degree degree) {
  // Degree::value, not the constant's conversion, which nvcc takes for host code alone.
  if constexpr (std::is_integral_v<Degree>)
    return degree;
  else
    return Degree::value;
}

template <class Degree>
KOKKOS_FORCEINLINE_FUNCTION void hermite_from_auxiliary(Degree degree, const double* auxiliary,
                                                        const double pq[3], double* r) {
  const int L = degree_value(degree);
  r[0] = auxiliary[L];
  // Nested loops over the powers, unrolled whole on a GPU where L is a constant, so that every
  // index folds to a constant and R stays in registers: left to itself, nvcc kept these loops
  // rolled from L = 3 up, and R in local memory.
  KMINI_HF_UNROLL
  for (int n = L - 1; n >= 0; --n) {
    KMINI_HF_UNROLL
    for (int d = L - n; d >= 1; --d) {
      KMINI_HF_UNROLL
      for (int t = d; t >= 0; --t) {
        KMINI_HF_UNROLL
        for (int u = d - t; u >= 0; --u) {
          const int v = d - t - u;
          // Built along the first axis with a non-zero power.
          const int axis = t > 0 ? 0 : u > 0 ? 1 : 2;
          const int power = (axis == 0 ? t : axis == 1 ? u : v) - 1;  // of R^(n+1) below
          const int lower = component_index(t - (axis == 0), u - (axis == 1), v - (axis == 2));
          double value = pq[axis] * r[lower];
          if (power > 0)
            value +=
                power *
                r[component_index(t - 2 * (axis == 0), u - 2 * (axis == 1), v - 2 * (axis == 2))];
          r[component_index(t, u, v)] = value;
        }
      }
    }
    r[0] = auxiliary[n];
  }
}

// R_tuv(rho, PQ) for t + u + v <= L, from the Boys values F_0 .. F_L at rho |PQ|^2:
// R^(n)_000 = (-2 rho)^n F_n.
template <int L, class Memory>
KOKKOS_INLINE_FUNCTION void hermite_coulomb(const BoysTable<Memory>& boys, double rho,
                                            const double pq[3], double* r) {
  double f[L + 1];
  boys.template evaluate<L>(rho * (pq[0] * pq[0] + pq[1] * pq[1] + pq[2] * pq[2]), f);
  double scale = 1.0;  // (-2 rho)^n
  for (int n = 0; n <= L; ++n) {
    f[n] *= scale;
    scale *= -2.0 * rho;
  }
  hermite_from_auxiliary(std::integral_constant<int, L>{}, f, pq, r);
}

}  // namespace kmini::hf
