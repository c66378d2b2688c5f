// One-electron integrals over contracted s, p and d shells: overlap, kinetic energy and nuclear
// attraction, by Obara-Saika recursions. They cost O(N^2) against the ERIs' O(N^4), so they run
// on the host.
#pragma once

#include <vector>

#include <Kokkos_Core.hpp>

#include "hf/basis/gaussian_shell.hpp"
#include "hf/basis/molecular_basis.hpp"
#include "hf/integrals/boys.hpp"

namespace kmini::hf {

using HostMatrix = Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace>;

// <a|b>, <a|-1/2 nabla^2|b> and <a|-sum_C q_C/|r-C||b> of two shells, each na x nb row-major.
void one_electron_blocks(const PlacedShell& a, const PlacedShell& b,
                         const std::vector<PointCharge>& charges,
                         const BoysTable<Kokkos::HostSpace>& boys, double* overlap, double* kinetic,
                         double* nuclear);

struct OneElectronMatrices {
  HostMatrix overlap, kinetic, nuclear;
};

// The three matrices over the whole basis, the nuclei being the charges.
OneElectronMatrices one_electron_matrices(const MolecularBasis& basis,
                                          const std::vector<PointCharge>& nuclei);

}  // namespace kmini::hf
