// The hf app's parameters, and the problem they describe, checked: every bad input (an unknown
// element, a basis that lacks one, d shells, an odd electron count, atoms too close, a malformed
// file) is rejected here, before anything runs, naming the key that holds it.
#pragma once

#include <string>
#include <vector>

#include "core/param.hpp"
#include "core/params.hpp"
#include "hf/basis_set.hpp"
#include "hf/incremental_g.hpp"
#include "hf/molecule.hpp"
#include "hf/quartet_screen.hpp"

namespace kmini::hf {

enum class Guess { sad, core };

struct HfSetup {
  Molecule molecule;
  BasisSet basis;
  std::string basis_file;
  Guess guess = Guess::sad;
  int max_iterations = 50;
  double energy_convergence = 1e-9;
  double commutator_convergence = 1e-6;
  Screening screening = Screening::density;
  double screening_threshold = 1e-12;
  bool primitive_screening = true;
  FockBuild fock_build = FockBuild::incremental;
  int full_rebuild_every = 8;
  double batch_bytes = 0.0;
  bool has_reference = false;
  double reference_energy = 0.0;
  double energy_tolerance = 1e-6;
};

std::vector<ParamSpec> hf_params();

// The basis sets kmini ships, by name (inputs/basis/NAME.gbs).
std::vector<std::string> shipped_basis_sets();

// Reads and checks the molecule and the basis; throws InputError through Params::reject.
HfSetup setup_of(const Params& params);

void check_hf(const Params& params);

}  // namespace kmini::hf
