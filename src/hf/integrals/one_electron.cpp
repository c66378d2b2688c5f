#include "hf/integrals/one_electron.hpp"

#include <cmath>

#include "hf/basis/cartesian.hpp"
#include "hf/integrals/eri_looped.hpp"

namespace kmini::hf {

namespace {

constexpr double kPi = 3.14159265358979323846;

// The Cartesian powers of function i of a shell of angular momentum l (x, y, z for p).
int power_of(int l, int i, int axis) {
  return component_power(components_up_to(l - 1) + i, axis);
}

// Obara-Saika 1-D overlaps s[i][j] of x_A^i x_B^j over the product Gaussian, relative to its
// 0,0 value, for i up to l_max and j up to l_max + 2 (the kinetic integral needs j + 2).
struct Overlap1d {
  static constexpr int kI = kMaxShellL + 1, kJ = kMaxShellL + 3;
  double s[kI][kJ];

  Overlap1d(double pa, double pb, double zeta) {
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
  double kinetic(int i, int j, double beta) const {
    double value = beta * (2 * j + 1) * s[i][j] - 2.0 * beta * beta * s[i][j + 2];
    if (j >= 2) value -= 0.5 * j * (j - 1) * s[i][j - 2];
    return value;
  }
};

}  // namespace

void one_electron_blocks(const PlacedShell& a, const PlacedShell& b,
                         const std::vector<PointCharge>& charges,
                         const BoysTable<Kokkos::HostSpace>& boys, double* overlap, double* kinetic,
                         double* nuclear) {
  const int na = functions_of_l(a.l), nb = functions_of_l(b.l);
  const int le = a.l + b.l, ne = components_up_to(le);
  for (int k = 0; k < na * nb; ++k)
    overlap[k] = kinetic[k] = nuclear[k] = 0.0;
  constexpr int kMaxE = 2 * kMaxShellL;
  double theta_sum[components_up_to(kMaxE)] = {};  // -sum_C q_C Theta^(0)(e), contracted
  double ab[3], ab2 = 0.0;
  for (int x = 0; x < 3; ++x) {
    ab[x] = a.center[x] - b.center[x];
    ab2 += ab[x] * ab[x];
  }
  for (std::size_t pa = 0; pa < a.exponents.size(); ++pa) {
    for (std::size_t pb = 0; pb < b.exponents.size(); ++pb) {
      const double alpha = a.exponents[pa], beta = b.exponents[pb], zeta = alpha + beta;
      const double weight =
          a.coefficients[pa] * b.coefficients[pb] * std::exp(-alpha * beta / zeta * ab2);
      double p[3], from_a[3];
      for (int x = 0; x < 3; ++x) {
        p[x] = (alpha * a.center[x] + beta * b.center[x]) / zeta;
        from_a[x] = p[x] - a.center[x];
      }
      const Overlap1d axis[3] = {Overlap1d(from_a[0], p[0] - b.center[0], zeta),
                                 Overlap1d(from_a[1], p[1] - b.center[1], zeta),
                                 Overlap1d(from_a[2], p[2] - b.center[2], zeta)};
      const double s00 = weight * std::pow(kPi / zeta, 1.5);
      for (int i = 0; i < na; ++i) {
        for (int j = 0; j < nb; ++j) {
          double s[3], t[3];
          for (int x = 0; x < 3; ++x) {
            const int pi = power_of(a.l, i, x), pj = power_of(b.l, j, x);
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
      for (const PointCharge& charge : charges) {
        double pc[3], pc2 = 0.0;
        for (int x = 0; x < 3; ++x) {
          pc[x] = p[x] - charge.center[x];
          pc2 += pc[x] * pc[x];
        }
        double f[kMaxE + 1];
        boys.evaluate<kMaxE>(zeta * pc2, f);
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
}

OneElectronMatrices one_electron_matrices(const MolecularBasis& basis,
                                          const std::vector<PointCharge>& nuclei) {
  const int n = basis.functions;
  OneElectronMatrices out{HostMatrix("hf::overlap", n, n), HostMatrix("hf::kinetic", n, n),
                          HostMatrix("hf::nuclear", n, n)};
  const auto boys = make_boys_table<Kokkos::HostSpace>();
  const int shells = static_cast<int>(basis.shells.size());
  // Shell pairs (a, b) with a >= b; each fills its block and the transposed one.
  Kokkos::parallel_for(
      "hf::one_electron",
      Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, shells * shells),
      [&](const int index) {
        const int a = index / shells, b = index % shells;
        if (b > a) return;
        const PlacedShell& sa = basis.shells[a];
        const PlacedShell& sb = basis.shells[b];
        constexpr int kBlock = functions_of_l(kMaxShellL) * functions_of_l(kMaxShellL);
        double s[kBlock], t[kBlock], v[kBlock];
        one_electron_blocks(sa, sb, nuclei, boys, s, t, v);
        const int na = functions_of_l(sa.l), nb = functions_of_l(sb.l);
        for (int i = 0; i < na; ++i) {
          for (int j = 0; j < nb; ++j) {
            const int row = sa.first_function + i, col = sb.first_function + j;
            for (auto [matrix, values] : {std::pair{&out.overlap, s}, std::pair{&out.kinetic, t},
                                          std::pair{&out.nuclear, v}}) {
              (*matrix)(row, col) = values[i * nb + j];
              (*matrix)(col, row) = values[i * nb + j];
            }
          }
        }
      });
  Kokkos::fence();
  return out;
}

}  // namespace kmini::hf
