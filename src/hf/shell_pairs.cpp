#include "hf/shell_pairs.hpp"

#include <cmath>
#include <stdexcept>

namespace kmini::hf {

const char* pair_kind_name(int kind) {
  static const char* const names[kPairKinds] = {"ss", "ps", "pp"};
  return names[kind];
}

std::vector<std::array<int, 2>> canonical_pairs(const MolecularBasis& basis) {
  std::vector<std::array<int, 2>> pairs;
  const int n = static_cast<int>(basis.shells.size());
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      const int la = basis.shells[a].l, lb = basis.shells[b].l;
      if (la > lb || (la == lb && a >= b)) pairs.push_back({a, b});
    }
  }
  return pairs;
}

ShellPairs<Kokkos::HostSpace> make_shell_pairs(const MolecularBasis& basis,
                                               const std::vector<std::array<int, 2>>& pairs) {
  using Host = Kokkos::HostSpace;
  const std::size_t n = pairs.size();
  ShellPairs<Host> out;
  out.shells = Kokkos::View<int* [2], Kokkos::LayoutRight, Host>("hf::pair_shells", n);
  out.first_functions = Kokkos::View<int* [2], Kokkos::LayoutRight, Host>("hf::pair_functions", n);
  out.ab = Kokkos::View<double* [3], Kokkos::LayoutRight, Host>("hf::pair_ab", n);
  out.primitives_begin = Kokkos::View<int*, Host>("hf::pair_primitives_begin", n + 1);
  std::size_t products = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const PlacedShell& a = basis.shells.at(static_cast<std::size_t>(pairs[i][0]));
    const PlacedShell& b = basis.shells.at(static_cast<std::size_t>(pairs[i][1]));
    if (a.l < b.l) throw std::logic_error("make_shell_pairs: pair not in canonical order");
    out.primitives_begin(i) = static_cast<int>(products);
    products += a.exponents.size() * b.exponents.size();
  }
  out.primitives_begin(n) = static_cast<int>(products);
  out.zeta = Kokkos::View<double*, Host>("hf::pair_zeta", products);
  out.weight = Kokkos::View<double*, Host>("hf::pair_weight", products);
  out.center = Kokkos::View<double* [3], Kokkos::LayoutRight, Host>("hf::pair_center", products);
  out.from_a = Kokkos::View<double* [3], Kokkos::LayoutRight, Host>("hf::pair_from_a", products);
  for (std::size_t i = 0; i < n; ++i) {
    const PlacedShell& a = basis.shells[static_cast<std::size_t>(pairs[i][0])];
    const PlacedShell& b = basis.shells[static_cast<std::size_t>(pairs[i][1])];
    out.shells(i, 0) = pairs[i][0];
    out.shells(i, 1) = pairs[i][1];
    out.first_functions(i, 0) = a.first_function;
    out.first_functions(i, 1) = b.first_function;
    double ab2 = 0.0;
    for (int x = 0; x < 3; ++x) {
      out.ab(i, x) = a.center[x] - b.center[x];
      ab2 += out.ab(i, x) * out.ab(i, x);
    }
    int k = out.primitives_begin(i);
    for (std::size_t pa = 0; pa < a.exponents.size(); ++pa) {
      for (std::size_t pb = 0; pb < b.exponents.size(); ++pb, ++k) {
        const double alpha = a.exponents[pa], beta = b.exponents[pb], zeta = alpha + beta;
        out.zeta(k) = zeta;
        out.weight(k) =
            a.coefficients[pa] * b.coefficients[pb] * std::exp(-alpha * beta / zeta * ab2);
        for (int x = 0; x < 3; ++x) {
          out.center(k, x) = (alpha * a.center[x] + beta * b.center[x]) / zeta;
          out.from_a(k, x) = out.center(k, x) - a.center[x];
        }
      }
    }
  }
  return out;
}

}  // namespace kmini::hf
