// Electron-repulsion integrals (ab|cd) over one quartet of contracted s, p and d shells, by the
// Obara-Saika vertical recursion and the Head-Gordon-Pople horizontal recursion:
//
//   1. per primitive quartet, [e0|f0]^(m) for every e up to l_a + l_b and f up to l_c + l_d,
//      built from the Boys values F_m(T) (the VRR): up the ket to every f first, then up the bra,
//      so that a lane (see QuartetClass) builds only its bra components;
//   2. summed over the primitives (contraction), leaving out the primitive quartets whose bounds
//      together stay under a cutoff (the primitive screen, below);
//   3. angular momentum moved from a to b and from c to d (the HRR), which needs no primitives.
//
// Both pairs are canonical (l_a >= l_b, l_c >= l_d). Template parameters fix the quartet's class:
// one instantiation per class, and two ways of running the recursions: unrolled into registers
// for every class but (dd|dd) (UnrolledRecursion, below; QuartetClass says which), and looped
// over tables in memory for (dd|dd) (eri_looped.hpp), in one function that all of a translation
// unit's looped classes call.
// Both run the one primitive loop, contract_quartet.
#pragma once

#include <type_traits>

#include <Kokkos_Core.hpp>

#include "core/paired_load.hpp"
#include "hf/basis/cartesian.hpp"
#include "hf/integrals/boys.hpp"
#include "hf/integrals/eri_looped.hpp"
#include "hf/integrals/eri_recursion.hpp"
#include "hf/integrals/shell_pairs.hpp"
#include "hf/integrals/unrolled.hpp"

