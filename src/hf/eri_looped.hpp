// The recursions of a d class's ERI (eri.hpp), as loops over tables in memory: the same
// Obara-Saika and Head-Gordon-Pople recursions as eri_unrolled.hpp, for classes whose tables
// (3675 entries a primitive quartet for (dd|dd)) no register file holds and no compiler unrolls
// in reasonable time. Each step's components come from small tables made once per quartet.
#pragma once

#include <Kokkos_Core.hpp>

#include "hf/eri_recursion.hpp"

namespace kmini::hf::Impl {

// Entries of the table [e0|f0]^(m), m <= lm - |e| - |f|, for e < ne and f < nf, packed.
KOKKOS_INLINE_FUNCTION constexpr int packed_table_size(int ne, int nf, int lm) {
  int size = 0;
  for (int e = 0; e < ne; ++e)
    for (int f = 0; f < nf; ++f)
      size += lm - component_degree(e) - component_degree(f) + 1;
  return size;
}

// (x, y) by the horizontal recursion (x, y + 1_i) = (x + 1_i, y) + (X - Y)_i (x, y), written out:
// the sum over every way of splitting y's unit steps between raising x and a factor (X - Y)_i,
// from row(e), the values (e, 0).
template <class Row>
KOKKOS_INLINE_FUNCTION double moved_looped(int x, int y, const Row& row, const double xy[3]) {
  int axes[2 * kMaxShellL];
  int steps = 0;
  for (int axis = 0; axis < 3; ++axis)
    for (int k = 0; k < component_power(y, axis); ++k)
      axes[steps++] = axis;
  double sum = 0.0;
  for (int split = 0; split < (1 << steps); ++split) {
    int raised = x;
    double factor = 1.0;
    for (int k = 0; k < steps; ++k) {
      if (split & (1 << k))
        raised = component_raised(raised, axes[k]);
      else
        factor *= xy[axes[k]];
    }
    sum += factor * row(raised);
  }
  return sum;
}

template <class Class>
struct LoopedRecursion {
  static constexpr int ne = Class::ne, nf = Class::nf, lm = Class::lm;
  static constexpr int n = ne > nf ? ne : nf;

  double contracted[ne][nf] = {};
  // Per component c: its degree, the sum of the degrees before it, the axis its recursion
  // raises (build_axis for a ket's, bra_axis for a bra's) and the components one and two steps
  // down that axis, with c's power there less one; and its power along and step down each axis.
  int degree[n + 1], degrees_before[n + 1];
  int ket_axis[nf], ket_down[nf], ket_down2[nf], ket_n1[nf];
  int bra_axis_of[ne], bra_down[ne], bra_down2[ne], bra_n1[ne];
  int power[nf][3], down[nf][3];

  KOKKOS_INLINE_FUNCTION LoopedRecursion() {
    degrees_before[0] = 0;
    for (int c = 0; c < n; ++c) {
      degree[c] = component_degree(c);
      degrees_before[c + 1] = degrees_before[c] + degree[c];
    }
    for (int f = 1; f < nf; ++f) {
      const int i = build_axis(f), f1 = component_lowered(f, i);
      ket_axis[f] = i;
      ket_down[f] = f1;
      ket_down2[f] = component_lowered(f1, i);
      ket_n1[f] = component_power(f1, i);
    }
    for (int e = 1; e < ne; ++e) {
      const int i = bra_axis(e), e1 = component_lowered(e, i);
      bra_axis_of[e] = i;
      bra_down[e] = e1;
      bra_down2[e] = component_lowered(e1, i);
      bra_n1[e] = component_power(e1, i);
    }
    for (int f = 0; f < nf; ++f)
      for (int i = 0; i < 3; ++i) {
        power[f][i] = component_power(f, i);
        down[f][i] = component_lowered(f, i);
      }
  }

