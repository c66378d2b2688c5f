// The SCF's superposition-of-atomic-densities guess (hf/scf/atomic_guess.hpp): each atom's density
// holds its electrons (trace(D S) = Z), is spherical (its p blocks are multiples of the unit
// matrix, with nothing between s and p), and is a proper closed-shell density (D S D = 2 D) for
// the closed-shell atoms; the molecule's guess is those blocks on its diagonal and nothing else.
#include <gtest/gtest.h>

#include <cmath>
#include <csignal>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/interrupt.hpp"
#include "hf/basis/basis_set.hpp"
#include "hf/basis/elements.hpp"
#include "hf/basis/molecular_basis.hpp"
#include "hf/basis/molecule.hpp"
#include "hf/integrals/one_electron.hpp"
#include "hf/scf/atomic_guess.hpp"
#include "support/test_paths.hpp"

namespace kmini::hf {
namespace {

// The atomic SCF converges its density to 1e-9; the checks below hold far tighter than a wrong
// occupation or a broken symmetry would allow (those show at 1e-2 or worse).
constexpr double kTolerance = 1e-8;

BasisSet shipped_basis(const std::string& name) {
  return read_gaussian94(kmini::testing::source_dir() + "/inputs/basis/" + name + ".gbs");
}

// The atom's own overlap matrix, from the same code path as a one-atom molecule's.
HostMatrix atom_overlap(const BasisSet& basis, int atomic_number) {
  Molecule atom;
  atom.atoms.push_back(Atom{atomic_number, 0.0, 0.0, 0.0});
  return one_electron_matrices(place_basis(basis, atom), {}).overlap;
}

double trace_of_product(const HostMatrix& d, const HostMatrix& s) {
  double trace = 0.0;
  for (std::size_t i = 0; i < d.extent(0); ++i)
    for (std::size_t j = 0; j < d.extent(1); ++j)
      trace += d(i, j) * s(j, i);
  return trace;
}

TEST(HfAtomicGuess, HydrogenInSto3gIsOneElectronInItsOneFunction) {
  const BasisSet basis = shipped_basis("sto-3g");
  const HostMatrix d = atomic_density(1, basis.shells_of_element.at(1));
  ASSERT_EQ(d.extent(0), 1u);
  EXPECT_NEAR(d(0, 0), 1.0, 1e-12);
}

TEST(HfAtomicGuess, AtomsHoldTheirElectronsInSphericalDensities) {
  for (const std::string name : {"sto-3g", "6-31g"}) {
    const BasisSet basis = shipped_basis(name);
    for (const int z : {1, 2, 3, 6, 7, 8, 9, 10, 14, 17, 18}) {
      SCOPED_TRACE(name + ", " + element_symbol(z));
      const std::vector<Shell>& shells = basis.shells_of_element.at(z);
      const HostMatrix d = atomic_density(z, shells);
      const HostMatrix s = atom_overlap(basis, z);
      ASSERT_EQ(d.extent(0), s.extent(0));
      EXPECT_NEAR(trace_of_product(d, s), z, kTolerance * z);
      std::vector<int> first, ls;
      int n = 0;
      for (const Shell& shell : shells) {
        first.push_back(n);
        ls.push_back(shell.l);
        n += cartesian_functions(shell.l);
      }
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          EXPECT_NEAR(d(i, j), d(j, i), kTolerance);
      for (std::size_t a = 0; a < shells.size(); ++a) {
        for (std::size_t b = 0; b < shells.size(); ++b) {
          if (ls[a] == 0 && ls[b] == 0) continue;
          if (ls[a] != ls[b]) {  // s-p: zero by parity
            for (int i = 0; i < cartesian_functions(ls[a]); ++i)
              for (int j = 0; j < cartesian_functions(ls[b]); ++j)
                EXPECT_NEAR(d(first[a] + i, first[b] + j), 0.0, kTolerance);
            continue;
          }
          for (int i = 0; i < 3; ++i)  // p-p: a multiple of the unit matrix
            for (int j = 0; j < 3; ++j)
              EXPECT_NEAR(d(first[a] + i, first[b] + j), i == j ? d(first[a], first[b]) : 0.0,
                          kTolerance);
        }
      }
    }
  }
}

TEST(HfAtomicGuess, ClosedShellAtomsGiveIdempotentDensities) {
  // He, Be, Ne and Ar fill whole degenerate sets: D = 2 C_occ C_occ^T with C^T S C = 1, so
  // D S D = 2 D.
  for (const std::string name : {"sto-3g", "6-31g"}) {
    const BasisSet basis = shipped_basis(name);
    for (const int z : {2, 4, 10, 18}) {
      SCOPED_TRACE(name + ", " + element_symbol(z));
      const HostMatrix d = atomic_density(z, basis.shells_of_element.at(z));
      const HostMatrix s = atom_overlap(basis, z);
      const std::size_t n = d.extent(0);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
          double dsd = 0.0;
          for (std::size_t k = 0; k < n; ++k)
            for (std::size_t l = 0; l < n; ++l)
              dsd += d(i, k) * s(k, l) * d(l, j);
          EXPECT_NEAR(dsd, 2.0 * d(i, j), kTolerance);
        }
    }
  }
}

// A signal during the guess (a step of hf's setup): the atoms' integrals and SCFs stop where
// they are, the densities unfinished, so that the setup's next safe point comes at once (a busy
// host took tens of seconds over them). A guess that never looked returns every atom's density.
double largest_element(const HostMatrix& m) {
  double largest = 0.0;
  for (std::size_t i = 0; i < m.extent(0); ++i)
    for (std::size_t j = 0; j < m.extent(1); ++j)
      largest = std::max(largest, std::fabs(m(i, j)));
  return largest;
}

TEST(HfAtomicGuessDeathTest, ASignalStopsTheAtomsWhereTheyAre) {
  ::testing::GTEST_FLAG(death_test_style) = "threadsafe";  // a child of its own: no threads forked
  const BasisSet basis = shipped_basis("6-31g");
  const Molecule water =
      read_xyz(kmini::testing::source_dir() + "/inputs/molecules/water-003.xyz", Units::angstrom);
  const MolecularBasis placed = place_basis(basis, water);
  ASSERT_GT(largest_element(superposed_atomic_densities(basis, water, placed)), 0.5);
  EXPECT_EXIT(
      {
        interrupt::install();
        std::raise(SIGTERM);
        const double molecule = largest_element(superposed_atomic_densities(basis, water, placed));
        const double oxygen = largest_element(atomic_density(8, basis.shells_of_element.at(8)));
        std::_Exit(molecule == 0.0 && oxygen == 0.0 ? 7 : 8);  // no atexit: Kokkos stays up
      },
      ::testing::ExitedWithCode(7), "");
}

TEST(HfAtomicGuess, TheMoleculesGuessIsItsAtomsOnTheDiagonal) {
  const BasisSet basis = shipped_basis("6-31g");
  const Molecule water =
      read_xyz(kmini::testing::source_dir() + "/inputs/molecules/water-003.xyz", Units::angstrom);
  const MolecularBasis placed = place_basis(basis, water);
  const HostMatrix d = superposed_atomic_densities(basis, water, placed);
  const HostMatrix s = one_electron_matrices(placed, {}).overlap;
  EXPECT_NEAR(trace_of_product(d, s), 30.0, 30.0 * kTolerance);
  std::vector<int> atom_of(placed.functions), first_of(water.atoms.size(), -1);
  for (const PlacedShell& shell : placed.shells) {
    for (int i = 0; i < cartesian_functions(shell.l); ++i)
      atom_of[shell.first_function + i] = shell.atom;
    if (first_of[shell.atom] < 0) first_of[shell.atom] = shell.first_function;
  }
  for (std::size_t atom = 0; atom < water.atoms.size(); ++atom) {
    const int z = water.atoms[atom].atomic_number;
    const HostMatrix own = atomic_density(z, basis.shells_of_element.at(z));
    for (std::size_t i = 0; i < own.extent(0); ++i)
      for (std::size_t j = 0; j < own.extent(1); ++j)
        EXPECT_EQ(d(first_of[atom] + i, first_of[atom] + j), own(i, j));
  }
  for (int i = 0; i < placed.functions; ++i)
    for (int j = 0; j < placed.functions; ++j)
      if (atom_of[i] != atom_of[j]) {
        EXPECT_EQ(d(i, j), 0.0);
      }
}

}  // namespace
}  // namespace kmini::hf
