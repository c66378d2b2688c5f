#include "hf/basis/molecular_basis.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/error.hpp"
#include "hf/basis/basis_set.hpp"
#include "hf/basis/cartesian.hpp"

namespace kmini::hf {

namespace {

constexpr double kPi = 3.14159265358979323846;

}  // namespace

int MolecularBasis::max_l() const {
  int l = -1;
  for (const auto& shell : shells)
    l = std::max(l, shell.l);
  return l;
}

std::vector<double> normalised_coefficients(int l, const std::vector<double>& exponents,
                                            const std::vector<double>& coefficients,
                                            const std::string& name) {
  if (l < 0 || l > kMaxShellL)
    throw std::logic_error("normalised_coefficients: only s, p and d shells");
  // <x^l e^{-a r^2} | x^l e^{-b r^2}> = (pi/(a+b))^{3/2} (2l-1)!! / (2(a+b))^l.
  double double_factorial = 1.0;
  for (int k = 2 * l - 1; k > 1; k -= 2)
    double_factorial *= k;
  std::vector<double> scaled(coefficients.size());
  for (std::size_t k = 0; k < exponents.size(); ++k) {
    const double a = exponents[k];
    scaled[k] = coefficients[k] * std::pow(2.0 * a / kPi, 0.75) * std::pow(4.0 * a, 0.5 * l) /
                std::sqrt(double_factorial);
  }
  double norm2 = 0.0;
  for (std::size_t i = 0; i < exponents.size(); ++i) {
    for (std::size_t j = 0; j < exponents.size(); ++j) {
      const double sum = exponents[i] + exponents[j];
      norm2 += scaled[i] * scaled[j] * std::pow(kPi / sum, 1.5) * double_factorial /
               std::pow(2.0 * sum, l);
    }
  }
  if (!(norm2 > 0.0))
    throw InputError(name +
                     " has no norm: its primitives cancel (one exponent given twice with opposite "
                     "coefficients?) or its coefficients are too small for a norm in doubles");
  for (double& c : scaled)
    c /= std::sqrt(norm2);
  return scaled;
}

MolecularBasis place_basis(const BasisSet& basis, const Molecule& molecule) {
  MolecularBasis placed;
  for (std::size_t atom = 0; atom < molecule.atoms.size(); ++atom) {
    const Atom& at = molecule.atoms[atom];
    for (const Shell& shell : basis.shells_of_element.at(at.atomic_number)) {
      PlacedShell s;
      s.l = shell.l;
      s.atom = static_cast<int>(atom);
      s.center = {at.x, at.y, at.z};
      s.first_function = placed.functions;
      s.exponents = shell.exponents;
      s.coefficients = normalised_coefficients(shell.l, shell.exponents, shell.coefficients,
                                               shell_name(basis, at.atomic_number, shell));
      placed.functions += cartesian_functions(shell.l);
      placed.shells.push_back(std::move(s));
    }
  }
  return placed;
}

}  // namespace kmini::hf
