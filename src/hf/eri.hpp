// Electron-repulsion integrals (ab|cd) over one quartet of contracted s/p shells, by the
// Obara-Saika vertical recursion and the Head-Gordon-Pople horizontal recursion:
//
//   1. per primitive quartet, [e0|f0]^(m) for every e up to l_a + l_b and f up to l_c + l_d,
//      built from the Boys values F_m(T) (the VRR, written out below);
//   2. summed over the primitives (contraction);
//   3. angular momentum moved from a to b and from c to d (the HRR), which needs no primitives.
//
// Both pairs are canonical (l_a >= l_b, l_c >= l_d). Template parameters fix the quartet's class,
// so that every loop has constant bounds and unrolls: one instantiation per class, as in the
// seed's six kernels. The recursion table is sized for the class and, unrolled, held in
// registers where the compiler can.
#pragma once

#include <Kokkos_Core.hpp>

#include "hf/boys.hpp"
#include "hf/cartesian.hpp"
#include "hf/shell_pairs.hpp"

namespace kmini::hf {

#if defined(__CUDA_ARCH__)
#define KMINI_HF_UNROLL _Pragma("unroll")
#else
#define KMINI_HF_UNROLL
#endif

// One quartet class, by the kinds of its two pairs (bra kind >= ket kind).
template <int BraKind, int KetKind>
struct QuartetClass {
  static_assert(BraKind >= KetKind, "the bra pair carries the higher kind");
  static constexpr int la = bra_l_of_kind(BraKind), lb = ket_l_of_kind(BraKind);
  static constexpr int lc = bra_l_of_kind(KetKind), ld = ket_l_of_kind(KetKind);
  static constexpr int na = functions_of_l(la), nb = functions_of_l(lb);
  static constexpr int nc = functions_of_l(lc), nd = functions_of_l(ld);
  static constexpr int integrals = na * nb * nc * nd;
  static constexpr int bra_kind = BraKind, ket_kind = KetKind;
};

// (ab|cd) for the canonical pairs `bra` and `ket` into out[((i nb + j) nc + k) nd + l].
template <class Class, class Memory>
KOKKOS_INLINE_FUNCTION void eri_quartet(const ShellPairs<Memory>& pairs,
                                        const BoysTable<Memory>& boys, int bra, int ket,
                                        double* out) {
  constexpr int le = Class::la + Class::lb, lf = Class::lc + Class::ld, lm = le + lf;
  constexpr int ne = components_up_to(le), nf = components_up_to(lf);
  // 2 pi^{5/2}
  constexpr double kPrefactor = 34.98683665524972497;

  double contracted[ne][nf];
  KMINI_HF_UNROLL
  for (int e = 0; e < ne; ++e) {
    KMINI_HF_UNROLL
    for (int f = 0; f < nf; ++f)
      contracted[e][f] = 0.0;
  }

  const int p_end = pairs.primitives_begin(bra + 1), q_end = pairs.primitives_begin(ket + 1);
  for (int p = pairs.primitives_begin(bra); p < p_end; ++p) {
    const double zeta = pairs.zeta(p);
    const double pa[3] = {pairs.from_a(p, 0), pairs.from_a(p, 1), pairs.from_a(p, 2)};
    const double px[3] = {pairs.center(p, 0), pairs.center(p, 1), pairs.center(p, 2)};
    const double bra_weight = pairs.weight(p);
    for (int q = pairs.primitives_begin(ket); q < q_end; ++q) {
      const double eta = pairs.zeta(q);
      const double sum = zeta + eta, rho = zeta * eta / sum;
      double qc[3], wp[3], wq[3], pq2 = 0.0;
      KMINI_HF_UNROLL
      for (int x = 0; x < 3; ++x) {
        const double qx = pairs.center(q, x);
        const double w = (zeta * px[x] + eta * qx) / sum;
        qc[x] = pairs.from_a(q, x);
        wp[x] = w - px[x];
        wq[x] = w - qx;
        pq2 += (px[x] - qx) * (px[x] - qx);
      }
      double boys_values[lm + 1];
      boys.template evaluate<lm>(rho * pq2, boys_values);
      const double scale = kPrefactor / (zeta * eta * sqrt(sum)) * bra_weight * pairs.weight(q);

      // v[m][e][f] = [e0|f0]^(m); entry (m, e, f) is defined for m <= lm - |e| - |f|.
      double v[lm + 1][ne][nf];
      KMINI_HF_UNROLL
      for (int m = 0; m <= lm; ++m)
        v[m][0][0] = scale * boys_values[m];
      // Up the bra: [e|0] from [e-1_i|0] and [e-2_i|0].
      KMINI_HF_UNROLL
      for (int e = 1; e < ne; ++e) {
        const int i = build_axis(e), e1 = component_lowered(e, i);
        const int e2 = component_lowered(e1, i);
        const int n1 = component_power(e1, i);
        KMINI_HF_UNROLL
        for (int m = 0; m <= lm - component_degree(e); ++m) {
          double value = pa[i] * v[m][e1][0] + wp[i] * v[m + 1][e1][0];
          if (n1 > 0) value += n1 / (2.0 * zeta) * (v[m][e2][0] - rho / zeta * v[m + 1][e2][0]);
          v[m][e][0] = value;
        }
      }
      // Up the ket: [e|f] from [e|f-1_i], [e|f-2_i] and [e-1_i|f-1_i].
      KMINI_HF_UNROLL
      for (int f = 1; f < nf; ++f) {
        const int i = build_axis(f), f1 = component_lowered(f, i);
        const int f2 = component_lowered(f1, i);
        const int n1 = component_power(f1, i);
        KMINI_HF_UNROLL
        for (int e = 0; e < ne; ++e) {
          const int ne_i = component_power(e, i), e1 = component_lowered(e, i);
          KMINI_HF_UNROLL
          for (int m = 0; m <= lm - component_degree(e) - component_degree(f); ++m) {
            double value = qc[i] * v[m][e][f1] + wq[i] * v[m + 1][e][f1];
            if (n1 > 0) value += n1 / (2.0 * eta) * (v[m][e][f2] - rho / eta * v[m + 1][e][f2]);
            if (ne_i > 0) value += ne_i / (2.0 * sum) * v[m + 1][e1][f1];
            v[m][e][f] = value;
          }
        }
      }
      KMINI_HF_UNROLL
      for (int e = 0; e < ne; ++e) {
        KMINI_HF_UNROLL
        for (int f = 0; f < nf; ++f)
          contracted[e][f] += v[0][e][f];
      }
    }
  }

  // HRR on the ket, then on the bra: (x, y + 1_j) = (x + 1_j, y) + (X - Y)_j (x, y).
  constexpr int first_c = components_up_to(Class::lc - 1);
  double ket_moved[ne][Class::nc][Class::nd] = {};
  KMINI_HF_UNROLL
  for (int e = 0; e < ne; ++e) {
    KMINI_HF_UNROLL
    for (int k = 0; k < Class::nc; ++k) {
      KMINI_HF_UNROLL
      for (int l = 0; l < Class::nd; ++l) {
        const int c = first_c + k;
        if constexpr (Class::ld == 0) {
          ket_moved[e][k][l] = contracted[e][c];
        } else {
          ket_moved[e][k][l] =
              contracted[e][component_raised(c, l)] + pairs.ab(ket, l) * contracted[e][c];
        }
      }
    }
  }
  constexpr int first_a = components_up_to(Class::la - 1);
  KMINI_HF_UNROLL
  for (int i = 0; i < Class::na; ++i) {
    KMINI_HF_UNROLL
    for (int j = 0; j < Class::nb; ++j) {
      const int a = first_a + i;
      KMINI_HF_UNROLL
      for (int k = 0; k < Class::nc; ++k) {
        KMINI_HF_UNROLL
        for (int l = 0; l < Class::nd; ++l) {
          double value = ket_moved[a][k][l];
          if constexpr (Class::lb == 1)
            value = ket_moved[component_raised(a, j)][k][l] + pairs.ab(bra, j) * value;
          out[((i * Class::nb + j) * Class::nc + k) * Class::nd + l] = value;
        }
      }
    }
  }
}

// Calls f(QuartetClass<B, K>{}) for the class of pair kinds (bra_kind, ket_kind), bra >= ket.
template <class F>
void with_quartet_class(int bra_kind, int ket_kind, F&& f) {
  switch (bra_kind * kPairKinds + ket_kind) {
    case kSS* kPairKinds + kSS:
      return f(QuartetClass<kSS, kSS>{});
    case kPS* kPairKinds + kSS:
      return f(QuartetClass<kPS, kSS>{});
    case kPS* kPairKinds + kPS:
      return f(QuartetClass<kPS, kPS>{});
    case kPP* kPairKinds + kSS:
      return f(QuartetClass<kPP, kSS>{});
    case kPP* kPairKinds + kPS:
      return f(QuartetClass<kPP, kPS>{});
    case kPP* kPairKinds + kPP:
      return f(QuartetClass<kPP, kPP>{});
    default:
      Kokkos::abort("with_quartet_class: the bra must carry the higher kind");
  }
}

}  // namespace kmini::hf
