// A basis whose functions are, to rounding, combinations of one another (a shell given twice,
// exponents too close): the overlap matrix S is then singular, S^{-1/2} does not exist and the
// SCF cannot start. `kmini check` finds it on the host, before anything runs; the SCF tests
// the same bound on its own S^{-1/2} for the bases too large to check.
#pragma once

#include <string>

#include "hf/molecular_basis.hpp"

namespace kmini::hf {

// Below this, the overlap matrix's smallest eigenvalue means a linearly dependent basis.
constexpr double kLinearDependence = 1e-10;

// The largest basis `kmini check` tests: its eigenvalues take n^3 work on one host thread
// (a few seconds at 2000 functions).
constexpr int kMostFunctionsChecked = 2000;

// Why a basis whose overlap matrix has this smallest eigenvalue cannot be used; "" if it can.
std::string linear_dependence_problem(double smallest_overlap_eigenvalue);

// The smallest eigenvalue of the basis's overlap matrix, with no Kokkos (kmini check starts
// none): the shell blocks on the host, LAPACK's dsyev for the eigenvalues.
double smallest_overlap_eigenvalue(const MolecularBasis& basis);

}  // namespace kmini::hf
