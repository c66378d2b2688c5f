#include "hf/scf/atomic_guess.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/interrupt.hpp"
#include "hf/integrals/integrals_host.hpp"
#include "hf/scf/symmetric_eigen.hpp"

namespace kmini::hf {

namespace {

// Orbital energies closer than this (hartree) form one degenerate set, whose electrons are
// shared evenly: that keeps the atom's density spherical.
constexpr double kDegenerate = 1e-5;
// The atomic SCF stops when no density element moves by more than this. It only has to be a
// good start for the molecule, whose own SCF decides the result.
constexpr double kAtomConvergence = 1e-9;
constexpr int kAtomMaxIterations = 200;

// An atom's one-electron matrices and all its ERIs, (ij|kl) at ((i n + j) n + k) n + l.
struct AtomIntegrals {
  int n = 0;
  HostMatrix overlap, core;
  std::vector<double> eri;
};

AtomIntegrals atom_integrals(int atomic_number, const std::vector<Shell>& shells) {
  std::vector<GaussianShell> centred;
  std::vector<int> first;
  AtomIntegrals a;
  for (const Shell& shell : shells) {
    centred.push_back(GaussianShell{shell.l, {0.0, 0.0, 0.0}, shell.exponents, shell.coefficients});
    first.push_back(a.n);
    a.n += cartesian_functions(shell.l);
  }
  const int n = a.n;
  a.overlap = HostMatrix("hf::atom_overlap", n, n);
  a.core = HostMatrix("hf::atom_core", n, n);
  a.eri.assign(static_cast<std::size_t>(n) * n * n * n, 0.0);
  const std::vector<PointCharge> nucleus{{static_cast<double>(atomic_number), {0.0, 0.0, 0.0}}};
  const std::size_t shell_count = centred.size();
  for (std::size_t p = 0; p < shell_count; ++p) {
    if (interrupt::received() != 0) return a;  // unfinished: see atomic_density
    for (std::size_t q = 0; q < shell_count; ++q) {
      const int np = cartesian_functions(centred[p].l), nq = cartesian_functions(centred[q].l);
      const auto s = overlap_block(centred[p], centred[q]);
      const auto t = kinetic_block(centred[p], centred[q]);
      const auto v = nuclear_block(centred[p], centred[q], nucleus);
      for (int i = 0; i < np; ++i)
        for (int j = 0; j < nq; ++j) {
          a.overlap(first[p] + i, first[q] + j) = s[i * nq + j];
          a.core(first[p] + i, first[q] + j) = t[i * nq + j] + v[i * nq + j];
        }
      for (std::size_t r = 0; r < shell_count; ++r) {
        for (std::size_t u = 0; u < shell_count; ++u) {
          const int nr = cartesian_functions(centred[r].l), nu = cartesian_functions(centred[u].l);
          const auto block = eri_block(centred[p], centred[q], centred[r], centred[u]);
          for (int i = 0; i < np; ++i)
            for (int j = 0; j < nq; ++j)
              for (int k = 0; k < nr; ++k)
                for (int l = 0; l < nu; ++l)
                  a.eri[((static_cast<std::size_t>(first[p] + i) * n + first[q] + j) * n +
                         first[r] + k) *
                            n +
                        first[u] + l] = block[((i * nq + j) * nr + k) * nu + l];
        }
      }
    }
  }
  return a;
}

// X = S^{-1/2}.
HostMatrix inverse_square_root(const HostMatrix& overlap) {
  const int n = static_cast<int>(overlap.extent(0));
  HostMatrix u("hf::atom_overlap_vectors", n, n);
  Kokkos::deep_copy(u, overlap);
  const std::vector<double> s = symmetric_eigen(u);
  HostMatrix x("hf::atom_x", n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double sum = 0.0;
      for (int k = 0; k < n; ++k)
        sum += u(i, k) * u(j, k) / std::sqrt(s[k]);
      x(i, j) = sum;
    }
  return x;
}

// Aufbau over degenerate sets: each set takes two electrons per orbital while they last, and
// the last set shares what is left evenly. A basis with fewer orbitals than the atom needs
// leaves the excess unplaced; the molecule's SCF checks its own count.
std::vector<double> occupations(const std::vector<double>& energies, double electrons) {
  const std::size_t n = energies.size();
  std::vector<double> occupation(n, 0.0);
  std::size_t first = 0;
  while (first < n && electrons > 0.0) {
    std::size_t end = first + 1;
    while (end < n && energies[end] - energies[first] < kDegenerate)
      ++end;
    const double each = std::min(2.0, electrons / static_cast<double>(end - first));
    for (std::size_t k = first; k < end; ++k)
      occupation[k] = each;
    electrons -= each * static_cast<double>(end - first);
    first = end;
  }
  return occupation;
}

// D' = sum_i n_i C_i C_i^T from F, with C = X C' and C' the eigenvectors of X^T F X.
HostMatrix density_from(const HostMatrix& fock, const HostMatrix& x, double electrons) {
  const int n = static_cast<int>(fock.extent(0));
  HostMatrix transformed("hf::atom_fock_orthogonal", n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double sum = 0.0;
      for (int k = 0; k < n; ++k)
        for (int l = 0; l < n; ++l)
          sum += x(k, i) * fock(k, l) * x(l, j);
      transformed(i, j) = sum;
    }
  const std::vector<double> energies = symmetric_eigen(transformed);
  const std::vector<double> occupation = occupations(energies, electrons);
  HostMatrix density("hf::atom_density", n, n);
  for (int orbital = 0; orbital < n; ++orbital) {
    if (occupation[orbital] == 0.0) continue;
    std::vector<double> c(static_cast<std::size_t>(n), 0.0);
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < n; ++k)
        c[i] += x(i, k) * transformed(k, orbital);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        density(i, j) += occupation[orbital] * c[i] * c[j];
  }
  return density;
}

}  // namespace

