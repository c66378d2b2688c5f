// Restricted Hartree-Fock self-consistent field: a given or core-Hamiltonian guess, symmetric
// orthogonalisation S^{-1/2}, DIIS on the commutator FDS - SDF, and convergence on both the
// energy change and the commutator. Matrix products run where the matrices live (cuBLAS on CUDA
// builds, the host BLAS otherwise), and so do the symmetric eigenproblems (cuSOLVER on CUDA
// builds, LAPACK on the host otherwise).
#pragma once

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "hf/fock/g_build.hpp"
#include "hf/integrals/one_electron.hpp"

namespace kmini::hf {

struct ScfSettings {
  int max_iterations = 50;
  double energy_convergence = 1e-9;      // |E_k - E_{k-1}|, hartree
  double commutator_convergence = 1e-6;  // max |X^T (FDS - SDF) X|
  int diis_vectors = 8;
};

struct ScfIteration {
  double energy = 0.0;  // total, hartree
  double commutator = 0.0;
  double g_seconds = 0.0;  // the G build of this iteration
};

struct ScfResult {
  bool converged = false;
  double energy = 0.0;  // total, with the nuclear repulsion
  std::vector<ScfIteration> history;
  double smallest_overlap_eigenvalue = 0.0;
  Matrix<DeviceMemory> density;  // the converged one (the latest iterate when not converged)
};

// |E_k - E_{k-1}| over the last two iterations; infinite after one.
inline double last_energy_change(const ScfResult& r) {
  const std::size_t n = r.history.size();
  return n > 1 ? std::fabs(r.history[n - 1].energy - r.history[n - 2].energy) : INFINITY;
}

// G(D) into g: the whole G, summed over ranks.
using GBuild =
    std::function<void(const Matrix<DeviceMemory>& density, const Matrix<DeviceMemory>& g)>;

// Whether a condition holds on every rank, so that all ranks stop at the same iteration.
using AllRanks = std::function<bool(bool)>;

// Starts from `initial_density` (D = 2 C_occ C_occ^T convention), or from the core
// Hamiltonian's orbitals when it is empty. Throws InputError when the basis is numerically
// linearly dependent (S nearly singular).
ScfResult run_scf(const OneElectronMatrices& one_electron, int occupied, double nuclear_repulsion,
                  const ScfSettings& settings, const HostMatrix& initial_density,
                  const GBuild& build_g, const AllRanks& all_ranks);

}  // namespace kmini::hf
