#include "hf/hf_setup.hpp"

#include <algorithm>
#include <cmath>

#include "core/choice.hpp"
#include "core/cuda_ipc.hpp"
#include "core/data_files.hpp"
#include "core/error.hpp"
#include "core/text.hpp"
#include "hf/basis/cartesian.hpp"
#include "hf/basis/molecular_basis.hpp"
#include "hf/basis/shared_primitives.hpp"
#include "hf/hf_variants.hpp"
#include "hf/scf/linear_dependence.hpp"

namespace kmini::hf {

namespace {

// The app's words and the values they stand for.
struct HfChoices {
  Choice<Units> units{"units", {{"angstrom", Units::angstrom}, {"bohr", Units::bohr}}};
  Choice<Guess> guess{"guess", {{"sad", Guess::sad}, {"core", Guess::core}}};
  Choice<Contractions> contractions{
      "contractions",
      {{"optimized", Contractions::optimized}, {"as_given", Contractions::as_given}}};
  // std::nullopt: the basis family's own convention.
  Choice<std::optional<Functions>> functions{"functions",
                                             {{"auto", std::nullopt},
                                              {"cartesian", Functions::cartesian},
                                              {"spherical", Functions::spherical}}};
  Choice<Screening> screening{"screening",
                              {{"schwarz", Screening::schwarz}, {"density", Screening::density}}};
  Choice<FockBuild> fock_build{
      "fock_build", {{"full", FockBuild::full}, {"incremental", FockBuild::incremental}}};
  // std::nullopt: automatic_fock_algorithm's choice for the molecule.
  Choice<std::optional<FockAlgorithm>> fock_algorithm{
      "fock_algorithm",
      {{"auto", std::nullopt}, {"fused", FockAlgorithm::fused}, {"split", FockAlgorithm::split}}};
  Choice<std::optional<JRowPairs>> j_row_pairs{
      "j_row_pairs",
      {{"auto", std::nullopt}, {"both_ways", JRowPairs::both_ways}, {"once", JRowPairs::once}}};
  Choice<RankSumTransport> g_sum_transport{"g_sum_transport",
                                           {{"auto", RankSumTransport::automatic},
                                            {"mpi", RankSumTransport::mpi},
                                            {"cuda_ipc", RankSumTransport::cuda_ipc}}};
  Choice<RankBalance> rank_balance{
      "rank_balance", {{"measured", RankBalance::measured}, {"estimate", RankBalance::estimate}}};
};

const HfChoices& choices() {
  static const HfChoices words;
  return words;
}

}  // namespace

FockAlgorithm automatic_fock_algorithm(int atoms) {
  return atoms >= kSplitFromAtoms ? FockAlgorithm::split : FockAlgorithm::fused;
}

Functions family_functions(const std::string& basis_name) {
  for (const char* prefix : {"cc-", "aug-cc-"})
    if (same_ignoring_case(basis_name.substr(0, std::string(prefix).size()), prefix))
      return Functions::spherical;
  return Functions::cartesian;
}

std::vector<std::string> shipped_basis_sets() {
  return {"sto-3g", "6-31g", "6-31g*", "6-31g**", "cc-pvdz"};
}

// inputs/basis/FILE.gbs of a shipped set: each '*' of its name is "-star" in the file's.
std::string shipped_basis_file(const std::string& name) {
  std::string stem;
  for (const char c : name)
    stem += c == '*' ? std::string("-star") : std::string(1, c);
  return data_file("basis/" + stem + ".gbs");
}

std::vector<ParamSpec> hf_params() {
  const HfChoices& words = choices();
  return {
      ParamSpec::path("molecule",
                      "the molecule, an xyz file (this or atoms); relative paths are resolved "
                      "against the input file's folder"),
      ParamSpec::string_list("atoms", {}, {},
                             "the molecule inline instead of an xyz file: one 'Symbol x y z' per "
                             "item, coordinates in units"),
      ParamSpec::name_or_path("basis", "sto-3g", shipped_basis_sets(),
                              "a shipped basis set, by its name in any letter case "
                              "(inputs/basis/, a '*' written -star in the file's name), or a "
                              "Gaussian94 file; kmini's integrals take s, p, SP and d shells")
          .sweepable(),
      words.functions
          .param(std::nullopt,
                 "the SCF's d functions: cartesian, the six x^2, xy, .. of each d shell (6d); "
                 "spherical, the five real solid harmonics (5d); auto, the basis family's own: "
                 "spherical for the correlation-consistent sets (cc-pvdz, or a file whose name "
                 "starts with cc- or aug-cc-), cartesian for the others (6-31g*, 6-31g**). The "
                 "integrals are Cartesian either way; the metric spherical_functions says which "
                 "the SCF used")
          .sweepable(),
      words.contractions
          .param(Contractions::optimized,
                 "as_given: the basis file's contractions; optimized: a primitive that an "
                 "element also has as a shell of its own (one primitive, the same l) is left out "
                 "of the element's other contractions of that l, and contractions of one l "
                 "over the same primitives are recombined so that each needs fewer of them "
                 "(the combination whose functions cost least in the products the integrals "
                 "visit). The functions span the same space, so the energy is the same; "
                 "cc-pVDZ's oxygen 1s and 2s lose their most diffuse primitive, which is what "
                 "kept their quartets between atoms long, and then one primitive each, 1s its "
                 "last diffuse one (the metric primitives_removed counts them over the "
                 "molecule)")
          .sweepable(),
      // Bounded so that the electron count, held in an int, cannot wrap: 2^32 read as 0.
      ParamSpec::integer("charge", 0,
                         "the molecule's total charge, at most 1000 electrons added or taken "
                         "away; the electron count must be even")
          .range(-1000, 1000),
      words.units.param(Units::angstrom, "the units of the xyz file's coordinates"),
      words.guess.param(Guess::sad,
                        "the SCF's starting density: sad, the superposition of the atoms' own "
                        "densities (each element's spherically averaged SCF), or core, the core "
                        "Hamiltonian's orbitals (the seeds' guess; it fails to converge for large "
                        "clusters in 6-31G)"),
      words.screening
          .param(Screening::density,
                 "which quartets a G build skips: schwarz, those whose Schwarz bound "
                 "Q_ab Q_cd is below screening_threshold; density, those whose Q_ab Q_cd "
                 "times the largest density element the quartet couples (max |D| over "
                 "its shell blocks ab, cd, ac, bd, ad, bc) is below it, taken afresh from "
                 "each build's density, and of the others the exchange updates where the "
                 "same bound over ac, bd, ad, bc alone is")
          .sweepable(),
      ParamSpec::real("screening_threshold", 1e-12,
                      "the bound below which a quartet is skipped (see screening). With density "
                      "screening and incremental builds, the energies of every shipped cluster "
                      "were within 7e-10 Eh of schwarz at 1e-12 with full builds at the default "
                      "(1e-12), and within 7.6e-9 Eh at 1e-11 (128 waters in 6-31G; H100, "
                      "2026-11-25); skipping the exchange updates moved them by under 2e-11 Eh "
                      "(64 waters in 6-31G* and cc-pVDZ, 128 in 6-31G; H100, 2026-11-26); "
                      "screening the late changes at a hundredth of the threshold, not a "
                      "thousandth, by at most 1e-10 Eh (32 to 128 waters in 6-31G, 6-31G* "
                      "and cc-pVDZ; H100, 2026-11-27). At most 1e-8: one water never converged "
                      "in cc-pVDZ at 1e-6, nor in 6-31G* at 3e-7, and converges in every shipped "
                      "basis from 1e-7 down")
          .range_above(0.0, 1e-8)
          .sweepable(),
      ParamSpec::boolean("primitive_screening", true,
                         "within a kept quartet, leave out the primitive quartets whose bounds "
                         "together stay under a tenth of the screening threshold (over the "
                         "largest density element it couples, with density screening): the "
                         "pairs' products are ordered by bound, so the contraction loops stop "
                         "early"),
      words.fock_build
          .param(FockBuild::incremental,
                 "full: every SCF iteration builds G from its whole density; incremental: "
                 "G(D_n) = G(D_n-1) + G(D_n - D_n-1), the change screened on its own "
                 "(with screening: density, ever fewer quartets as the SCF converges): "
                 "looser while it is 1e-3 of the density or more (by its relative size "
                 "over 1e-4, at most 1000 times the threshold and never looser than 1e-9), then "
                 "after a full build at a hundredth of the threshold; and a full build "
                 "every full_rebuild_every iterations after the last")
          .sweepable(),
      words.fock_algorithm
          .param(std::nullopt,
                 "fused: each quartet's ERIs make both its Coulomb and its exchange updates; "
                 "split: J by a J engine (McMurchie-Davidson, the density contracted into each "
                 "ket product's Hermite expansion first, every pair of pairs exact, on the "
                 "default execution space whatever the variant), and K by the quartets whose "
                 "exchange updates the screen keeps, made by the variant's update; "
                 "auto: split from " +
                     std::to_string(kSplitFromAtoms) +
                     " atoms up, fused below (the metric fock_algorithm_split says which ran)")
          .sweepable(),
      ParamSpec::integer(
          "j_ket_lanes", 0,
          "fock_algorithm split: the threads that share out one bra row's ket "
          "rows in the J engine, a power of two up to 32 (several bra rows to a "
          "warp below 32); 0: on a GPU 4 for bra rows of Hermite degree 0 and 8 above, "
          "one on the host")
          .range(0, 32)
          .sweepable(),
      ParamSpec::integer(
          "j_ket_tile_megabytes", 0,
          "fock_algorithm split: the J engine walks its ket rows in tiles of at most this many "
          "MiB (their rows and, visited once, their potentials), every bra row over one tile "
          "before the next, so that the tile could stay in a GPU's L2 cache; 0: the whole table "
          "at once")
          .range(0, 1 << 20)
          .sweepable(),
      ParamSpec::integer(
          "j_far_field_order", 0,
          "fock_algorithm split: the J engine's pairs of Hermite rows in boxes far apart interact "
          "through multipole expansions about the boxes' centres, every term up to this total "
          "degree in the two rows' offsets kept; 0: no far field, every pair exact (the far field "
          "was slower than that on an H200 so far: docs/notes/hf-j-engine.md)")
          .range(0, FarFieldSettings::kMostOrder)
          .sweepable(),
      ParamSpec::real("j_far_field_box_bohr", 8.0,
                      "j_far_field_order > 0: the side of the far field's cubic boxes, bohr")
          .range(1.0, 100.0)
          .sweepable(),
      ParamSpec::integer(
          "j_far_field_separation", 2,
          "j_far_field_order > 0: two boxes interact through the far field where their indices "
          "differ by more than this along some axis; a row takes part where its exponent makes "
          "every such pair's interaction a point multipole's to rounding (zeta at least "
          "2 x 57.75 / (separation x box)^2), the others stay exact")
          .range(1, 8)
          .sweepable(),
      words.j_row_pairs
          .param(std::nullopt,
                 "fock_algorithm split: how the J engine visits each pair of Hermite rows: "
                 "both_ways, each row's potential summed from its own side (no atomics, J the "
                 "same bit for bit every build); once, each pair of rows of two Hermite degrees "
                 "from the side of the higher, the other row's potential added with atomics "
                 "(rows of one degree both ways still); "
                 "auto: once, but both_ways for kernel_split, whose G is bitwise reproducible")
          .sweepable(),
      ParamSpec::integer("full_rebuild_every", 8,
                         "incremental builds: G is built from the whole density this many "
                         "builds after the last full one at the latest (1: every iteration, "
                         "as full)")
          .at_least(1),
      ParamSpec::integer("max_iterations", 50,
                         "SCF iterations before giving up (exit 3, with how far it got)")
          .range(1, 10000),
      ParamSpec::real("convergence", 1e-9,
                      "converged when the energy changes by less than this (hartree) and the "
                      "commutator is below commutator_convergence")
          .range(1e-14, 1e-2),
      ParamSpec::real("commutator_convergence", 1e-6,
                      "the largest element of the orthogonalised commutator X^T(FDS - SDF)X "
                      "allowed at convergence")
          .range(1e-12, 1e-1),
      ParamSpec::real("reference_energy", 0.0,
                      "a published total energy (hartree) the result is validated against")
          .optional(),
      ParamSpec::real("energy_tolerance", 1e-6,
                      "largest |energy - reference_energy| that passes, hartree")
          .range(1e-12, 1.0),
      ParamSpec::integer("batch_megabytes", 1024,
                         "bounds the integral buffer of kernel_split and host_update; quartets "
                         "are processed in batches that fit")
          .range(1, 1 << 20),
      words.g_sum_transport
          .param(RankSumTransport::automatic,
                 "how the ranks' shares of G are summed after each build (their lower "
                 "triangles): mpi, through the host and MPI_Allreduce; cuda_ipc: the GPUs read "
                 "one another's shares in kernels (CUDA, every rank on one node, GPUs with peer "
                 "access to one another: NVLink, or PCIe with P2P), each summing a slice of "
                 "every share and then gathering the others' slices, MPI only signalling; auto: "
                 "cuda_ipc where it can be had, else mpi (the report's g_sum_cuda_ipc says which)")
          .sweepable(),
      words.rank_balance
          .param(RankBalance::measured,
                 "how each quartet class's bras are cut into the ranks' stripes: estimate, "
                 "stripes of equal Schwarz candidates weighted by their primitive products, "
                 "for every build; measured: cut anew after each SCF build from the whole "
                 "density at the full threshold, into stripes of equal counts of the quartets "
                 "that build kept (rank_share_recuts counts the cuts; "
                 "rank_quartets_computed_min and _max show the balance)")
          .sweepable(),
  };
}

namespace {

HfSetup read_setup(const Params& params) {
  const bool inline_atoms = params.given("atoms");
  const char* molecule_key = inline_atoms ? "atoms" : "molecule";
  if (inline_atoms && params.has("molecule"))
    params.reject("atoms", "give the molecule once: atoms or molecule, not both");
  if (!inline_atoms && !params.has("molecule"))
    params.reject("molecule",
                  "the hf app needs a molecule: an xyz file (molecule) or 'Symbol x y z' items "
                  "(atoms)");
  HfSetup setup;
  const Units units = choices().units.of(params);
  try {
    setup.molecule = inline_atoms ? molecule_from_atoms(params.strings("atoms"), units)
                                  : read_xyz(params.string("molecule"), units);
  } catch (const InputError& e) {
    params.reject(molecule_key, e.what());
  }
  setup.molecule.charge = static_cast<int>(params.integer("charge"));
  if (const std::string problem = molecule_problem(setup.molecule); !problem.empty()) {
    const bool charge_at_fault =
        params.given("charge") && problem.find("electron") != std::string::npos;
    params.reject(charge_at_fault ? "charge" : molecule_key, problem);
  }

  const std::string& basis = params.string("basis");
  setup.basis_file = basis;
  try {
    bool shipped = false;
    for (const auto& name : shipped_basis_sets())
      if (basis == name) {
        setup.basis_file = shipped_basis_file(name);
        shipped = true;
      }
    setup.basis = read_gaussian94(setup.basis_file);
    if (shipped) setup.basis.name = basis;  // "6-31g*", not its file's "6-31g-star"
    setup.contractions = choices().contractions.of(params);
    if (setup.contractions == Contractions::optimized) {
      setup.primitives_removed_of_element = remove_shared_primitives(setup.basis);
      for (const auto& [z, lost] : recombine_shared_contractions(setup.basis))
        setup.primitives_removed_of_element[z] += lost;
    }
  } catch (const InputError& e) {
    params.reject("basis", e.what());
  }
  std::vector<int> elements;
  for (const Atom& atom : setup.molecule.atoms)
    elements.push_back(atom.atomic_number);
  if (const std::string problem = missing_element_problem(setup.basis, elements); !problem.empty())
    params.reject("basis", problem);
  if (const std::string problem = unsupported_shell_problem(setup.basis, elements, kMaxShellL);
      !problem.empty())
    params.reject("basis", problem + "; kmini's integrals cover s, p and d shells");
  setup.functions = choices().functions.of(params).value_or(family_functions(setup.basis.name));

  int functions = 0;
  for (const Atom& atom : setup.molecule.atoms)
    for (const Shell& shell : setup.basis.shells_of_element.at(atom.atomic_number))
      functions += functions_of_shell(shell.l, setup.functions);
  // Extra electrons (a negative charge) that the basis cannot hold are the charge's fault.
  const bool extra_electrons = params.given("charge") && setup.molecule.charge < 0;
  if (2 * functions < setup.molecule.electrons())
    params.reject(extra_electrons ? "charge" : "basis",
                  "the basis has " + std::to_string(functions) +
                      " functions on this molecule, too few for its " +
                      std::to_string(setup.molecule.electrons() / 2) + " doubly occupied orbitals");
  setup.guess = choices().guess.of(params);
  setup.max_iterations = static_cast<int>(params.integer("max_iterations"));
  setup.energy_convergence = params.real("convergence");
  setup.commutator_convergence = params.real("commutator_convergence");
  setup.screening = choices().screening.of(params);
  setup.screening_threshold = params.real("screening_threshold");
  setup.primitive_screening = params.boolean("primitive_screening");
  setup.fock_build = choices().fock_build.of(params);
  const std::optional<FockAlgorithm> fock_algorithm = choices().fock_algorithm.of(params);
  setup.fock_algorithm_automatic = !fock_algorithm.has_value();
  setup.fock_algorithm = fock_algorithm.value_or(
      automatic_fock_algorithm(static_cast<int>(setup.molecule.atoms.size())));
  setup.j_ket_lanes = static_cast<int>(params.integer("j_ket_lanes"));
  if (setup.j_ket_lanes > 0 && (setup.j_ket_lanes & (setup.j_ket_lanes - 1)) != 0)
    params.reject("j_ket_lanes", "must be 0 (the default) or a power of two: 1, 2, 4, 8, 16 or 32");
  setup.j_ket_tile_bytes = params.integer("j_ket_tile_megabytes") << 20;
  setup.j_row_pairs = choices().j_row_pairs.of(params);
  setup.j_far_field.order = static_cast<int>(params.integer("j_far_field_order"));
  setup.j_far_field.box_bohr = params.real("j_far_field_box_bohr");
  setup.j_far_field.separation = static_cast<int>(params.integer("j_far_field_separation"));
  if (setup.j_far_field.order > 0) {
    // The rows' centres lie among the atoms': their extent bounds the far field's grid.
    double extent = 0.0;
    for (const auto axis : {&Atom::x, &Atom::y, &Atom::z}) {
      double low = 0.0, high = 0.0;
      for (std::size_t i = 0; i < setup.molecule.atoms.size(); ++i) {
        const double v = setup.molecule.atoms[i].*axis;
        low = i == 0 ? v : std::min(low, v);
        high = i == 0 ? v : std::max(high, v);
      }
      extent = std::max(extent, high - low);
    }
    const int most = FarFieldSettings::kMostBoxesPerAxis;
    if (std::floor(extent / setup.j_far_field.box_bohr) + 1 > most)
      params.reject("j_far_field_box_bohr",
                    "this molecule spans " + format_significant(extent, 4) + " bohr, more than " +
                        std::to_string(most) + " boxes of " +
                        format_number(setup.j_far_field.box_bohr) +
                        " bohr along an axis; take boxes of at least " +
                        format_significant(extent / (most - 1), 3) + " bohr");
  }
  setup.full_rebuild_every = static_cast<int>(params.integer("full_rebuild_every"));
  setup.batch_bytes = static_cast<double>(params.integer("batch_megabytes")) * 1048576.0;
  setup.g_sum_transport = choices().g_sum_transport.of(params);
  setup.rank_balance = choices().rank_balance.of(params);
  if (params.has("reference_energy")) setup.reference_energy = params.real("reference_energy");
  setup.energy_tolerance = params.real("energy_tolerance");
  return setup;
}

}  // namespace

const HfSetup& setup_of(const Params& params) {
  return params.parsed<HfSetup>(read_setup);
}

void check_g_sum_transport(const Params& params) {
  if (setup_of(params).g_sum_transport == RankSumTransport::cuda_ipc && !cuda_ipc_built()) {
    params.reject("g_sum_transport",
                  "cuda_ipc needs the CUDA backend, which this build lacks; use auto or mpi");
  }
}

void check_hf(const Params& params) {
  const HfSetup& setup = setup_of(params);
  check_g_sum_transport(params);
  if (setup.fock_algorithm == FockAlgorithm::split && setup.j_row_pairs == JRowPairs::once &&
      params.selects_any([](const VariantSpec& v) {
        const GBuildChoice update = variant_table().action(v);
        return update != nullptr && update->action.deterministic;
      })) {
    params.reject("j_row_pairs",
                  "once adds with atomics, and kernel_split's G is bitwise reproducible; give "
                  "auto (both_ways for kernel_split) or both_ways, or leave kernel_split out");
  }
  MolecularBasis basis;
  try {
    basis = place_basis(setup.basis, setup.molecule);
  } catch (const InputError& e) {
    params.reject("basis", e.what());
  }
  if (basis.functions > kMostFunctionsChecked) return;  // the SCF finds it at its start
  const std::string problem = linear_dependence_problem(smallest_overlap_eigenvalue(basis));
  if (!problem.empty()) params.reject("basis", problem);
}

}  // namespace kmini::hf
