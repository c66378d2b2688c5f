// The recursions of an s/p class's ERI (eri.hpp), unrolled: every index a compile-time constant,
// so that the table of one primitive quartet and the contracted sums live in registers.
#pragma once

#include <Kokkos_Core.hpp>

#include "hf/eri_recursion.hpp"
#include "hf/unrolled.hpp"

namespace kmini::hf::Impl {

// The Head-Gordon-Pople horizontal recursion, (x, y + 1_i) = (x + 1_i, y) + (X - Y)_i (x, y),
// unrolled down to y = 0: the integral of components (x, y) of a pair whose centres are X - Y
// apart, from row(e), the values (e, 0) for the components e of degree |x| to |x| + |y|. The
// terms that two integrals share are the same loads.
template <int X, int Y, class Row>
KOKKOS_FORCEINLINE_FUNCTION double moved(const Row& row, const double xy[3]) {
  if constexpr (component_degree(Y) == 0) {
    return row(std::integral_constant<int, X>{});
  } else {
    constexpr int i = build_axis(Y), y1 = component_lowered(Y, i);
    return moved<component_raised(X, i), y1>(row, xy) + xy[i] * moved<X, y1>(row, xy);
  }
}

template <class Class>
struct UnrolledRecursion {
  static constexpr int ne = Class::ne, nf = Class::nf, lm = Class::lm;

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
    KMINI_HF_UNROLL
    for (int e = Class::first_a; e < ne; ++e) {
      KMINI_HF_UNROLL
      for (int f = Class::first_c; f < nf; ++f)
        if (lane_needs<Class>(e)) contracted[e][f] += v[0][e][f];
    }
  }

  // The HRR on the ket, then on the bra, into the lane's share of the quartet's integrals.
  KOKKOS_FORCEINLINE_FUNCTION void move(const double cd[3], const double ab[3], double* out) const {
    double ket_moved[ne][Class::nc][Class::nd] = {};
    static_for<Class::first_a, ne>([&](auto e_) {
      constexpr int e = decltype(e_)::value;
      if constexpr (lane_needs<Class>(e)) {
        static_for<0, Class::nc>([&](auto k_) {
          static_for<0, Class::nd>([&](auto l_) {
            constexpr int k = decltype(k_)::value, l = decltype(l_)::value;
            ket_moved[e][k][l] = moved<Class::first_c + k, Class::first_d + l>(
                [&](auto f) -> double { return contracted[e][decltype(f)::value]; }, cd);
          });
        });
      }
    });
    static_for<0, Class::lane_na>([&](auto i_) {
      static_for<0, Class::nb>([&](auto j_) {
        constexpr int i = decltype(i_)::value, j = decltype(j_)::value;
        static_for<0, Class::nc>([&](auto k_) {
          static_for<0, Class::nd>([&](auto l_) {
            constexpr int k = decltype(k_)::value, l = decltype(l_)::value;
            out[((i * Class::nb + j) * Class::nc + k) * Class::nd + l] =
                moved<Class::first_a + i, Class::first_b + j>(
                    [&](auto e) -> double { return ket_moved[decltype(e)::value][k][l]; }, ab);
          });
        });
      });
    });
  }
};

}  // namespace kmini::hf::Impl
