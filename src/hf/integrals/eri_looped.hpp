// The recursions of a d class's ERI (eri.hpp), as loops over tables in memory: the same
// Obara-Saika and Head-Gordon-Pople recursions as eri.hpp's UnrolledRecursion, for classes whose
// tables (3675 entries a primitive quartet for (dd|dd)) no register file holds and no compiler
// unrolls in reasonable time. Each step's components come from small tables made once per quartet,
// and the class's shape is a run-time value, so that one compiled function serves them all.
#pragma once

#include <Kokkos_Core.hpp>

#include "hf/integrals/eri_recursion.hpp"
#include "hf/integrals/unrolled.hpp"

namespace kmini::hf::Impl {

// Entries of the table [e0|f0]^(m), m <= lm - |e| - |f|, for e < ne and f < nf, packed.
KOKKOS_INLINE_FUNCTION constexpr int packed_table_size(int ne, int nf, int lm) {
  int size = 0;
  KMINI_HF_LOOP
  for (int e = 0; e < ne; ++e)
    KMINI_HF_LOOP
  for (int f = 0; f < nf; ++f)
    size += lm - component_degree(e) - component_degree(f) + 1;
  return size;
}

// (x, y) by the horizontal recursion (x, y + 1_i) = (x + 1_i, y) + (X - Y)_i (x, y), written out:
// the sum over every way of splitting y's unit steps between raising x and a factor (X - Y)_i,
// from row(e), the values (e, 0).
KMINI_HF_HOST_OR_DEVICE_CALLABLE
template <class Row>
KOKKOS_INLINE_FUNCTION double moved_looped(int x, int y, const Row& row, const double xy[3]) {
  int axes[2 * kMaxShellL];
  int steps = 0;
  KMINI_HF_LOOP
  for (int axis = 0; axis < 3; ++axis)
    KMINI_HF_LOOP
  for (int k = 0; k < component_power(y, axis); ++k)
    axes[steps++] = axis;
  double sum = 0.0;
  KMINI_HF_LOOP
  for (int split = 0; split < (1 << steps); ++split) {
    int raised = x;
    double factor = 1.0;
    KMINI_HF_LOOP
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

// A looped class's shape at run time: every looped class shares one compiled recursion.
struct LoopedShape {
  int la = 0, lb = 0, lc = 0, ld = 0, lanes = 1;
  int na = 1, nb = 1, nc = 1, nd = 1, lane_na = 1;
  int le = 0, lf = 0, lm = 0, ne = 1, nf = 1;
  int first_a = 0, first_b = 0, first_c = 0, first_d = 0;
};

template <class Class>
KOKKOS_INLINE_FUNCTION constexpr LoopedShape looped_shape() {
  LoopedShape s;
  s.la = Class::la, s.lb = Class::lb, s.lc = Class::lc, s.ld = Class::ld, s.lanes = Class::lanes;
  s.na = Class::na, s.nb = Class::nb, s.nc = Class::nc, s.nd = Class::nd;
  s.lane_na = Class::lane_na;
  s.le = Class::le, s.lf = Class::lf, s.lm = Class::lm, s.ne = Class::ne, s.nf = Class::nf;
  s.first_a = Class::first_a, s.first_b = Class::first_b;
  s.first_c = Class::first_c, s.first_d = Class::first_d;
  return s;
}

// The largest looped class, (dd|dd), sizes the tables.
struct LoopedLimits {
  static constexpr int le = 2 * kMaxShellL, lf = 2 * kMaxShellL, lm = le + lf;
  static constexpr int ne = components_up_to(le), nf = components_up_to(lf);
  static constexpr int nc = functions_of_l(kMaxShellL), nd = functions_of_l(kMaxShellL);
  static constexpr bool ket_read_ahead = false;  // (dd|dd) lost up to 32% reading ahead
};

struct LoopedRecursion {
  static constexpr int kN = LoopedLimits::ne;
  LoopedShape shape;
  double contracted[kN][kN];
  // Per component c: its degree, the sum of the degrees before it, the axis its recursion
  // raises (build_axis for a ket's, bra_axis for a bra's) and the components one and two steps
  // down that axis, with c's power there less one; and its power along and step down each axis.
  int degree[kN + 1], degrees_before[kN + 1];
  int ket_axis[kN], ket_down[kN], ket_down2[kN], ket_n1[kN];
  int bra_axis_of[kN], bra_down[kN], bra_down2[kN], bra_n1[kN];
  int power[kN][3], down[kN][3];

  KOKKOS_INLINE_FUNCTION explicit LoopedRecursion(const LoopedShape& s) : shape(s) {
    // No shape has more than kN components; the bound also keeps the tables' writes in range.
    const int widest = s.ne > s.nf ? s.ne : s.nf;
    const int n = widest < kN ? widest : kN;
    degrees_before[0] = 0;
    KMINI_HF_LOOP
    for (int c = 0; c < n; ++c) {
      degree[c] = component_degree(c);
      degrees_before[c + 1] = degrees_before[c] + degree[c];
      const int i = build_axis(c), j = bra_axis(c);
      ket_axis[c] = i;
      ket_down[c] = component_lowered(c, i);
      ket_down2[c] = c == 0 ? -1 : component_lowered(ket_down[c], i);
      ket_n1[c] = c == 0 ? 0 : component_power(ket_down[c], i);
      bra_axis_of[c] = j;
      bra_down[c] = component_lowered(c, j);
      bra_down2[c] = c == 0 ? -1 : component_lowered(bra_down[c], j);
      bra_n1[c] = c == 0 ? 0 : component_power(bra_down[c], j);
      KMINI_HF_LOOP
      for (int axis = 0; axis < 3; ++axis) {
        power[c][axis] = component_power(c, axis);
        down[c][axis] = component_lowered(c, axis);
      }
    }
    KMINI_HF_LOOP
    for (int e = 0; e < s.ne; ++e)
      KMINI_HF_LOOP
    for (int f = 0; f < s.nf; ++f)
      contracted[e][f] = 0.0;
  }

  // Whether the lane needs bra component e (lane_needs, eri_recursion.hpp).
  KOKKOS_INLINE_FUNCTION bool needs(int e) const {
    return shape.lanes == 1 || e == 0 || power[e][0] > 0;
  }

  // Where [e0|f0]^(m) lies in the packed table: rows by e, within a row by f, then m.
  KOKKOS_INLINE_FUNCTION int at(int m, int e, int f) const {
    const int nf = shape.nf, lm = shape.lm;
    return e * nf * (lm + 1) - nf * degrees_before[e] - e * degrees_before[nf] +
           f * (lm - degree[e] + 1) - degrees_before[f] + m;
  }

  // The vertical recursion of one primitive quartet, [e0|f0]^(m), added into `contracted`.
  KOKKOS_INLINE_FUNCTION void add(const PrimitiveQuartet<LoopedLimits::lm>& q) {
    const int ne = shape.ne, nf = shape.nf, lm = shape.lm;
    double v[packed_table_size(LoopedLimits::ne, LoopedLimits::nf, LoopedLimits::lm)];
    KMINI_HF_LOOP
    for (int m = 0; m <= lm; ++m)
      v[at(m, 0, 0)] = q.base[m];
    // Up the ket first: [0|f] from [0|f-1_i] and [0|f-2_i].
    KMINI_HF_LOOP
    for (int f = 1; f < nf; ++f) {
      const int i = ket_axis[f], f1 = ket_down[f], f2 = ket_down2[f], n1 = ket_n1[f];
      KMINI_HF_LOOP
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
    KMINI_HF_LOOP
    for (int e = 1; e < ne; ++e) {
      if (!needs(e)) continue;
      const int i = bra_axis_of[e], e1 = bra_down[e], e2 = bra_down2[e], n1 = bra_n1[e];
      KMINI_HF_LOOP
      for (int f = 0; f < nf; ++f) {
        const int f_i = power[f][i], f1 = down[f][i];
        KMINI_HF_LOOP
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
    KMINI_HF_LOOP
    for (int e = shape.first_a; e < ne; ++e) {
      if (!needs(e)) continue;
      KMINI_HF_LOOP
      for (int f = shape.first_c; f < nf; ++f)
        contracted[e][f] += v[at(0, e, f)];
    }
  }

  // The HRR on the ket, then on the bra, into the lane's share of the quartet's integrals.
  KOKKOS_INLINE_FUNCTION void move(const double cd[3], const double ab[3], double* out) const {
    const LoopedShape& s = shape;
    double ket_moved[kN][LoopedLimits::nc][LoopedLimits::nd];
    KMINI_HF_LOOP
    for (int e = s.first_a; e < s.ne; ++e) {
      if (!needs(e)) continue;
      KMINI_HF_LOOP
      for (int k = 0; k < s.nc; ++k)
        KMINI_HF_LOOP
      for (int l = 0; l < s.nd; ++l)
        ket_moved[e][k][l] = moved_looped(
            s.first_c + k, s.first_d + l, [&](int f) -> double { return contracted[e][f]; }, cd);
    }
    KMINI_HF_LOOP
    for (int i = 0; i < s.lane_na; ++i)
      KMINI_HF_LOOP
    for (int j = 0; j < s.nb; ++j)
      KMINI_HF_LOOP
    for (int k = 0; k < s.nc; ++k)
      KMINI_HF_LOOP
    for (int l = 0; l < s.nd; ++l)
      out[((i * s.nb + j) * s.nc + k) * s.nd + l] = moved_looped(
          s.first_a + i, s.first_b + j, [&](int e) -> double { return ket_moved[e][k][l]; }, ab);
  }
};

}  // namespace kmini::hf::Impl
