// Symmetric eigenproblems: the SCF's orbital solves and its S^{-1/2}, and the atomic guess's.
// On CUDA builds the SCF's solves run on the device through cuSOLVER's syevd (at 832 functions
// the host's LAPACK took longer than the G build); elsewhere, and for the atoms' small host
// matrices, LAPACK's dsyevd on the host.
#pragma once

#include <memory>
#include <vector>

#include <Kokkos_Core.hpp>

namespace kmini::hf {

using HostSquare = Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace>;
using DeviceSquare =
    Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::DefaultExecutionSpace::memory_space>;

// Eigenvalues in ascending order; `a` is overwritten by the eigenvectors, one per column.
// Throws RuntimeFailure when LAPACK reports an error.
std::vector<double> symmetric_eigen(HostSquare& a);

// The eigenvalues alone, ascending, of the n x n matrix `a` (column-major, overwritten), with
// no Kokkos: for `kmini check`, which starts none.
std::vector<double> symmetric_eigenvalues(std::vector<double>& a, int n);

// Solves n x n problems where the matrices live (the default memory space), reusing its
// workspace from one solve to the next.
class SymmetricEigenSolver {
 public:
  explicit SymmetricEigenSolver(int n);
  ~SymmetricEigenSolver();
  SymmetricEigenSolver(const SymmetricEigenSolver&) = delete;
  SymmetricEigenSolver& operator=(const SymmetricEigenSolver&) = delete;

  // As symmetric_eigen, for a matrix in device memory. Throws RuntimeFailure on a solver error.
  std::vector<double> solve(const DeviceSquare& a);

  // "cuSOLVER syevd (device)" or "LAPACK dsyevd (host)", for the report.
  static const char* method();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kmini::hf