namespace kmini::hf {

namespace Impl {

// v in lane `lane`'s rotated frame: out[r] = v[(r + lane) mod 3], by selects (a runtime index
// into a register array would put it in local memory).
KOKKOS_INLINE_FUNCTION void rotate(const double v[3], int lane, double out[3]) {
  out[0] = lane == 0 ? v[0] : lane == 1 ? v[1] : v[2];
  out[1] = lane == 0 ? v[1] : lane == 1 ? v[2] : v[0];
  out[2] = lane == 0 ? v[2] : lane == 1 ? v[0] : v[1];
}

// What the primitive loop reads of a product: its fields in PrimitiveProduct's order, from_a and
// half_inverse_zeta only where the recursion needs them.
// (PrimitiveProduct is 16-byte aligned: load_two reads its fields in pairs.)
struct ProductFields {
  double zeta, coulomb_weight, center[3], tail, from_a[3], half_inverse_zeta;
};

template <bool FromA, bool HalfInverse>
KOKKOS_FORCEINLINE_FUNCTION ProductFields read_product(const PrimitiveProduct& product) {
  ProductFields f;
  load_two(&product.zeta, f.zeta, f.coulomb_weight);
  load_two(&product.center[0], f.center[0], f.center[1]);
  load_two(&product.center[2], f.center[2], f.tail);
  f.from_a[0] = f.from_a[1] = f.from_a[2] = f.half_inverse_zeta = 0.0;
  if constexpr (FromA) {
    load_two(&product.from_a[0], f.from_a[0], f.from_a[1]);
    if constexpr (HalfInverse)
      load_two(&product.from_a[2], f.from_a[2], f.half_inverse_zeta);
    else
      f.from_a[2] = product.from_a[2];
  }
  return f;
}

template <class View>
KOKKOS_INLINE_FUNCTION void read_rotated(const View& view, int i, int lane, double out[3]) {
  const double v[3] = {view(i, 0), view(i, 1), view(i, 2)};
  rotate(v, lane, out);
}

}  // namespace Impl

// The primitive screen. A pair's products are ordered by bound, largest first, each with the sum
// of the bounds from it to the pair's last (its tail; shell_pairs.hpp). The contraction leaves out
//   - every bra product p from the first whose tail times the ket's whole tail is under cutoff/2,
//   - for each bra product p, every ket product from the first q with bound_p tail_q under
//     cutoff / (2 n_p), n_p the bra's products,
// so what it leaves out of any integral is at most cutoff/2 + n_p cutoff / (2 n_p) = cutoff.
// A cutoff of zero keeps every primitive quartet. The G build's cutoff is a fraction of the
// screening threshold over the largest density element the quartet couples (quartet_screen.hpp):
// in a large cluster most quartets kept reach the threshold by a few decades at most, and then
// the small products of their contracted pairs need not be visited.
struct PrimitiveScreen {
  double outer = 0.0, inner = 0.0;  // cutoff / 2 and cutoff / (2 n_p)
  KOKKOS_INLINE_FUNCTION PrimitiveScreen(double cutoff, int bra_products)
      : outer(0.5 * cutoff), inner(0.5 * cutoff / bra_products) {}
};

namespace Impl {

// The primitive loop of every class, which hands each primitive quartet to `recursion` and the
// contracted sums to its HRR: Limits gives the degrees (le, lf, lm) the loop reads and evaluates
// for, the class's own where the recursion is unrolled, the largest looped class's where it loops.
template <class Limits, class Recursion, class Memory>
KOKKOS_FORCEINLINE_FUNCTION void contract_quartet(Recursion& recursion,
                                                  const ShellPairs<Memory>& pairs,
                                                  const BoysTable<Memory>& boys, int bra, int ket,
                                                  int lane, double* out, double cutoff) {
  constexpr int le = Limits::le, lf = Limits::lf, lm = Limits::lm;
  // The loop below runs once per primitive quartet: no division in it. The products carry
  // 1 / (2 zeta) and their share of the prefactor (shell_pairs.hpp), and 1 / (zeta + eta) is the
  // square of the one reciprocal square root the prefactor needs anyway.
  const int p_begin = pairs.primitives_begin(bra), p_end = pairs.primitives_begin(bra + 1);
  const int q_begin = pairs.primitives_begin(ket), q_end = pairs.primitives_begin(ket + 1);
  const PrimitiveScreen screen(cutoff, p_end - p_begin);
  // The bra products the screen visits, found first so that the loop holds no more of it than
  // each product's ket cutoff (the lanes of a warp mostly share their bra, so these loads are
  // shared too).
  int p_stop = p_begin;
  {
    const double ket_tail = pairs.products(q_begin).tail;
    while (p_stop < p_end && !(pairs.products(p_stop).tail * ket_tail < screen.outer))
      ++p_stop;
  }
  PrimitiveQuartet<lm> quartet;
  for (int p = p_begin; p < p_stop; ++p) {
    const ProductFields bra_product = read_product<(le >= 1), (le >= 2)>(pairs.products(p));
    const double zeta = bra_product.zeta;
    quartet.zeta = zeta;
    quartet.half_inverse_zeta = bra_product.half_inverse_zeta;
    double px[3];
    rotate(bra_product.from_a, lane, quartet.pa);
    rotate(bra_product.center, lane, px);
    const double bra_weight = bra_product.coulomb_weight;
    const double ket_cutoff = screen.inner / pairs.products(p).bound;
    const auto add_quartet = [&](const ProductFields& ket_product) {
      const double eta = ket_product.zeta;
      quartet.eta = eta;
      quartet.half_inverse_eta = ket_product.half_inverse_zeta;
      const double inverse_root = reciprocal_sqrt(zeta + eta);
      const double inverse_sum = inverse_root * inverse_root;
      quartet.inverse_sum = inverse_sum;
      const double rho = zeta * eta * inverse_sum;
      double qx[3], pq2 = 0.0;
      rotate(ket_product.from_a, lane, quartet.qc);
      rotate(ket_product.center, lane, qx);
      KMINI_HF_UNROLL
      for (int x = 0; x < 3; ++x) {
        const double w = (zeta * px[x] + eta * qx[x]) * inverse_sum;
        quartet.wp[x] = w - px[x];
        quartet.wq[x] = w - qx[x];
        pq2 += (px[x] - qx[x]) * (px[x] - qx[x]);
      }
      double boys_values[lm + 1];
      boys.template evaluate<lm>(rho * pq2, boys_values);
      const double scale = bra_weight * ket_product.coulomb_weight * inverse_root;
      static_for<0, lm + 1>([&](auto m_) {
        constexpr int m = decltype(m_)::value;
        quartet.base[m] = scale * boys_values[m];
      });
      recursion.add(quartet);
    };
    if constexpr (Limits::ket_read_ahead) {  // which classes, and why: eri_recursion.hpp
      ProductFields next = read_product<(lf >= 1), (lf >= 2)>(pairs.products(q_begin));
      for (int q = q_begin; q < q_end; ++q) {
        const ProductFields ket_product = next;
        if (ket_product.tail < ket_cutoff) break;
        if (q + 1 < q_end) next = read_product<(lf >= 1), (lf >= 2)>(pairs.products(q + 1));
        add_quartet(ket_product);
      }
    } else {
      for (int q = q_begin; q < q_end; ++q) {
        const ProductFields ket_product = read_product<(lf >= 1), (lf >= 2)>(pairs.products(q));
        if (ket_product.tail < ket_cutoff) break;
        add_quartet(ket_product);
      }
    }
  }

  double cd[3], ab[3];
  read_rotated(pairs.ab, ket, lane, cd);
  read_rotated(pairs.ab, bra, lane, ab);
  recursion.move(cd, ab, out);
}

}  // namespace Impl

// Every looped class's ERI: one function, compiled once and called by each looped class's
// kernels (inlined, the fifteen d classes' kernels kept nvcc and ptxas busy for over half an hour
// when all of them looped).
template <class Memory>
KMINI_HF_NOINLINE KOKKOS_FUNCTION void eri_lane_looped(const ShellPairs<Memory>& pairs,
                                                       const BoysTable<Memory>& boys, int bra,
                                                       int ket, int lane, double* out,
                                                       double cutoff,
                                                       const Impl::LoopedShape& shape) {
  Impl::LoopedRecursion recursion(shape);
  Impl::contract_quartet<Impl::LoopedLimits>(recursion, pairs, boys, bra, ket, lane, out, cutoff);
}

namespace Impl {

// The axis of y's k-th unit step: its x steps first, then its y and z steps.
KOKKOS_INLINE_FUNCTION constexpr int step_axis(int y, int k) {
  return k < component_power(y, 0) ? 0 : k < component_power(y, 0) + component_power(y, 1) ? 1 : 2;
}

// x raised by the unit steps of y that `split` selects (bit k: step k).
KOKKOS_INLINE_FUNCTION constexpr int raised_by_steps(int x, int y, int split) {
  int raised = x;
  for (int k = 0; k < component_degree(y); ++k)
    if (split & (1 << k)) raised = component_raised(raised, step_axis(y, k));
  return raised;
}

// (x, y) by the horizontal recursion (x, y + 1_i) = (x + 1_i, y) + (X - Y)_i (x, y), written out
// as eri_looped.hpp's moved_looped is, with every index a compile-time constant: the sum over
// every way of splitting y's unit steps between raising x and a factor (X - Y)_i, from
// row(integral_constant<e>), the values (e, 0). The term that raises x by every step comes
// first, so that one step is (x + 1_i, 0) + (X - Y)_i (x, 0), one multiply-add, as the recursion
// writes it; a d function's two steps take four terms.
template <int X, int Y, class Row>
KOKKOS_FORCEINLINE_FUNCTION double moved_unrolled(const Row& row, const double xy[3]) {
  constexpr int steps = component_degree(Y), splits = 1 << steps;
  double sum = 0.0;
  static_for<0, splits>([&](auto s_) {
    constexpr int split = splits - 1 - decltype(s_)::value;
    double term = row(std::integral_constant<int, raised_by_steps(X, Y, split)>{});
    static_for<0, steps>([&](auto k_) {
      constexpr int k = decltype(k_)::value;
      if constexpr ((split & (1 << k)) == 0) term *= xy[step_axis(Y, k)];
    });
    if constexpr (split == splits - 1)
      sum = term;
    else
      sum += term;
  });
  return sum;
}

// An unrolled class's recursions (QuartetClass::unrolled), in registers: every index a
// compile-time constant.
template <class Class>
struct UnrolledRecursion {
  static constexpr int lm = Class::lm, ne = Class::ne, nf = Class::nf;
  static constexpr int first_a = Class::first_a, first_c = Class::first_c;