  // Where [e0|f0]^(m) lies in the packed table: rows by e, within a row by f, then m.
  KOKKOS_INLINE_FUNCTION int at(int m, int e, int f) const {
    return e * nf * (lm + 1) - nf * degrees_before[e] - e * degrees_before[nf] +
           f * (lm - degree[e] + 1) - degrees_before[f] + m;
  }

  // The vertical recursion of one primitive quartet, [e0|f0]^(m), added into `contracted`.
  KOKKOS_INLINE_FUNCTION void add(const PrimitiveQuartet<lm>& q) {
    double v[packed_table_size(ne, nf, lm)];
    for (int m = 0; m <= lm; ++m)
      v[at(m, 0, 0)] = q.base[m];
    // Up the ket first: [0|f] from [0|f-1_i] and [0|f-2_i].
    for (int f = 1; f < nf; ++f) {
      const int i = ket_axis[f], f1 = ket_down[f], f2 = ket_down2[f], n1 = ket_n1[f];
      for (int m = 0; m <= lm - degree[f]; ++m) {
        double value = q.qc[i] * v[at(m, 0, f1)] + q.wq[i] * v[at(m + 1, 0, f1)];
        if (n1 > 0)
          value += n1 * q.half_inverse_eta *
                   (v[at(m, 0, f2)] - q.zeta * q.inverse_sum * v[at(m + 1, 0, f2)]);
        v[at(m, 0, f)] = value;
      }
    }
    // Then up the bra, the lane's components only: [e|f] from [e-1_i|f], [e-2_i|f] and
    // [e-1_i|f-1_i].
    for (int e = 1; e < ne; ++e) {
      if (!lane_needs<Class>(e)) continue;
      const int i = bra_axis_of[e], e1 = bra_down[e], e2 = bra_down2[e], n1 = bra_n1[e];
      for (int f = 0; f < nf; ++f) {
        const int f_i = power[f][i], f1 = down[f][i];
        for (int m = 0; m <= lm - degree[e] - degree[f]; ++m) {
          double value = q.pa[i] * v[at(m, e1, f)] + q.wp[i] * v[at(m + 1, e1, f)];
          if (n1 > 0)
            value += n1 * q.half_inverse_zeta *
                     (v[at(m, e2, f)] - q.eta * q.inverse_sum * v[at(m + 1, e2, f)]);
          if (f_i > 0) value += f_i * 0.5 * q.inverse_sum * v[at(m + 1, e1, f1)];
          v[at(m, e, f)] = value;
        }
      }
    }
    for (int e = Class::first_a; e < ne; ++e) {
      if (!lane_needs<Class>(e)) continue;
      for (int f = Class::first_c; f < nf; ++f)
        contracted[e][f] += v[at(0, e, f)];
    }
  }

  // The HRR on the ket, then on the bra, into the lane's share of the quartet's integrals.
  KOKKOS_INLINE_FUNCTION void move(const double cd[3], const double ab[3], double* out) const {
    double ket_moved[ne][Class::nc][Class::nd] = {};
    for (int e = Class::first_a; e < ne; ++e) {
      if (!lane_needs<Class>(e)) continue;
      for (int k = 0; k < Class::nc; ++k)
        for (int l = 0; l < Class::nd; ++l)
          ket_moved[e][k][l] = moved_looped(
              Class::first_c + k, Class::first_d + l,
              [&](int f) -> double { return contracted[e][f]; }, cd);
    }
    for (int i = 0; i < Class::lane_na; ++i)
      for (int j = 0; j < Class::nb; ++j)
        for (int k = 0; k < Class::nc; ++k)
          for (int l = 0; l < Class::nd; ++l)
            out[((i * Class::nb + j) * Class::nc + k) * Class::nd + l] = moved_looped(
                Class::first_a + i, Class::first_b + j,
                [&](int e) -> double { return ket_moved[e][k][l]; }, ab);
  }
};

}  // namespace kmini::hf::Impl
