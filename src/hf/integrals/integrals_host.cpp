#include "hf/integrals/integrals_host.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "hf/basis/molecular_basis.hpp"
#include "hf/integrals/boys.hpp"
#include "hf/integrals/eri.hpp"
#include "hf/integrals/one_electron.hpp"
#include "hf/integrals/shell_pairs.hpp"

namespace kmini::hf {

namespace {

// Kept in a plain vector and viewed unmanaged: a static managed view would outlive
// Kokkos::finalize.
BoysTable<Kokkos::HostSpace> host_boys() {
  static const std::vector<BoysRow> rows = [] {
    const auto table = boys_rows();
    return std::vector<BoysRow>(table.data(), table.data() + table.size());
  }();
  return BoysTable<Kokkos::HostSpace>{
      Kokkos::View<const BoysRow**, Kokkos::LayoutRight, Kokkos::HostSpace>(
          rows.data(), kBoysMaxOrder + 1, kBoysTableRows)};
}

PlacedShell placed(const GaussianShell& shell, int first_function) {
  if (shell.l < 0 || shell.l > kMaxShellL) throw std::invalid_argument("only s, p and d shells");
  PlacedShell out;
  out.l = shell.l;
  out.center = shell.center;
  out.first_function = first_function;
  out.exponents = shell.exponents;
  out.coefficients = normalised_coefficients(shell.l, shell.exponents, shell.coefficients);
  return out;
}

enum class Block { overlap, kinetic, nuclear };

std::vector<double> one_electron(Block which, const GaussianShell& a, const GaussianShell& b,
                                 const std::vector<PointCharge>& charges) {
  const int n = functions_of_l(a.l) * functions_of_l(b.l);
  std::vector<double> s(n), t(n), v(n);
  one_electron_blocks(placed(a, 0), placed(b, 0), charges, host_boys(), s.data(), t.data(),
                      v.data());
  return which == Block::overlap ? s : which == Block::kinetic ? t : v;
}

}  // namespace

double boys_function(int m, double t, int top) {
  if (m < 0 || top > kBoysMaxOrder || m > top)
    throw std::invalid_argument("boys_function: order out of range");
  double f[kBoysMaxOrder + 1];
  Impl::static_for<0, kBoysMaxOrder + 1>([&](auto order) {
    if (decltype(order)::value == top) host_boys().evaluate<decltype(order)::value>(t, f);
  });
  return f[m];
}

std::vector<double> overlap_block(const GaussianShell& a, const GaussianShell& b) {
  return one_electron(Block::overlap, a, b, {});
}

std::vector<double> kinetic_block(const GaussianShell& a, const GaussianShell& b) {
  return one_electron(Block::kinetic, a, b, {});
}

std::vector<double> nuclear_block(const GaussianShell& a, const GaussianShell& b,
                                  const std::vector<PointCharge>& charges) {
  return one_electron(Block::nuclear, a, b, charges);
}

void eri_quartet_block(const ShellPairs<Kokkos::HostSpace>& pairs,
                       const BoysTable<Kokkos::HostSpace>& boys, int bra_kind, int ket_kind,
                       int bra, int ket, double* out, double cutoff) {
  with_quartet_class(bra_kind, ket_kind, [&](auto cls) {
    eri_quartet<decltype(cls)>(pairs, boys, bra, ket, out, cutoff);
  });
}

std::vector<double> eri_block(const GaussianShell& a, const GaussianShell& b,
                              const GaussianShell& c, const GaussianShell& d) {
  // Put the quartet in canonical order (l_a >= l_b, l_c >= l_d, bra kind >= ket kind),
  // remembering where each shell went, and permute the block back at the end.
  int order[4] = {0, 1, 2, 3};
  const GaussianShell* shells[4] = {&a, &b, &c, &d};
  if (a.l < b.l) std::swap(order[0], order[1]);
  if (c.l < d.l) std::swap(order[2], order[3]);
  const int bra_kind = pair_kind(shells[order[0]]->l, shells[order[1]]->l);
  const int ket_kind = pair_kind(shells[order[2]]->l, shells[order[3]]->l);
  if (bra_kind < ket_kind) {
    std::swap(order[0], order[2]);
    std::swap(order[1], order[3]);
  }
  MolecularBasis basis;
  for (int position = 0; position < 4; ++position) {
    basis.shells.push_back(placed(*shells[order[position]], basis.functions));
    basis.functions += functions_of_l(shells[order[position]]->l);
  }
  const auto pairs = make_shell_pairs(basis, {{0, 1}, {2, 3}});
  const auto n_of = [&](int position) { return functions_of_l(shells[order[position]]->l); };
  std::vector<double> canonical(static_cast<std::size_t>(n_of(0) * n_of(1) * n_of(2) * n_of(3)));
  eri_quartet_block(pairs, host_boys(), std::max(bra_kind, ket_kind), std::min(bra_kind, ket_kind),
                    0, 1, canonical.data());

  int n[4], stride[4];
  for (int position = 0; position < 4; ++position)
    n[position] = functions_of_l(shells[order[position]]->l);
  stride[3] = 1;
  for (int position = 2; position >= 0; --position)
    stride[position] = stride[position + 1] * n[position + 1];
  const int na = functions_of_l(a.l), nb = functions_of_l(b.l);
  const int nc = functions_of_l(c.l), nd = functions_of_l(d.l);
  std::vector<double> out(static_cast<std::size_t>(na * nb * nc * nd));
  for (int i = 0; i < na; ++i) {
    for (int j = 0; j < nb; ++j) {
      for (int k = 0; k < nc; ++k) {
        for (int l = 0; l < nd; ++l) {
          const int index[4] = {i, j, k, l};  // by original shell
          int at = 0;
          for (int position = 0; position < 4; ++position)
            at += index[order[position]] * stride[position];
          out[static_cast<std::size_t>(((i * nb + j) * nc + k) * nd + l)] = canonical[at];
        }
      }
    }
  }
  return out;
}

}  // namespace kmini::hf
