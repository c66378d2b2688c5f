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
// one instantiation per class, with one primitive loop (below) and two ways of running the
// recursions, unrolled into registers for the s and p classes (eri_unrolled.hpp) and looped over
// tables in memory for the d classes (eri_looped.hpp).
#pragma once

#include <type_traits>

#include <Kokkos_Core.hpp>

#include "core/paired_load.hpp"
#include "hf/boys.hpp"
#include "hf/cartesian.hpp"
#include "hf/eri_looped.hpp"
#include "hf/eri_recursion.hpp"
#include "hf/eri_unrolled.hpp"
#include "hf/shell_pairs.hpp"
#include "hf/unrolled.hpp"

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

// Lane `lane`'s share of (ab|cd) for the canonical pairs `bra` and `ket`, in its rotated frame:
// out[((i nb + j) nc + k) nd + l] for a's rotated component i < lane_na and the others' rotated
// components j, k, l (lane_function maps them back); primitive quartets left out as the screen
// for `cutoff` says.
template <class Class, class Memory>
KOKKOS_INLINE_FUNCTION void eri_lane(const ShellPairs<Memory>& pairs, const BoysTable<Memory>& boys,
                                     int bra, int ket, int lane, double* out, double cutoff = 0.0) {
  constexpr int le = Class::le, lf = Class::lf, lm = Class::lm;
  std::conditional_t<Class::unrolled, Impl::UnrolledRecursion<Class>, Impl::LoopedRecursion<Class>>
      recursion;

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
  Impl::PrimitiveQuartet<lm> quartet;
  for (int p = p_begin; p < p_stop; ++p) {
    const Impl::ProductFields bra_product =
        Impl::read_product<(le >= 1), (le >= 2)>(pairs.products(p));
    const double zeta = bra_product.zeta;
    quartet.zeta = zeta;
    quartet.half_inverse_zeta = bra_product.half_inverse_zeta;
    double px[3];
    Impl::rotate(bra_product.from_a, lane, quartet.pa);
    Impl::rotate(bra_product.center, lane, px);
    const double bra_weight = bra_product.coulomb_weight;
    const double ket_cutoff = screen.inner / pairs.products(p).bound;
    for (int q = q_begin; q < q_end; ++q) {
      const Impl::ProductFields ket_product =
          Impl::read_product<(lf >= 1), (lf >= 2)>(pairs.products(q));
      if (ket_product.tail < ket_cutoff) break;
      const double eta = ket_product.zeta;
      quartet.eta = eta;
      quartet.half_inverse_eta = ket_product.half_inverse_zeta;
      const double inverse_root = reciprocal_sqrt(zeta + eta);
      const double inverse_sum = inverse_root * inverse_root;
      quartet.inverse_sum = inverse_sum;
      const double rho = zeta * eta * inverse_sum;
      double qx[3], pq2 = 0.0;
      Impl::rotate(ket_product.from_a, lane, quartet.qc);
      Impl::rotate(ket_product.center, lane, qx);
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
      Impl::static_for<0, lm + 1>([&](auto m_) {
        constexpr int m = decltype(m_)::value;
        quartet.base[m] = scale * boys_values[m];
      });
      recursion.add(quartet);
    }
  }

  double cd[3], ab[3];
  Impl::read_rotated(pairs.ab, ket, lane, cd);
  Impl::read_rotated(pairs.ab, bra, lane, ab);
  recursion.move(cd, ab, out);
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
