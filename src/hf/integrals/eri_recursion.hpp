// What the two recursions of an ERI (eri.hpp) share: one quartet class's shape, the lanes that
// split it, and what one primitive quartet hands the vertical recursion.
#pragma once

#include <Kokkos_Core.hpp>

#include "hf/basis/cartesian.hpp"
#include "hf/integrals/shell_pairs.hpp"

namespace kmini::hf {

// One quartet class, by the kinds of its two pairs (bra kind >= ket kind).
//
// A class's quartet is computed by `lanes` threads. Lane L works in a frame whose axes are
// rotated by L (rotated axis r is axis (r + L) mod 3) and computes the integrals of the first
// lane_na of a's components in that frame: with three lanes, lane L takes a = p_L of a p shell,
// or a = d_LL and d_L(L+1) of a d shell. Rotating the geometry instead of choosing components
// keeps every lane on the same code, so nothing diverges and every index of an unrolled class
// stays a compile-time constant. A lane needs only the bra components that contain its share,
// about half of the recursion's table: what one thread held for (pp|pp) overflowed its 255
// registers into local memory.
template <int BraKind, int KetKind>
struct QuartetClass {
  static_assert(BraKind >= KetKind, "the bra pair carries the higher kind");
  static constexpr int la = bra_l_of_kind(BraKind), lb = ket_l_of_kind(BraKind);
  static constexpr int lc = bra_l_of_kind(KetKind), ld = ket_l_of_kind(KetKind);
  static constexpr int na = functions_of_l(la), nb = functions_of_l(lb);
  static constexpr int nc = functions_of_l(lc), nd = functions_of_l(ld);
  static constexpr int integrals = na * nb * nc * nd;
  static constexpr int bra_kind = BraKind, ket_kind = KetKind;
  // Split where the table is large; a split of a small class repeats its primitive loop and
  // Boys function for little gain.
  static constexpr int lanes = la >= 1 && integrals >= 27 ? 3 : 1;
  static constexpr int lane_na = na / lanes;
  static constexpr int lane_integrals = lane_na * nb * nc * nd;
  static_assert(lane_na * lanes == na, "a's components split evenly among the lanes");
  // The recursion's extents: [e0|f0]^(m) for e up to degree le, f up to lf, m up to lm.
  static constexpr int le = la + lb, lf = lc + ld, lm = le + lf;
  // Classes whose recursion reaches lm <= 7 unroll it into registers (eri.hpp's
  // UnrolledRecursion): every class but (dd|dd). From lm = 5 on ((dp|pp), (dp|ds), (dd|ps) and
  // the lm = 6 and 7 classes) they take every register their launch allows and spill, but their
  // local memory is a tenth or less of what the looped path's tables, sized for (dd|dd), take:
  // unrolled, (dd|dp) ran 1.6x as fast, (dd|ds) 6x (docs/performance-notes.md). (dd|dd) loops
  // over such tables (eri_looped.hpp): unrolled, its table of 3675 entries took nvcc four minutes
  // for one kernel.
  static constexpr bool unrolled = lm <= 7;
  // Whether the primitive loop reads each ket product an iteration before it uses it (eri.hpp),
  // so that its loads are in flight while the quartet before it is computed, for about 22 more
  // registers. Read where they are used, the loads left only once the screen's test of the tail
  // had passed, and over 40% of (ss|ss)'s stall samples waited for them. On the H100, read
  // ahead, (ss|ss) ran 6-9% faster, (ds|pp) 11-17% and (dp|ds) 4-12%, while the classes whose
  // registers were already near their launch's limit ((ps|ss), (ds|ps), (ds|ds), (dp|dp), (dd|ds)
  // and (dd|dd)) lost up to 32% (docs/performance-notes.md).
  static constexpr bool ket_read_ahead = (le == 0 && lf == 0) ||                        // (ss|ss)
                                         (la == 2 && lb == 0 && lc == 1 && ld == 1) ||  // (ds|pp)
                                         (la == 2 && lb == 1 && lc == 2 && ld == 0);    // (dp|ds)
  static constexpr int ne = components_up_to(le), nf = components_up_to(lf);
  static constexpr int first_a = components_up_to(la - 1), first_b = components_up_to(lb - 1);
  static constexpr int first_c = components_up_to(lc - 1), first_d = components_up_to(ld - 1);
};

// The component (within its degree l) that component `local` of lane `lane`'s rotated frame
// stands for: rotated axis r is axis (r + lane) mod 3.
// The GPU's Fock updates call this at run time for every integral, lane a run-time value: it
// takes l from its caller rather than from component_degree, so that with l and local constants
// only the choice by lane is left. (Through component_power, whose component_degree covers every
// degree, the three-lane classes ran at half speed: docs/performance-notes.md.)
KOKKOS_INLINE_FUNCTION constexpr int lane_function(int lane, int l, int local) {
  if (lane == 0 || l == 0) return local;
  // Axis P's power is the rotated power along rotated axis (P - lane) mod 3.
  return component_index(power_within_degree(l, local, (3 - lane) % 3),
                         power_within_degree(l, local, (4 - lane) % 3),
                         power_within_degree(l, local, (5 - lane) % 3)) -
         components_up_to(l - 1);
}

namespace Impl {

// Whether a lane of Class needs bra component e: with one lane every e; with several, the lane's
// share of a is led by rotated x, and so are all the components the HRR and the recursion
// reach from it (bra_axis below keeps x in them), besides e = 0.
template <class Class>
KOKKOS_INLINE_FUNCTION constexpr bool lane_needs(int e) {
  return Class::lanes == 1 || e == 0 || component_power(e, 0) > 0;
}

// The axis the recursion raises bra component e along: its last axis with a non-zero power, so
// that lowering keeps a rotated-x component's x.
KOKKOS_INLINE_FUNCTION constexpr int bra_axis(int e) {
  return component_power(e, 2) > 0 ? 2 : component_power(e, 1) > 0 ? 1 : 0;
}

// What the vertical recursion of one primitive quartet starts from, in the lane's frame:
// base[m] = [00|00]^(m), P - A, W - P, Q - C, W - Q, and the exponents' factors.
template <int Lm>
struct PrimitiveQuartet {
  double base[Lm + 1];
  double pa[3], wp[3], qc[3], wq[3];
  double zeta, eta, inverse_sum, half_inverse_zeta, half_inverse_eta;
};

}  // namespace Impl

}  // namespace kmini::hf
