// The one-electron integrals of one pair of contracted shells, overlap, kinetic energy and
// nuclear attraction by Obara-Saika recursions, as a function that runs wherever Kokkos runs: the
// host's blocks (one_electron.cpp, integrals_host.cpp) and the matrices' kernel call the same one.
#pragma once

#include <cmath>

#include <Kokkos_Core.hpp>

#include "hf/basis/cartesian.hpp"
#include "hf/integrals/boys.hpp"
#include "hf/integrals/eri_looped.hpp"

namespace kmini::hf {

// A contracted shell as the kernel reads it: its primitives by pointer, in whichever memory.
struct ShellRef {
  int l = 0;
  double center[3] = {};
  const double* exponents = nullptr;
  const double* coefficients = nullptr;  // normalised (molecular_basis.hpp)
  int primitives = 0;
};

// A nucleus as the kernel reads it.
struct ChargeRef {
  double charge = 0.0;
  double center[3] = {};
};

namespace Impl {

// Obara-Saika 1-D overlaps s[i][j] of x_A^i x_B^j over the product Gaussian, relative to its
// 0,0 value, for i up to l_max and j up to l_max + 2 (the kinetic integral needs j + 2).
struct Overlap1d {
  static constexpr int kI = kMaxShellL + 1, kJ = kMaxShellL + 3;
  double s[kI][kJ];