HostMatrix atomic_density(int atomic_number, const std::vector<Shell>& shells) {
  const AtomIntegrals a = atom_integrals(atomic_number, shells);
  const int n = a.n;
  HostMatrix density("hf::atom_density", n, n), fock("hf::atom_fock", n, n);
  // A signal leaves the density unfinished (zero, or the last iteration's): the setup's next
  // safe point comes at once and nothing uses it. On a busy host an atom's integrals and SCF
  // took tens of seconds.
  if (interrupt::received() != 0) return density;
  const HostMatrix x = inverse_square_root(a.overlap);
  for (int iteration = 0; iteration < kAtomMaxIterations; ++iteration) {
    if (interrupt::received() != 0) break;
    // F = H + sum_kl D_kl [(ij|kl) - (ik|jl)/2]
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        double g = 0.0;
        for (int k = 0; k < n; ++k)
          for (int l = 0; l < n; ++l)
            g += density(k, l) *
                 (a.eri[((static_cast<std::size_t>(i) * n + j) * n + k) * n + l] -
                  0.5 * a.eri[((static_cast<std::size_t>(i) * n + k) * n + j) * n + l]);
        fock(i, j) = a.core(i, j) + g;
      }
    const HostMatrix next = density_from(fock, x, atomic_number);
    double change = 0.0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        change = std::max(change, std::fabs(next(i, j) - density(i, j)));
    // Half steps after the first damp the oscillation that fractional occupations can set up.
    const double keep = iteration == 0 ? 0.0 : 0.5;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        density(i, j) = keep * density(i, j) + (1.0 - keep) * next(i, j);
    if (change < kAtomConvergence) break;
  }
  return density;
}

HostMatrix superposed_atomic_densities(const BasisSet& basis, const Molecule& molecule,
                                       const MolecularBasis& placed) {
  HostMatrix density("hf::sad_density", placed.functions, placed.functions);
  std::map<int, HostMatrix> of_element;
  std::vector<int> first_function(molecule.atoms.size(), -1);
  for (const PlacedShell& shell : placed.shells)
    if (first_function[shell.atom] < 0) first_function[shell.atom] = shell.first_function;
  for (std::size_t atom = 0; atom < molecule.atoms.size(); ++atom) {
    if (interrupt::received() != 0) break;  // unfinished: see atomic_density
    const int z = molecule.atoms[atom].atomic_number;
    auto found = of_element.find(z);
    if (found == of_element.end())
      found = of_element.emplace(z, atomic_density(z, basis.shells_of_element.at(z))).first;
    const HostMatrix& block = found->second;
    const int first = first_function[atom];
    for (std::size_t i = 0; i < block.extent(0); ++i)
      for (std::size_t j = 0; j < block.extent(1); ++j)
        density(first + i, first + j) = block(i, j);
  }
  return density;
}

}  // namespace kmini::hf
