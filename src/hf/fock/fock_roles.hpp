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

#include "hf/integrals/eri.hpp"
#include "hf/integrals/unrolled.hpp"

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

// The most integrals of a block whose Fock updates are unrolled on the GPU when they are made
// update by update, or gathered (gather_blocks.hpp): an s/p quartet's. Larger blocks (the d
// classes from (dp|pp) on) keep their integrals in local memory there anyway; scatter_roles'
// loop takes lanes of up to kMostDispatchedIntegrals.
constexpr int kMostUnrolledIntegrals = 81;

// The extents of a block of integrals, slot by slot (a, b, c, d): a whole quartet's, or one
// lane's share of it (see eri.hpp), stored at ((i n1 + j) n2 + k) n3 + l.
template <int N0, int N1, int N2, int N3>
struct BlockExtents {
  // A function rather than an array: device code cannot read a static member array.
  KOKKOS_INLINE_FUNCTION static constexpr int n(int slot) {
    return slot == 0 ? N0 : slot == 1 ? N1 : slot == 2 ? N2 : N3;
  }
  static constexpr int size = N0 * N1 * N2 * N3;
  KOKKOS_INLINE_FUNCTION static constexpr int at(int i, int j, int k, int l) {
    return ((i * N1 + j) * N2 + k) * N3 + l;
  }
};

template <class Class>
using QuartetExtents = BlockExtents<Class::na, Class::nb, Class::nc, Class::nd>;
template <class Class>
using LaneExtents = BlockExtents<Class::lane_na, Class::nb, Class::nc, Class::nd>;

// Which basis function each local component of a block stands for: functions(slot, local).
// A whole quartet's block is in the shells' own order.
struct BlockFunctions {
  int first[4];
  KOKKOS_INLINE_FUNCTION int operator()(int slot, int local) const { return first[slot] + local; }
};

// One lane's share is in the lane's rotated frame (eri.hpp's lane_function).
template <class Class>
struct LaneFunctions {
  int first[4];
  int lane;
  KOKKOS_INLINE_FUNCTION int operator()(int slot, int local) const {
    constexpr int l[4] = {Class::la, Class::lb, Class::lc, Class::ld};
    return first[slot] + lane_function(lane, l[slot], local);
  }
};

// The block's contribution to element (x, y) of its Role block (local components): factor times
// the sum over the other two slots' components of D times the (already weighted) integral,
// unrolled where Unroll is (by default a block of up to kMostUnrolledIntegrals).
template <class Extents, int Role, bool Unroll = (Extents::size <= kMostUnrolledIntegrals),
          class Functions, class Density>
KOKKOS_FORCEINLINE_FUNCTION double role_contribution(const Functions& functions, const double* eri,
                                                     const Density& density, int x, int y) {
  using R = FockRole<Role>;
  double sum = 0.0;
  Impl::block_for<Unroll, Extents::n(R::sum_row)>([&](int u) {
    Impl::block_for<Unroll, Extents::n(R::sum_col)>([&](int v) {
      int index[4] = {0, 0, 0, 0};
      index[R::row] = x;
      index[R::col] = y;
      index[R::sum_row] = u;
      index[R::sum_col] = v;
      sum += density(functions(R::sum_row, u), functions(R::sum_col, v)) *
             eri[Extents::at(index[0], index[1], index[2], index[3])];
    });
  });
  return R::factor * sum;
}

// Applies one role of a block through add(row function, column function, value).
template <class Extents, int Role, class Functions, class Density, class Add>
KOKKOS_INLINE_FUNCTION void scatter_role(const Functions& functions, const double* eri,
                                         const Density& density, const Add& add) {
  using R = FockRole<Role>;
  constexpr bool unroll = Extents::size <= kMostUnrolledIntegrals;
  Impl::block_for<unroll, Extents::n(R::row)>([&](int x) {
    Impl::block_for<unroll, Extents::n(R::col)>([&](int y) {
      add(functions(R::row, x), functions(R::col, y),
          role_contribution<Extents, Role>(functions, eri, density, x, y));
    });
  });
}

// Roles First .. End - 1 of a block, each through add.
template <class Extents, int First, int End, class Functions, class Density, class Add>
KOKKOS_INLINE_FUNCTION void scatter_role_range(const Functions& functions, const double* eri,
                                               const Density& density, const Add& add) {
  if constexpr (First < End) {
    scatter_role<Extents, First>(functions, eri, density, add);
    scatter_role_range<Extents, First + 1, End>(functions, eri, density, add);
  }
}

// The roles 0 and 1 are the Coulomb updates, 2 to 5 the exchange updates.
constexpr int kCoulombRoles = 2;

// The G elements one role of a block updates.
template <class Extents, int Role>
KOKKOS_INLINE_FUNCTION constexpr int role_updates() {
  return Extents::n(FockRole<Role>::row) * Extents::n(FockRole<Role>::col);
}