  KOKKOS_INLINE_FUNCTION Overlap1d(double pa, double pb, double zeta) {
    const double half = 0.5 / zeta;
    s[0][0] = 1.0;
    for (int j = 0; j + 1 < kJ; ++j)
      s[0][j + 1] = pb * s[0][j] + (j > 0 ? j * half * s[0][j - 1] : 0.0);
    for (int i = 0; i + 1 < kI; ++i)
      for (int j = 0; j < kJ; ++j)
        s[i + 1][j] = pa * s[i][j] +
                      half * ((i > 0 ? i * s[i - 1][j] : 0.0) + (j > 0 ? j * s[i][j - 1] : 0.0));
  }
  // (x_A^i | -1/2 d^2/dx^2 | x_B^j) over the same reference, from the derivative of x_B^j e^{-b
  // x_B^2}.
  KOKKOS_INLINE_FUNCTION double kinetic(int i, int j, double beta) const {
    double value = beta * (2 * j + 1) * s[i][j] - 2.0 * beta * beta * s[i][j + 2];
    if (j >= 2) value -= 0.5 * j * (j - 1) * s[i][j - 2];
    return value;
  }
};

// The Cartesian powers of function i of a shell of angular momentum l (x, y, z for p).
KOKKOS_INLINE_FUNCTION int power_of(int l, int i, int axis) {
  return component_power(components_up_to(l - 1) + i, axis);
}

}  // namespace Impl

// <a|b>, <a|-1/2 nabla^2|b> and <a|-sum_C q_C/|r-C||b> of two shells, each na x nb row-major.
// A primitive pair whose product exponent alpha beta / (alpha + beta) |A - B|^2 exceeds
// `negligible_exponent` is skipped: its share of every integral carries that exponent's
// exponential (pass infinity to keep every pair). Returns the primitive pairs computed.
template <class BoysMemory>
KOKKOS_INLINE_FUNCTION int one_electron_block(const ShellRef& a, const ShellRef& b,
                                              const ChargeRef* charges, int charge_count,
                                              const BoysTable<BoysMemory>& boys,
                                              double negligible_exponent, double* overlap,
                                              double* kinetic, double* nuclear) {
  constexpr double kPi = 3.14159265358979323846;
  constexpr int kMaxE = 2 * kMaxShellL;
  const int na = functions_of_l(a.l), nb = functions_of_l(b.l);
  const int le = a.l + b.l, ne = components_up_to(le);
  for (int k = 0; k < na * nb; ++k)
    overlap[k] = kinetic[k] = nuclear[k] = 0.0;
  double theta_sum[components_up_to(kMaxE)] = {};  // -sum_C q_C Theta^(0)(e), contracted
  double ab[3], ab2 = 0.0;
  for (int x = 0; x < 3; ++x) {
    ab[x] = a.center[x] - b.center[x];
    ab2 += ab[x] * ab[x];
  }
  int computed = 0;
  for (int pa = 0; pa < a.primitives; ++pa) {
    for (int pb = 0; pb < b.primitives; ++pb) {
      const double alpha = a.exponents[pa], beta = b.exponents[pb], zeta = alpha + beta;
      const double exponent = alpha * beta / zeta * ab2;
      if (exponent > negligible_exponent) continue;
      ++computed;
      const double weight = a.coefficients[pa] * b.coefficients[pb] * exp(-exponent);
      double p[3], from_a[3];
      for (int x = 0; x < 3; ++x) {
        p[x] = (alpha * a.center[x] + beta * b.center[x]) / zeta;
        from_a[x] = p[x] - a.center[x];
      }
      const Impl::Overlap1d axis[3] = {Impl::Overlap1d(from_a[0], p[0] - b.center[0], zeta),
                                       Impl::Overlap1d(from_a[1], p[1] - b.center[1], zeta),
                                       Impl::Overlap1d(from_a[2], p[2] - b.center[2], zeta)};
      const double s00 = weight * pow(kPi / zeta, 1.5);
      for (int i = 0; i < na; ++i) {
        for (int j = 0; j < nb; ++j) {
          double s[3], t[3];
          for (int x = 0; x < 3; ++x) {
            const int pi = Impl::power_of(a.l, i, x), pj = Impl::power_of(b.l, j, x);
            s[x] = axis[x].s[pi][pj];
            t[x] = axis[x].kinetic(pi, pj, beta);
          }
          overlap[i * nb + j] += s00 * s[0] * s[1] * s[2];
          kinetic[i * nb + j] +=
              s00 * (t[0] * s[1] * s[2] + s[0] * t[1] * s[2] + s[0] * s[1] * t[2]);
        }
      }
      // Nuclear attraction: Theta^(m)(e) = (e|1/r_C|0)^(m) up to e of degree l_a + l_b, by
      // Theta(e) = PA_i Theta(e-1_i) - PC_i Theta^(m+1)(e-1_i)
      //            + n/(2 zeta) (Theta(e-2_i) - Theta^(m+1)(e-2_i)).
      for (int c = 0; c < charge_count; ++c) {
        const ChargeRef& charge = charges[c];
        double pc[3], pc2 = 0.0;
        for (int x = 0; x < 3; ++x) {
          pc[x] = p[x] - charge.center[x];
          pc2 += pc[x] * pc[x];
        }
        double f[kMaxE + 1];
        boys.template evaluate<kMaxE>(zeta * pc2, f);
        double theta[kMaxE + 1][components_up_to(kMaxE)];
        for (int m = 0; m <= le; ++m)
          theta[m][0] = 2.0 * kPi / zeta * weight * f[m];
        for (int e = 1; e < ne; ++e) {
          const int i = build_axis(e), e1 = component_lowered(e, i);
          const int e2 = component_lowered(e1, i), n1 = component_power(e1, i);
          for (int m = 0; m <= le - component_degree(e); ++m) {
            double value = from_a[i] * theta[m][e1] - pc[i] * theta[m + 1][e1];
            if (n1 > 0) value += n1 / (2.0 * zeta) * (theta[m][e2] - theta[m + 1][e2]);
            theta[m][e] = value;
          }
        }
        for (int e = 0; e < ne; ++e)
          theta_sum[e] -= charge.charge * theta[0][e];
      }
    }
  }
  // HRR: (a|V|b + 1_j) = (a + 1_j|V|b) + (A - B)_j (a|V|b).
  const int first_a = components_up_to(a.l - 1), first_b = components_up_to(b.l - 1);
  for (int i = 0; i < na; ++i)
    for (int j = 0; j < nb; ++j)
      nuclear[i * nb + j] = Impl::moved_looped(
          first_a + i, first_b + j, [&](int e) { return theta_sum[e]; }, ab);
  return computed;
}

}  // namespace kmini::hf