  // Only the entries the HRR reads are summed: e of degree la or more that the lane needs, f of
  // degree lc or more. The others stay zero, unread, and cost no register once unrolled.
  double contracted[ne][nf] = {};

  // The vertical recursion of one primitive quartet, [e0|f0]^(m), added into `contracted`.
  KOKKOS_FORCEINLINE_FUNCTION void add(const PrimitiveQuartet<lm>& q) {
    // v[m][e][f] = [e0|f0]^(m); entry (m, e, f) is defined for m <= lm - |e| - |f|.
    double v[lm + 1][ne][nf];
    static_for<0, lm + 1>([&](auto m_) {
      constexpr int m = decltype(m_)::value;
      v[m][0][0] = q.base[m];
    });
    // Up the ket first: [0|f] from [0|f-1_i] and [0|f-2_i].
    static_for<1, nf>([&](auto f_) {
      constexpr int f = decltype(f_)::value;
      constexpr int i = build_axis(f), f1 = component_lowered(f, i);
      constexpr int f2 = component_lowered(f1, i);
      constexpr int n1 = component_power(f1, i);
      static_for<0, lm - component_degree(f) + 1>([&](auto m_) {
        constexpr int m = decltype(m_)::value;
        double value = q.qc[i] * v[m][0][f1] + q.wq[i] * v[m + 1][0][f1];
        if constexpr (n1 > 0)
          value +=
              n1 * q.half_inverse_eta * (v[m][0][f2] - q.zeta * q.inverse_sum * v[m + 1][0][f2]);
        v[m][0][f] = value;
      });
    });
    // Then up the bra, the lane's components only: [e|f] from [e-1_i|f], [e-2_i|f] and
    // [e-1_i|f-1_i].
    static_for<1, ne>([&](auto e_) {
      constexpr int e = decltype(e_)::value;
      if constexpr (lane_needs<Class>(e)) {
        constexpr int i = bra_axis(e), e1 = component_lowered(e, i);
        constexpr int e2 = component_lowered(e1, i);
        constexpr int n1 = component_power(e1, i);
        static_for<0, nf>([&](auto f_) {
          constexpr int f = decltype(f_)::value;
          constexpr int f_i = component_power(f, i), f1 = component_lowered(f, i);
          static_for<0, lm - component_degree(e) - component_degree(f) + 1>([&](auto m_) {
            constexpr int m = decltype(m_)::value;
            double value = q.pa[i] * v[m][e1][f] + q.wp[i] * v[m + 1][e1][f];
            if constexpr (n1 > 0)
              value += n1 * q.half_inverse_zeta *
                       (v[m][e2][f] - q.eta * q.inverse_sum * v[m + 1][e2][f]);
            if constexpr (f_i > 0) value += f_i * 0.5 * q.inverse_sum * v[m + 1][e1][f1];
            v[m][e][f] = value;
          });
        });
      }
    });
    static_for<first_a, ne>([&](auto e_) {
      constexpr int e = decltype(e_)::value;
      if constexpr (lane_needs<Class>(e)) {
        static_for<first_c, nf>([&](auto f_) {
          constexpr int f = decltype(f_)::value;
          contracted[e][f] += v[0][e][f];
        });
      }
    });
  }

