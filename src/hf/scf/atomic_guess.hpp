// The superposition-of-atomic-densities (SAD) starting density: each element's own SCF, in the
// molecule's basis, placed on the diagonal blocks of every atom of that element. For large
// clusters in split-valence bases the core-Hamiltonian guess puts the electrons on the wrong
// atoms and DIIS can wander for good; the atoms' densities start next to the answer.
#pragma once

#include <vector>

#include "hf/basis/basis_set.hpp"
#include "hf/basis/molecular_basis.hpp"
#include "hf/basis/molecule.hpp"
#include "hf/integrals/one_electron.hpp"

namespace kmini::hf {

// A neutral atom's spherically averaged density in `shells` (its basis, centred at the origin):
// a restricted SCF with the electrons of each set of degenerate orbitals shared evenly among
// them (aufbau, fractional occupations), D = sum_i n_i C_i C_i^T with n_i <= 2, so that
// trace(D S) = atomic_number.
HostMatrix atomic_density(int atomic_number, const std::vector<Shell>& shells);

// The block-diagonal molecular density from each atom's atomic_density; trace(D S) is the sum of
// the atomic numbers whatever the charge, and the first Fock matrix's orbitals take the charge.
HostMatrix superposed_atomic_densities(const BasisSet& basis, const Molecule& molecule,
                                       const MolecularBasis& placed);

}  // namespace kmini::hf
