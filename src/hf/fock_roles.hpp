// How one shell quartet's integrals feed the two-electron part of the Fock matrix.
//
// For the closed-shell G = J - K/2 with the total density D, a unique integral (ij|kl) stands for
// its 8 permutations. Accumulating into a G that is symmetrised at the end, (G + G^T)/2, its six
// updates are
//   G_ij += 4 D_kl x   G_kl += 4 D_ij x                                   (Coulomb)
//   G_ik -= D_jl x     G_jl -= D_ik x    G_il -= D_jk x    G_jk -= D_il x  (exchange)
// with x the integral over the number of its permutations that coincide. At the level of shells
// the quartet's block holds both (ij| and (ji| when a = b, so x = (ab|cd) w with the shell weight
// w = 1/2 for a = b, 1/2 for c = d and 1/2 for (ab| = (cd| multiplied together; no per-function
// test is needed.
//
// Each update is a "role": it targets the G block of two of the quartet's shells and sums over
// the other two. The atomic variants apply all six roles from the thread that computed the
// quartet; kernel_split's second kernel gathers, for one G block, every quartet's role that
// targets it.
#pragma once

#include <Kokkos_Core.hpp>

#include "hf/eri.hpp"

namespace kmini::hf {

// Shell slots of a quartet: 0 = a, 1 = b, 2 = c, 3 = d.
template <int Role>
struct FockRole;
template <>
struct FockRole<0> {  // G_ab += 4 sum_cd D_cd (ab|cd)
  static constexpr int row = 0, col = 1, sum_row = 2, sum_col = 3;
  static constexpr double factor = 4.0;
};
template <>
struct FockRole<1> {  // G_cd += 4 sum_ab D_ab (ab|cd)
  static constexpr int row = 2, col = 3, sum_row = 0, sum_col = 1;
  static constexpr double factor = 4.0;
};
template <>
struct FockRole<2> {  // G_ac -= sum_bd D_bd (ab|cd)
  static constexpr int row = 0, col = 2, sum_row = 1, sum_col = 3;
  static constexpr double factor = -1.0;
};
template <>
struct FockRole<3> {  // G_bd -= sum_ac D_ac (ab|cd)
  static constexpr int row = 1, col = 3, sum_row = 0, sum_col = 2;
  static constexpr double factor = -1.0;
};
template <>
struct FockRole<4> {  // G_ad -= sum_bc D_bc (ab|cd)
  static constexpr int row = 0, col = 3, sum_row = 1, sum_col = 2;
  static constexpr double factor = -1.0;
};
template <>
struct FockRole<5> {  // G_bc -= sum_ad D_ad (ab|cd)
  static constexpr int row = 1, col = 2, sum_row = 0, sum_col = 3;
  static constexpr double factor = -1.0;
};
constexpr int kFockRoles = 6;

template <class Class>
KOKKOS_INLINE_FUNCTION constexpr int slot_functions(int slot) {
  return slot == 0 ? Class::na : slot == 1 ? Class::nb : slot == 2 ? Class::nc : Class::nd;
}

// The quartet's contribution to element (x, y) of its Role block: factor times the sum over the
// other two shells' functions of D times the (already weighted) integral.
template <class Class, int Role, class Density>
KOKKOS_INLINE_FUNCTION double role_contribution(const int first[4], const double* eri,
                                                const Density& density, int x, int y) {
  using R = FockRole<Role>;
  constexpr int n_u = slot_functions<Class>(R::sum_row), n_v = slot_functions<Class>(R::sum_col);
  double sum = 0.0;
  KMINI_HF_UNROLL
  for (int u = 0; u < n_u; ++u) {
    KMINI_HF_UNROLL
    for (int v = 0; v < n_v; ++v) {
      int index[4] = {0, 0, 0, 0};
      index[R::row] = x;
      index[R::col] = y;
      index[R::sum_row] = u;
      index[R::sum_col] = v;
      const int at =
          ((index[0] * Class::nb + index[1]) * Class::nc + index[2]) * Class::nd + index[3];
      sum += density(first[R::sum_row] + u, first[R::sum_col] + v) * eri[at];
    }
  }
  return R::factor * sum;
}

// Applies one role of a quartet through add(row, col, value).
template <class Class, int Role, class Density, class Add>
KOKKOS_INLINE_FUNCTION void scatter_role(const int first[4], const double* eri,
                                         const Density& density, const Add& add) {
  using R = FockRole<Role>;
  KMINI_HF_UNROLL
  for (int x = 0; x < slot_functions<Class>(R::row); ++x) {
    KMINI_HF_UNROLL
    for (int y = 0; y < slot_functions<Class>(R::col); ++y)
      add(first[R::row] + x, first[R::col] + y,
          role_contribution<Class, Role>(first, eri, density, x, y));
  }
}

// All six roles of one quartet.
template <class Class, class Density, class Add>
KOKKOS_INLINE_FUNCTION void scatter_quartet(const int first[4], const double* eri,
                                            const Density& density, const Add& add) {
  scatter_role<Class, 0>(first, eri, density, add);
  scatter_role<Class, 1>(first, eri, density, add);
  scatter_role<Class, 2>(first, eri, density, add);
  scatter_role<Class, 3>(first, eri, density, add);
  scatter_role<Class, 4>(first, eri, density, add);
  scatter_role<Class, 5>(first, eri, density, add);
}

}  // namespace kmini::hf