  // The HRR on the ket, then on the bra, into the lane's share of the quartet's integrals. Every
  // index is a compile-time constant: left to the unroller, a component's neighbours were
  // computed at run time once component_degree covered d shells, and (pp|pp) spilled
  // (docs/performance-notes.md).
  KOKKOS_FORCEINLINE_FUNCTION void move(const double cd[3], const double ab[3], double* out) const {
    double ket_moved[ne][Class::nc][Class::nd] = {};
    static_for<first_a, ne>([&](auto e_) {
      constexpr int e = decltype(e_)::value;
      if constexpr (lane_needs<Class>(e)) {
        static_for<0, Class::nc>([&](auto k_) {
          static_for<0, Class::nd>([&](auto l_) {
            constexpr int k = decltype(k_)::value, l = decltype(l_)::value;
            ket_moved[e][k][l] = moved_unrolled<first_c + k, Class::first_d + l>(
                [&](auto f_) { return contracted[e][decltype(f_)::value]; }, cd);
          });
        });
      }
    });
    static_for<0, Class::lane_na>([&](auto i_) {
      constexpr int i = decltype(i_)::value;
      static_for<0, Class::nb>([&](auto j_) {
        constexpr int j = decltype(j_)::value;
        KMINI_HF_UNROLL
        for (int k = 0; k < Class::nc; ++k) {
          KMINI_HF_UNROLL
          for (int l = 0; l < Class::nd; ++l)
            out[((i * Class::nb + j) * Class::nc + k) * Class::nd + l] =
                moved_unrolled<first_a + i, Class::first_b + j>(
                    [&](auto e_) { return ket_moved[decltype(e_)::value][k][l]; }, ab);
        }
      });
    });
  }
};

}  // namespace Impl

// An unrolled class's lane: the primitive loop with the recursions unrolled into registers.
template <class Class, class Memory>
KOKKOS_FORCEINLINE_FUNCTION void eri_lane_unrolled(const ShellPairs<Memory>& pairs,
                                                   const BoysTable<Memory>& boys, int bra, int ket,
                                                   int lane, double* out, double cutoff) {
  Impl::UnrolledRecursion<Class> recursion;
  Impl::contract_quartet<Class>(recursion, pairs, boys, bra, ket, lane, out, cutoff);
}

// Lane `lane`'s share of (ab|cd) for the canonical pairs `bra` and `ket`, in its rotated frame:
// out[((i nb + j) nc + k) nd + l] for a's rotated component i < lane_na and the others' rotated
// components j, k, l (lane_function maps them back); primitive quartets left out as the screen
// for `cutoff` says.
template <class Class, class Memory>
KOKKOS_FORCEINLINE_FUNCTION void eri_lane(const ShellPairs<Memory>& pairs,
                                          const BoysTable<Memory>& boys, int bra, int ket, int lane,
                                          double* out, double cutoff = 0.0) {
  if constexpr (Class::unrolled) {
    eri_lane_unrolled<Class>(pairs, boys, bra, ket, lane, out, cutoff);
  } else {
    eri_lane_looped(pairs, boys, bra, ket, lane, out, cutoff, Impl::looped_shape<Class>());
  }
}

// The whole of (ab|cd) for the canonical pairs `bra` and `ket` into
// out[((i nb + j) nc + k) nd + l], in the shells' own component order: every lane's share, with
// the primitive screen's cutoff.
template <class Class, class Memory>
KOKKOS_INLINE_FUNCTION void eri_quartet(const ShellPairs<Memory>& pairs,
                                        const BoysTable<Memory>& boys, int bra, int ket,
                                        double* out, double cutoff = 0.0) {
  if constexpr (Class::lanes == 1) {
    eri_lane<Class>(pairs, boys, bra, ket, 0, out, cutoff);
  } else {
    for (int lane = 0; lane < Class::lanes; ++lane) {
      double share[Class::lane_integrals];
      eri_lane<Class>(pairs, boys, bra, ket, lane, share, cutoff);
      for (int i = 0; i < Class::lane_na; ++i)
        for (int j = 0; j < Class::nb; ++j)
          for (int k = 0; k < Class::nc; ++k)
            for (int l = 0; l < Class::nd; ++l)
              out[((lane_function(lane, Class::la, i) * Class::nb +
                    lane_function(lane, Class::lb, j)) *
                       Class::nc +
                   lane_function(lane, Class::lc, k)) *
                      Class::nd +
                  lane_function(lane, Class::ld, l)] =
                  share[((i * Class::nb + j) * Class::nc + k) * Class::nd + l];
    }
  }
}

// Calls f(QuartetClass<B, K>{}) for the class of pair kinds (bra_kind, ket_kind), bra >= ket:
// every class of kinds from (Bra, Ket) on, in the order (ss|ss), (ps|ss), (ps|ps), (pp|ss), ...
template <int Bra = 0, int Ket = 0, class F>
void with_quartet_class(int bra_kind, int ket_kind, F&& f) {
  if (bra_kind == Bra && ket_kind == Ket) return f(QuartetClass<Bra, Ket>{});
  if constexpr (Ket < Bra)
    return with_quartet_class<Bra, Ket + 1>(bra_kind, ket_kind, f);
  else if constexpr (Bra + 1 < kPairKinds)
    return with_quartet_class<Bra + 1, 0>(bra_kind, ket_kind, f);
  else
    Kokkos::abort("with_quartet_class: no such class (the bra must carry the higher kind)");
}

}  // namespace kmini::hf