// Roles First .. End - 1 of a block, each update's G element and value written in order from
// rows[0], cols[0] and values[0].
template <class Extents, int First, int End, class Functions, class Density>
KOKKOS_INLINE_FUNCTION void collect_roles(const Functions& functions, const double* eri,
                                          const Density& density, int* rows, int* cols,
                                          double* values) {
  if constexpr (First < End) {
    using R = FockRole<First>;
    constexpr bool unroll = Extents::size <= kMostUnrolledIntegrals;
    Impl::block_for<unroll, Extents::n(R::row)>([&](int x) {
      Impl::block_for<unroll, Extents::n(R::col)>([&](int y) {
        const int u = x * Extents::n(R::col) + y;
        rows[u] = functions(R::row, x);
        cols[u] = functions(R::col, y);
        values[u] = role_contribution<Extents, First>(functions, eri, density, x, y);
      });
    });
    constexpr int n = role_updates<Extents, First>();
    collect_roles<Extents, First + 1, End>(functions, eri, density, rows + n, cols + n, values + n);
  }
}

// The most integrals of a block whose looped Fock updates find their integrals by a constant
// index (scatter_roles): a lane's share of every class whose recursion is unrolled, up to
// (dd|dp)'s 216. (dd|dd)'s lanes of 432 collect their updates first.
constexpr int kMostDispatchedIntegrals = 216;

// Update u of a block's roles, in the order collect_roles writes them: its role, and the
// element (x, y) of that role's block.
struct RoleUpdate {
  int role, x, y;
};

template <class Extents>
KOKKOS_INLINE_FUNCTION constexpr RoleUpdate role_update(int u) {
  constexpr int rows[kFockRoles] = {FockRole<0>::row, FockRole<1>::row, FockRole<2>::row,
                                    FockRole<3>::row, FockRole<4>::row, FockRole<5>::row};
  constexpr int cols[kFockRoles] = {FockRole<0>::col, FockRole<1>::col, FockRole<2>::col,
                                    FockRole<3>::col, FockRole<4>::col, FockRole<5>::col};
  int role = 0;
  while (u >= Extents::n(rows[role]) * Extents::n(cols[role])) {
    u -= Extents::n(rows[role]) * Extents::n(cols[role]);
    ++role;
  }
  return {role, u / Extents::n(cols[role]), u % Extents::n(cols[role])};
}

namespace Impl {

// f(std::integral_constant<int, u>{}) for the run-time u in [Begin, End), found by halving: the
// branches are the same for a warp's lanes, which make their updates in step.
template <int Begin, int End, class F>
KOKKOS_FORCEINLINE_FUNCTION void with_constant(int u, const F& f) {
  if constexpr (Begin + 1 == End) {
    f(std::integral_constant<int, Begin>{});
  } else {
    constexpr int middle = (Begin + End) / 2;
    if (u < middle)
      with_constant<Begin, middle>(u, f);
    else
      with_constant<middle, End>(u, f);
  }
}

}  // namespace Impl

// A block's Coulomb roles where `coulomb` (QuartetScreen's), and its exchange roles where
// `exchange` (QuartetScreen's needs_exchange), each through add: inlined update by update, or with
// `Looped` in a loop with one call of add (the callers say when: g_kernels.hpp). In the loop, a
// block of up to kMostDispatchedIntegrals integrals finds each update's elements and integrals by
// its index turned into a constant, so that the integrals stay where the recursion left them, in
// registers as far as they fit: the updates collected first into arrays indexed at run time
// (a larger block's way) went through local memory, and (pp|ps) to (dp|pp) ran 1.6 to 3 times
// as fast without (docs/performance-notes.md).
template <class Extents, bool Looped = false, class Functions, class Density, class Add>
KOKKOS_INLINE_FUNCTION void scatter_roles(const Functions& functions, const double* eri,
                                          const Density& density, const Add& add, bool exchange,
                                          bool coulomb = true) {
  constexpr int coulomb_updates = role_updates<Extents, 0>() + role_updates<Extents, 1>();
  constexpr int all = coulomb_updates + role_updates<Extents, 2>() + role_updates<Extents, 3>() +
                      role_updates<Extents, 4>() + role_updates<Extents, 5>();
  if constexpr (!Looped) {
    if (coulomb) scatter_role_range<Extents, 0, kCoulombRoles>(functions, eri, density, add);
    if (exchange)
      scatter_role_range<Extents, kCoulombRoles, kFockRoles>(functions, eri, density, add);
  } else if constexpr (Extents::size <= kMostDispatchedIntegrals) {
    const int count = exchange ? all : coulomb_updates;
    KMINI_HF_LOOP
    for (int u = coulomb ? 0 : coulomb_updates; u < count; ++u) {
      int row = 0, col = 0;
      double value = 0.0;
      Impl::with_constant<0, all>(u, [&](auto u_) {
        constexpr RoleUpdate update = role_update<Extents>(decltype(u_)::value);
        using R = FockRole<update.role>;
        row = functions(R::row, update.x);
        col = functions(R::col, update.y);
        value = role_contribution<Extents, update.role, true>(functions, eri, density, update.x,
                                                              update.y);
      });
      add(row, col, value);
    }
  } else {
    int rows[all], cols[all];
    double values[all];
    if (coulomb)
      collect_roles<Extents, 0, kCoulombRoles>(functions, eri, density, rows, cols, values);
    if (exchange)
      collect_roles<Extents, kCoulombRoles, kFockRoles>(
          functions, eri, density, rows + coulomb_updates, cols + coulomb_updates,
          values + coulomb_updates);
    const int count = exchange ? all : coulomb_updates;
    KMINI_HF_LOOP
    for (int u = coulomb ? 0 : coulomb_updates; u < count; ++u)
      add(rows[u], cols[u], values[u]);
  }
}

}  // namespace kmini::hf
