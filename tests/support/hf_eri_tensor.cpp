#include "support/hf_eri_tensor.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "hf/basis/basis_set.hpp"
#include "hf/basis/molecule.hpp"
#include "hf/integrals/boys.hpp"
#include "hf/integrals/eri.hpp"
#include "hf/integrals/integrals_host.hpp"
#include "hf/integrals/shell_pairs.hpp"
#include "support/test_paths.hpp"

namespace kmini::testing {

using namespace kmini::hf;

hf::MolecularBasis two_waters(const std::string& basis_file) {
  const std::string root = source_dir() + "/inputs/";
  return place_basis(
      read_gaussian94(root + "basis/" + basis_file),
      molecule_from_atoms({"O 0 0 0", "H 0.757 0.586 0", "H -0.757 0.586 0", "O 0.3 0.2 3.0",
                           "H 1.057 0.786 3.0", "H -0.457 0.786 3.1"},
                          Units::angstrom));
}

std::vector<double> random_density(int n, double decades, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<double> d(static_cast<std::size_t>(n) * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j)
      d[i * n + j] = d[j * n + i] =
          (unit(rng) < 0.5 ? -1.0 : 1.0) * std::pow(10.0, -decades * unit(rng));
  return d;
}

std::vector<double> eri_tensor(const hf::MolecularBasis& basis) {
  const int n = basis.functions;
  const auto list = canonical_pairs(basis);
  const ShellPairs<Kokkos::HostSpace> pairs = make_shell_pairs(basis, list, 0.0);
  const BoysTable<Kokkos::HostSpace> boys = make_boys_table<Kokkos::HostSpace>();
  std::vector<double> eri(static_cast<std::size_t>(n) * n * n * n, 0.0);
  const auto at = [n](int i, int j, int k, int l) {
    return ((static_cast<std::size_t>(i) * n + j) * n + k) * n + l;
  };
  for (int bra = 0; bra < static_cast<int>(list.size()); ++bra) {
    for (int ket = 0; ket < static_cast<int>(list.size()); ++ket) {
      const auto& shells = basis.shells;
      const int bra_kind = pair_kind(shells[list[bra][0]].l, shells[list[bra][1]].l);
      const int ket_kind = pair_kind(shells[list[ket][0]].l, shells[list[ket][1]].l);
      if (bra_kind < ket_kind) continue;  // the class has the higher kind in the bra
      with_quartet_class(bra_kind, ket_kind, [&](auto cls) {
        using Class = decltype(cls);
        double block[Class::integrals];
        eri_quartet_block(pairs, boys, Class::bra_kind, Class::ket_kind, bra, ket, block);
        const int fa = shells[list[bra][0]].first_function,
                  fb = shells[list[bra][1]].first_function;
        const int fc = shells[list[ket][0]].first_function,
                  fd = shells[list[ket][1]].first_function;
        for (int a = 0; a < Class::na; ++a)
          for (int b = 0; b < Class::nb; ++b)
            for (int c = 0; c < Class::nc; ++c)
              for (int d = 0; d < Class::nd; ++d) {
                const double x = block[((a * Class::nb + b) * Class::nc + c) * Class::nd + d];
                const int i = fa + a, j = fb + b, k = fc + c, l = fd + d;
                for (const auto& [p, q, r, s] : {std::array<int, 4>{i, j, k, l},
                                                 {j, i, k, l},
                                                 {i, j, l, k},
                                                 {j, i, l, k},
                                                 {k, l, i, j},
                                                 {l, k, i, j},
                                                 {k, l, j, i},
                                                 {l, k, j, i}})
                  eri[at(p, q, r, s)] = x;
              }
      });
    }
  }
  return eri;
}

std::vector<double> reference_j(const std::vector<double>& eri, const std::vector<double>& d,
                                int n) {
  std::vector<double> j(static_cast<std::size_t>(n) * n, 0.0);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) {
      double sum = 0.0;
      for (int l = 0; l < n; ++l)
        for (int m = 0; m < n; ++m)
          sum += d[l * n + m] * eri[((static_cast<std::size_t>(i) * n + k) * n + l) * n + m];
      j[i * n + k] = sum;
    }
  return j;
}

std::vector<double> reference_g(const std::vector<double>& eri, const std::vector<double>& d,
                                int n) {
  std::vector<double> g(static_cast<std::size_t>(n) * n, 0.0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double sum = 0.0;
      for (int k = 0; k < n; ++k)
        for (int l = 0; l < n; ++l)
          sum +=
              d[k * n + l] * (eri[((static_cast<std::size_t>(i) * n + j) * n + k) * n + l] -
                              0.5 * eri[((static_cast<std::size_t>(i) * n + k) * n + j) * n + l]);
      g[i * n + j] = sum;
    }
  return g;
}

double largest_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double largest = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k)
    largest = std::max(largest, std::abs(a[k] - b[k]));
  return largest;
}

DeviceMatrix device_matrix(const std::vector<double>& values, int n) {
  DeviceMatrix m("test::matrix", n, n);
  const auto host = Kokkos::create_mirror_view(m);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      host(i, j) = values[i * n + j];
  Kokkos::deep_copy(m, host);
  return m;
}

std::vector<double> matrix_values(const DeviceMatrix& m) {
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m);
  std::vector<double> values;
  for (std::size_t i = 0; i < host.extent(0); ++i)
    for (std::size_t j = 0; j < host.extent(1); ++j)
      values.push_back(host(i, j));
  return values;
}

}  // namespace kmini::testing
