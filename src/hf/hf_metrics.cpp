// HfCase's metrics, by topic, in the order the report lists them.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "hf/hf_case.hpp"
#include "hf/integrals/eri.hpp"
#include "hf/integrals/shell_pairs.hpp"
#include "hf/screening/quartet_plan.hpp"

namespace kmini::hf {

namespace {

// Over the molecule's atoms: the primitives contractions: optimized left out of their shells.
double primitives_removed(const HfSetup& setup) {
  double n = 0.0;
  for (const Atom& atom : setup.molecule.atoms) {
    const auto found = setup.primitives_removed_of_element.find(atom.atomic_number);
    if (found != setup.primitives_removed_of_element.end()) n += found->second;
  }
  return n;
}

}  // namespace

std::vector<Metric> HfCase::metrics(const VariantSpec& variant) const {
  std::vector<Metric> out;
  add_scf_metrics(variant, out);
  add_repeated_build_metrics(out);
  add_setup_metrics(out);
  add_basis_metrics(out);
  if (comm_.size() > 1) add_rank_metrics(variant, out);
  if (setup_.screening == Screening::density) add_screening_metrics(variant, out);
  add_class_metrics(variant, out);
  if (variant.traits.meta) add_auto_metrics(out);
  // The integral buffer, where the variant uses one (auto's trials of kernel_split do).
  if (variant.traits.needs_buffer)
    out.push_back({"batch_megabytes", builder_->batch_capacity() * 8.0 / 1048576.0, "MiB"});
  return out;
}

// The SCF: its energy, its iterations, and its G builds one by one.
void HfCase::add_scf_metrics(const VariantSpec& variant, std::vector<Metric>& out) const {
  const ScfResult& r = results_.at(variant.index);
  const ScfTimes& times = scf_times_.at(variant.index);
  const QuartetPlan& plan = builder_->plan();
  std::vector<double> energies, g_seconds, computed, screened, full;
  for (const ScfIteration& step : r.history) {
    energies.push_back(step.energy);
    g_seconds.push_back(step.g_seconds);
  }
  double longest_launch = repeat_row_.longest_launch;
  for (const BuildRow& row : scf_builds_.at(variant.index)) {
    computed.push_back(row.computed);
    screened.push_back(plan.candidates - row.computed);
    full.push_back(row.full ? 1.0 : 0.0);
    longest_launch = std::max(longest_launch, row.longest_launch);
  }
  const double g_min = *std::min_element(g_seconds.begin(), g_seconds.end());
  const double g_max = *std::max_element(g_seconds.begin(), g_seconds.end());
  const double g_avg = std::accumulate(g_seconds.begin(), g_seconds.end(), 0.0) / g_seconds.size();
  const double last_change = last_energy_change(r);
  out.insert(out.end(),
             {
                 {"energy", r.energy, "hartree", energies},
                 {"nuclear_repulsion", setup_.molecule.nuclear_repulsion(), "hartree"},
                 {"scf_iterations", static_cast<double>(r.history.size()), ""},
                 {"scf_seconds", comm_.max(times.seconds), "s"},
                 {"scf_outside_g_seconds", comm_.max(times.outside_g),
                  "s, slowest rank: the SCF's time outside its G builds and their sums over "
                  "ranks (the dense algebra, the density's change, the convergence tests)"},
                 {"commutator", r.history.back().commutator, ""},
                 {"scf_last_energy_change", std::isfinite(last_change) ? last_change : -1.0,
                  "hartree, |E_k - E_{k-1}| over the SCF's last two iterations (-1 after one)"},
                 {"scf_g_build_min", g_min, "s", g_seconds},
                 {"scf_g_build_avg", g_avg, "s"},
                 {"scf_g_build_max", g_max, "s"},
                 {"scf_full_builds", std::accumulate(full.begin(), full.end(), 0.0),
                  "of the SCF's G builds (values: 1 full, 0 from the density's change)", full},
                 {"scf_quartets_computed", std::accumulate(computed.begin(), computed.end(), 0.0),
                  "over the SCF's G builds (values: per build)", computed},
                 {"scf_quartets_screened", std::accumulate(screened.begin(), screened.end(), 0.0),
                  "over the SCF's G builds, of the unique quartets (values: per build)", screened},
                 {"longest_launch_seconds", longest_launch,
                  "s, slowest rank: the longest of the G builds' kernel launches between two "
                  "checks for a signal (the SCF's and the repeated builds')"},
             });
}

// The timed G builds from the converged density: their quartets and rates.
void HfCase::add_repeated_build_metrics(std::vector<Metric>& out) const {
  const QuartetPlan& plan = builder_->plan();
  double integrals = 0.0;
  for (std::size_t k = 0; k < plan.classes.size(); ++k)
    with_quartet_class(plan.classes[k].bra_kind, plan.classes[k].ket_kind, [&](auto cls) {
      integrals += comm_.sum(builder_->last().computed[k]) * decltype(cls)::integrals;
    });
  out.insert(
      out.end(),
      {
          {"repeated_g_elements_differing", comm_.sum(static_cast<double>(repeats_differ_)), ""},
          {"quartets_computed", repeat_row_.computed, "per G build from the converged density"},
          // What the kept lists scanned to find them (the prefixes the density cut leaves):
          // their cost grows with this, the quartet kernels' with the quartets computed.
          {"quartets_listed", repeat_row_.listed,
           "per G build from the converged density, the candidates the screen tested"},
          {"list_seconds", repeat_row_.list_seconds,
           "s, of that build's class_seconds, the kept lists' (slowest rank)"},
          {"quartets_screened", plan.candidates - repeat_row_.computed,
           "per G build from the converged density, of the unique quartets"},
          {"quartets_per_second", repeat_row_.computed / fastest_repeat_,
           "in the fastest G build from the converged density"},
          {"integrals_per_second", integrals / fastest_repeat_,
           "in the fastest G build from the converged density"},
      });
  if (!j_engine_) return;
  // fock_algorithm split: the quartets above are K's; J is the engine's.
  out.insert(out.end(),
             {
                 {"j_seconds", comm_.max(repeat_phases_.j),
                  "s: the J engine's part of the last G build from the converged density, "
                  "slowest rank (in the default execution space, whatever the variant)"},
                 {"k_seconds", comm_.max(repeat_phases_.own - repeat_phases_.j),
                  "s: the exchange quartets' part of that build, slowest rank"},
                 {"j_primitive_interactions", comm_.sum(j_engine_->last().primitive_interactions),
                  "bra and ket Hermite rows whose interaction the J engine computed, per G "
                  "build from the converged density"},
                 {"j_hermite_rows", static_cast<double>(j_engine_->hermite_rows()),
                  "the J engine's bras and kets: the primitive products of the shell pairs, "
                  "those that are one Gaussian as one"},
                 {"j_primitive_products", static_cast<double>(j_engine_->primitive_products()),
                  "of the shell pairs, which the Hermite rows stand for"},
                 {"j_ket_tiles", comm_.max(j_engine_->last().most_ket_tiles),
                  "the most tiles of j_ket_tile_megabytes that one Hermite degree's ket rows "
                  "were walked in, in that build"},
                 {"j_far_field_row_pairs", comm_.sum(j_engine_->last().far_field_row_pairs),
                  "(bra row, ket row) pairs that the far field took (j_far_field_order), per G "
                  "build; j_primitive_interactions are the near field's"},
                 {"j_far_field_seconds", comm_.max(j_engine_->last().far_field_seconds),
                  "s: the far field's part of j_seconds (multipoles, local expansions and their "
                  "terms in the rows' potentials), slowest rank"},
                 {"j_far_field_boxes", static_cast<double>(j_engine_->far_field_boxes()),
                  "the far field's boxes that hold rows (0: no far field)"},
             });
  // Step 2 per (bra degree, ket degree), where rows of both degrees interacted. Every rank
  // takes part in each sum and max, whatever its own share.
  const JEngineRecord& record = j_engine_->last();
  for (int bra = 0; bra < JEngineRecord::kDegrees; ++bra)
    for (int ket = 0; ket < JEngineRecord::kDegrees; ++ket) {
      const double interactions = comm_.sum(record.interactions[bra][ket]);
      const double seconds = comm_.max(record.interaction_seconds[bra][ket]);
      if (interactions == 0.0) continue;
      const std::string degrees = std::to_string(bra) + "_" + std::to_string(ket);
      out.push_back({"j_seconds_" + degrees, seconds,
                     "s: the J engine's bra rows of Hermite degree " + std::to_string(bra) +
                         " against its ket rows of degree " + std::to_string(ket) +
                         ", in the last G build from the converged density, slowest rank"});
      out.push_back({"j_interactions_" + degrees, interactions, "in that build, every rank's"});
    }
}

// The functions the SCF ran over.
// The setup, slowest rank: from the case's construction to the first SCF's first G build, and
// its steps.
void HfCase::add_setup_metrics(std::vector<Metric>& out) const {
  const SetupTimes& t = setup_times_;
  const double total = t.shell_pairs + t.g_builder + t.j_engine + t.one_electron + t.guess +
                       t.transform + t.scf_start;
  out.insert(out.end(), {
                            {"setup_seconds", comm_.max(total), "s, to the first SCF cycle"},
                            {"setup_shell_pairs_seconds", comm_.max(t.shell_pairs),
                             "s, the basis on the atoms, the shell pairs and their products' "
                             "bounds"},
                            {"setup_g_builder_seconds", comm_.max(t.g_builder),
                             "s, the Schwarz bounds and the quartet plan"},
                            {"setup_j_engine_seconds", comm_.max(t.j_engine),
                             "s, the J engine's Hermite rows (0 where fock_algorithm is fused)"},
                            {"setup_one_electron_seconds", comm_.max(t.one_electron),
                             "s, overlap, kinetic and nuclear attraction"},
                            {"setup_guess_seconds", comm_.max(t.guess), "s, the atomic densities"},
                            {"setup_transform_seconds", comm_.max(t.transform),
                             "s, the one-electron matrices to the SCF's functions"},
                            {"setup_scf_start_seconds", comm_.max(t.scf_start),
                             "s, the SCF's orthogonaliser and first orbitals"},
                            {"one_electron_shell_pairs",
                             static_cast<double>(one_electron_work_.computed_shell_pairs),
                             "computed, of " + std::to_string(one_electron_work_.shell_pairs) +
                                 " (the others outside the pair extent)"},
                        });
}

void HfCase::add_basis_metrics(std::vector<Metric>& out) const {
  out.insert(out.end(),
             {
                 {"basis_functions", static_cast<double>(transform_->working()), "the SCF's"},
                 {"primitives_removed", primitives_removed(setup_),
                  "from the molecule's contractions by contractions: optimized (0 with "
                  "as_given)"},
                 {"fock_algorithm_split", setup_.fock_algorithm == FockAlgorithm::split ? 1.0 : 0.0,
                  std::string("1: J by the J engine and K apart (split), 0: fused") +
                      (setup_.fock_algorithm_automatic ? "; chosen by fock_algorithm auto" : "")},
                 {"spherical_functions", setup_.functions == Functions::spherical ? 1.0 : 0.0,
                  "1: the SCF ran over real solid harmonics (5 per d shell), 0: over Cartesian "
                  "functions (6)"},
             });
}

// The last G build from the converged density: the ranks' own shares, fastest and slowest (their
// spread is the load imbalance), and the slowest rank's sum of G.
void HfCase::add_rank_metrics(const VariantSpec& variant, std::vector<Metric>& out) const {
  std::vector<double> own(static_cast<std::size_t>(comm_.size()), 0.0);
  own[static_cast<std::size_t>(comm_.rank())] = repeat_phases_.own;
  comm_.sum_in_place(own.data(), own.size());
  const double slowest = *std::max_element(own.begin(), own.end());
  const double mean =
      std::accumulate(own.begin(), own.end(), 0.0) / static_cast<double>(own.size());
  out.insert(
      out.end(),
      {
          {"rank_build_seconds_min", *std::min_element(own.begin(), own.end()), "s"},
          {"rank_build_seconds_max", slowest, "s"},
          {"rank_build_seconds_mean", mean, "s (values: each rank's, in rank order)", own},
          {"rank_build_imbalance", mean > 0.0 ? slowest / mean : 1.0,
           "the slowest rank's own share over the mean (1: balanced)"},
          {"rank_share_recuts", static_cast<double>(scf_times_.at(variant.index).share_recuts),
           "times the SCF cut the ranks' shares anew by a build's measure (rank_balance: "
           "measured)"},
          {"g_sum_seconds", comm_.max(repeat_phases_.sum), "s"},
          {"g_sum_seconds_min", comm_.min(repeat_phases_.sum),
           "s: the rank that finished its share last waits for none, so about the sum "
           "itself"},
          {"g_sum_cuda_ipc", sum_over_ranks_.cuda_ipc() ? 1.0 : 0.0,
           "1: the shares of G summed over CUDA IPC, 0: through the host and MPI"},
          {"rank_quartets_computed_min", repeat_row_.rank_computed_min,
           "the fewest any rank computed in that build"},
          {"rank_quartets_computed_max", repeat_row_.rank_computed_max,
           "the most any rank computed in that build"},
      });
}

// What density screening saw and skipped.
void HfCase::add_screening_metrics(const VariantSpec& variant, std::vector<Metric>& out) const {
  std::vector<double> largest;
  for (const BuildRow& row : scf_builds_.at(variant.index))
    largest.push_back(row.largest_density);
  out.push_back({"scf_largest_density", largest.empty() ? 0.0 : largest.back(),
                 "max |D| each SCF build screened with (values: per build)", largest});
  out.push_back({"quartets_coulomb_only", repeat_row_.coulomb_only,
                 "per G build from the converged density, of the quartets computed: those "
                 "whose exchange updates the screen skipped"});
}

// Each class's time in the G build from the converged density, and in each SCF build.
void HfCase::add_class_metrics(const VariantSpec& variant, std::vector<Metric>& out) const {
  const QuartetPlan& plan = builder_->plan();
  const std::vector<BuildRow>& rows = scf_builds_.at(variant.index);
  for (std::size_t k = 0; k < plan.classes.size(); ++k) {
    const ClassPlan& c = plan.classes[k];
    if (c.listed == 0.0) continue;
    std::vector<double> per_build;
    for (const BuildRow& row : rows)
      per_build.push_back(row.class_seconds.at(k));
    out.push_back(
        {std::string("class_seconds_") + pair_kind_name(c.bra_kind) + pair_kind_name(c.ket_kind),
         repeat_row_.class_seconds.at(k),
         "s in the last G build from the converged density (values: per SCF build)", per_build});
  }
}

// auto's trial: its cost, each candidate's rate per class, and each class's choice.
void HfCase::add_auto_metrics(std::vector<Metric>& out) const {
  const QuartetPlan& plan = builder_->plan();
  out.push_back({"auto_trial_seconds", auto_->trial_seconds(), "s, the trial G build"});
  out.push_back({"auto_trial_overhead", auto_->trial_overhead(),
                 "s the trial lost against the chosen updates on the same quartets"});
  for (std::size_t c = 0; c < auto_->candidates().size(); ++c)
    for (std::size_t k = 0; k < plan.classes.size(); ++k) {
      const double rate = auto_->rates()[c][k];
      if (rate < 0.0) continue;
      out.push_back({std::string("auto_rate_") + auto_->candidates()[c]->name + "_for_" +
                         pair_kind_name(plan.classes[k].bra_kind) +
                         pair_kind_name(plan.classes[k].ket_kind),
                     rate * 1e9, "ns per quartet in the trial"});
    }
  for (std::size_t k = 0; k < plan.classes.size(); ++k) {
    const ClassPlan& c = plan.classes[k];
    if (c.listed == 0.0 || !auto_->decided()) continue;
    out.push_back({std::string("auto_chose_") + auto_->choice()[k]->name + "_for_" +
                       pair_kind_name(c.bra_kind) + pair_kind_name(c.ket_kind),
                   1.0, ""});
  }
}

}  // namespace kmini::hf
