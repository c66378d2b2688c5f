// The symmetric eigenproblem on the host, through LAPACK's dsyev: the SCF's and the atomic
// guess's orbital solves. The matrices are small next to the G build (n^3 against n^4), so they
// stay on the host.
#pragma once

#include <vector>

#include <Kokkos_Core.hpp>

namespace kmini::hf {

// Eigenvalues in ascending order; `a` is overwritten by the eigenvectors, one per column.
// Throws RuntimeFailure when LAPACK reports an error.
std::vector<double> symmetric_eigen(
    Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace>& a);

}  // namespace kmini::hf
