// A basis whose functions are, to rounding, combinations of one another (a shell given twice,
// exponents too close): the overlap matrix S is then singular, S^{-1/2} does not exist and the
// SCF cannot start. `kmini check` finds it on the host, before anything runs; the SCF tests
// the same bound on its own S^{-1/2} for the bases too large to check.
#pragma once

#include <string>

#include "hf/basis/molecular_basis.hpp"

namespace kmini::hf {

// Below this, the overlap matrix's smallest eigenvalue means a linearly dependent basis.
constexpr double kLinearDependence = 1e-10;

// The largest basis `kmini check` tests: the overlap takes n^2 work and its eigenvalues n^3 on one
// host thread, for every point of every run checked (and the fuzz test checks thousands of
// mutated inputs, under the sanitizers too); 500 functions cover the shipped clusters up to 32
// waters in 6-31G and 64 in STO-3G.
constexpr int kMostFunctionsChecked = 500;

// Why a basis whose overlap matrix has this smallest eigenvalue cannot be used; "" if it can.
std::string linear_dependence_problem(double smallest_overlap_eigenvalue);

// The smallest eigenvalue of the basis's overlap matrix, with no Kokkos (kmini check starts
// none): the shell blocks on the host, LAPACK's dsyevd for the eigenvalues.
double smallest_overlap_eigenvalue(const MolecularBasis& basis);

}  // namespace kmini::hf
