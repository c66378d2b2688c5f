// What the G build's and the J engine's tests build from: two waters, a random density, and
// the whole ERI tensor of the production integrals (hf/integrals/integrals_host.hpp), from which
// a test sums G or J function by function, how far two matrices are apart, and matrices to and
// from the device.
#pragma once

#include <random>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>

#include "hf/basis/molecular_basis.hpp"
#include "hf/screening/quartet_screen.hpp"

namespace kmini::testing {

// Two waters 3 angstrom apart in the basis of inputs/basis/`basis_file`: every class of its
// shells, and pairs between the molecules that Schwarz and density screening drop at loose
// thresholds.
hf::MolecularBasis two_waters(const std::string& basis_file = "6-31g.gbs");

// A symmetric density whose elements' magnitudes spread over `decades` decades below 1.
std::vector<double> random_density(int n, double decades, std::mt19937_64& rng);

// (ij|kl) for every four functions, each canonical pair's block placed at its 8 permutations.
std::vector<double> eri_tensor(const hf::MolecularBasis& basis);

// From the tensor and a density (n x n, row-major): J_ij = sum_kl D_kl (ij|kl), and
// G_ij = sum_kl D_kl ((ij|kl) - (ik|jl) / 2).
std::vector<double> reference_j(const std::vector<double>& eri, const std::vector<double>& d,
                                int n);
std::vector<double> reference_g(const std::vector<double>& eri, const std::vector<double>& d,
                                int n);

// max |a_k - b_k|.
double largest_difference(const std::vector<double>& a, const std::vector<double>& b);

// An n x n matrix (row-major values) in the default execution space's memory, and its values back.
using DeviceMatrix = hf::Matrix<Kokkos::DefaultExecutionSpace::memory_space>;
DeviceMatrix device_matrix(const std::vector<double>& values, int n);
std::vector<double> matrix_values(const DeviceMatrix& m);

}  // namespace kmini::testing
