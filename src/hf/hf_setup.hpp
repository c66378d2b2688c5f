// The hf app's parameters, and the problem they describe, checked: every bad input (an unknown
// element, a basis that lacks one, shells above d, an odd electron count, atoms too close, a
// malformed file) is rejected here, before anything runs, naming the key that holds it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/param.hpp"
#include "core/params.hpp"
#include "hf/basis/basis_set.hpp"
#include "hf/basis/molecule.hpp"
#include "hf/fock/incremental_g.hpp"
#include "hf/fock/j_engine.hpp"
#include "hf/fock/symmetric_rank_sum.hpp"
#include "hf/scf/function_transform.hpp"
#include "hf/screening/quartet_screen.hpp"

namespace kmini::hf {

enum class Guess { sad, core };
enum class Contractions { as_given, optimized };
// How G is built: fused, J and K from one pass over the quartets' ERIs; split, J by the J engine
// (fock/j_engine.hpp) and K by the quartets that its exchange updates need.
enum class FockAlgorithm { fused, split };
// fock_algorithm auto: split from this many atoms up, fused below. Split gains with the
// molecule's extent: pairs of pairs far apart, which fused computes whole for J, are the J
// engine's cheap interactions. Where it overtook fused on water clusters in every basis:
// docs/notes/hf-j-engine.md.
constexpr int kSplitFromAtoms = 256;
FockAlgorithm automatic_fock_algorithm(int atoms);
// How the ranks' shares of the quartets are cut (screening/quartet_plan.hpp): estimate, by the
// Schwarz candidates' primitive products, once; measured, anew after each full build at the full
// threshold, into equal counts of the quartets that build kept.
enum class RankBalance { estimate, measured };

// A point's problem as its parameters state it (setup_of): the defaults are the parameters'
// (hf_params), and nothing here assumes one.
struct HfSetup {
  Molecule molecule;
  BasisSet basis;
  std::string basis_file;
  Contractions contractions;
  // contractions: optimized: the primitives each element's shells lost (remove_shared_primitives
  // and recombine_shared_contractions).
  std::map<int, int> primitives_removed_of_element;
  Functions functions;  // resolved: auto is the basis family's convention
  Guess guess;
  int max_iterations;
  double energy_convergence;
  double commutator_convergence;
  Screening screening;
  double screening_threshold;
  bool primitive_screening;
  FockBuild fock_build;
  FockAlgorithm fock_algorithm;   // resolved: auto is automatic_fock_algorithm's
  bool fock_algorithm_automatic;  // whether fock_algorithm was auto
  int j_ket_lanes;                // JEngineSettings::ket_lanes
  std::int64_t j_ket_tile_bytes;  // JEngineSettings::ket_tile_bytes
  // JEngineSettings::row_pairs; std::nullopt: once, but both ways for a variant whose G is
  // deterministic.
  std::optional<JRowPairs> j_row_pairs;
  FarFieldSettings j_far_field;  // JEngineSettings::far_field
  int full_rebuild_every;
  double batch_bytes;
  RankSumTransport g_sum_transport;
  RankBalance rank_balance;
  std::optional<double> reference_energy;
  double energy_tolerance;
};

std::vector<ParamSpec> hf_params();

// The basis sets kmini ships, by name (inputs/basis/NAME.gbs).
std::vector<std::string> shipped_basis_sets();

// The convention a basis set of this name is defined in: spherical for the correlation-consistent
// sets (cc-..., aug-cc-...), Cartesian for the others (the Pople sets, STO-3G).
Functions family_functions(const std::string& basis_name);

// The point's problem: the molecule and the basis read and checked, once per point
// (Params::parsed); throws InputError through Params::reject.
const HfSetup& setup_of(const Params& params);

void check_hf(const Params& params);

// Refuses g_sum_transport: cuda_ipc on a build without CUDA, on one rank too (where no sum runs,
// the input would fail on more): `kmini check` and the run's memory gate alike.
void check_g_sum_transport(const Params& params);

}  // namespace kmini::hf
