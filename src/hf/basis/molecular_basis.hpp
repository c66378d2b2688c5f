// A basis set placed on a molecule: every shell at its atom, with normalised contraction
// coefficients, and the numbering of the basis functions.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "hf/basis/basis_set.hpp"
#include "hf/basis/molecule.hpp"

namespace kmini::hf {

struct PlacedShell {
  int l = 0;
  int atom = 0;
  std::array<double, 3> center{};  // bohr
  int first_function = 0;
  std::vector<double> exponents;
  // Contraction coefficients times primitive normalisation, scaled so that each of the shell's
  // Cartesian functions has unit norm.
  std::vector<double> coefficients;
};

struct MolecularBasis {
  std::vector<PlacedShell> shells;  // atom by atom, each in the basis file's order
  int functions = 0;

  int max_l() const;
};

// The coefficients, shared by every Cartesian component of a shell of angular momentum l, that
// make its x^l e^{-a r^2} component unit-normalised: primitive norms (2a/pi)^{3/4} (4a)^{l/2} /
// sqrt((2l-1)!!), then the contraction's own norm. (A d shell's xy, xz and yz components then
// have self-overlap 1/3: the SCF's energies do not depend on the functions' scale.) Throws
// InputError naming the shell `name` when the contraction has no norm (its primitives cancel, or
// its coefficients are so small that the norm underflows).
std::vector<double> normalised_coefficients(int l, const std::vector<double>& exponents,
                                            const std::vector<double>& coefficients,
                                            const std::string& name = "a basis shell");

// Places `basis` on every atom of `molecule`. The caller has checked that the basis covers each
// element (missing_element_problem) and has no shells above p (unsupported_shell_problem).
MolecularBasis place_basis(const BasisSet& basis, const Molecule& molecule);

}  // namespace kmini::hf
