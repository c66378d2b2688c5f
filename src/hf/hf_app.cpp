#include "hf/hf_app.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <sstream>

#include <Kokkos_Core.hpp>

#include "core/comm.hpp"
#include "core/cuda_ipc.hpp"
#include "core/text.hpp"
#include "core/timing.hpp"
#include "hf/atomic_guess.hpp"
#include "hf/auto_update.hpp"
#include "hf/eri.hpp"
#include "hf/function_transform.hpp"
#include "hf/g_build.hpp"
#include "hf/hf_setup.hpp"
#include "hf/incremental_g.hpp"
#include "hf/molecular_basis.hpp"
#include "hf/one_electron.hpp"
#include "hf/quartet_plan.hpp"
#include "hf/scf.hpp"
#include "hf/shell_pairs.hpp"
#include "hf/symmetric_rank_sum.hpp"

namespace kmini::hf {

namespace {

// Every variant's energy agrees with the first one's to this, in hartree (the 1e-10 Eh).
constexpr double kVariantAgreement = 1e-10;

// The update G is built with; none for the meta-variant auto, which chooses one per class
// (hf/auto_update.hpp).
using GBuildChoice = std::optional<GUpdate>;

const VariantTable<GBuildChoice>& variant_table() {
  static const VariantTable<GBuildChoice> rows{
      {"atomic",
       "the seed's naive GPU version: the threads that compute a shell quartet's integrals add "
       "its contributions to the six G blocks it touches with plain atomics",
       0.0, on_device(), GUpdate::atomic},
      {"warp_aggregated",
       "atomic with the reducers' warp-aggregated atomics: lanes adding to the same G element "
       "are combined first (seed 000 pattern (1))",
       0.0, on_device(), GUpdate::warp_aggregated},
      {"kernel_split",
       "seed 001's method: kernel 1 writes a batch of quartets' integrals to device memory, "
       "kernel 2 gives each G block to one thread, which gathers its contributions; no atomics, "
       "bitwise reproducible",
       0.0, on_device().with_buffer(), GUpdate::kernel_split},
      {"host_update",
       "integrals computed on the device into a buffer, copied to the host and added into G by "
       "the host's OpenMP threads (seed 000 patterns (3)/(4))",
       0.0, on_device().needing(HostBackend::openmp).with_buffer(), GUpdate::host_update},
      {"cpu",
       "everything on the host's OpenMP threads, each with a private G (seed 000 patterns "
       "(5)/(6))",
       0.0, on_host().needing(HostBackend::openmp).as_baseline(), GUpdate::cpu},
      // Its trials include kernel_split, so it sizes the integral buffer too.
      {"auto",
       "the fastest update class by class, timed in the SCF's second G build (the first, "
       "from the guess, takes atomic): each class's quartets are shared out in stripes among "
       "atomic, warp_aggregated and kernel_split (and cpu on a host-only build), and each "
       "class keeps the one with the least time per quartet; metrics "
       "auto_chose_NAME_for_CLASS say which",
       0.0, on_device().as_meta().with_buffer(), std::nullopt},
  };
  return rows;
}

// The variant that builds G with `update` alone, by name: auto's metrics name its candidates so.
const char* update_name(GUpdate update) {
  for (const auto& row : variant_table().rows())
    if (row.action == update) return row.name;
  return "?";
}

std::vector<PointCharge> nuclei_of(const Molecule& molecule) {
  std::vector<PointCharge> nuclei;
  for (const Atom& atom : molecule.atoms)
    nuclei.push_back(
        PointCharge{static_cast<double>(atom.atomic_number), {atom.x, atom.y, atom.z}});
  return nuclei;
}

// Over the molecule's atoms: the primitives contractions: optimized left out of their shells.
double primitives_removed(const HfSetup& setup) {
  double n = 0.0;
  for (const Atom& atom : setup.molecule.atoms) {
    const auto found = setup.primitives_removed_of_element.find(atom.atomic_number);
    if (found != setup.primitives_removed_of_element.end()) n += found->second;
  }
  return n;
}

// The Cartesian functions the integrals run over (at least the SCF's).
int basis_functions(const HfSetup& setup) {
  int n = 0;
  for (const Atom& atom : setup.molecule.atoms)
    for (const Shell& shell : setup.basis.shells_of_element.at(atom.atomic_number))
      n += cartesian_functions(shell.l);
  return n;
}

// The SCF's matrices, its DIIS history and the incremental build's copies, the shell-block
// density maxima, and the integral buffer where a variant that uses one is selected.
double device_bytes(const Params& params, const Comm& comm) {
  const HfSetup& setup = setup_of(params);
  if (setup.g_sum_transport == RankSumTransport::cuda_ipc && comm.size() > 1 && !cuda_ipc_built()) {
    params.reject("g_sum_transport",
                  "cuda_ipc needs the CUDA backend, which this build lacks; use auto or mpi");
  }
  const double n = basis_functions(setup);
  double shells = 0.0;
  for (const Atom& atom : setup.molecule.atoms)
    shells += static_cast<double>(setup.basis.shells_of_element.at(atom.atomic_number).size());
  ScfSettings settings;
  double bytes = (13.0 + 2.0 * settings.diis_vectors) * n * n * sizeof(double) +
                 shells * shells * sizeof(double);
  // Every canonical pair's primitive products (before the cutoff drops any), and the kept list of
  // the largest chunk (GBuildSettings::chunk_quartets).
  double primitives = 0.0;
  for (const Atom& atom : setup.molecule.atoms)
    for (const Shell& shell : setup.basis.shells_of_element.at(atom.atomic_number))
      primitives += static_cast<double>(shell.exponents.size());
  bytes += primitives * (primitives + 1.0) / 2.0 * sizeof(PrimitiveProduct) +
           static_cast<double>(GBuildSettings{}.chunk_quartets) * 2.0 * sizeof(int);
  if (params.selects_any([](const VariantSpec& v) { return v.traits.needs_buffer; })) {
    // The buffer holds at most a batch, and at most every unscreened quartet of (pp|pp) size.
    const double unique_quartets = std::pow(n * (n + 1.0) / 2.0, 2) / 2.0;
    bytes += std::min(setup.batch_bytes, unique_quartets * sizeof(double));
  }
  return bytes;
}

// The quartets a G build computes are known only after screening, which needs the integrals
// and the density themselves; the dry run says what the build's size follows from.
WorkEstimate estimate_work(const Params& params, const Comm&, const VariantSpec&) {
  const HfSetup& setup = setup_of(params);
  return WorkEstimate{std::nullopt,
                      "a repetition is one G build from the converged density; its quartet count "
                      "is known after screening; " +
                          std::to_string(setup.molecule.atoms.size()) + " atoms, " +
                          std::to_string(basis_functions(setup)) + " basis functions"};
}

// One G build of the SCF, over all ranks.
struct BuildRow {
  bool full = true;                // from the whole density, not its change
  double computed = 0.0;           // quartets
  double coulomb_only = 0.0;       // of them, those without exchange updates
  double rank_computed_min = 0.0;  // the least and most any rank computed
  double rank_computed_max = 0.0;
  double largest_density = 0.0;       // max |D| of what was built (density screening)
  std::vector<double> class_seconds;  // slowest rank, per class of the plan
};

class HfCase : public Case {
 public:
  HfCase(const Params& params, const RunContext& context)
      : comm_(context.comm), setup_(setup_of(params)), sum_over_ranks_(setup_.g_sum_transport) {
    basis_ = place_basis(setup_.basis, setup_.molecule);
    GBuildSettings settings;
    settings.screening = setup_.screening;
    settings.threshold = setup_.screening_threshold;
    settings.primitive_screening = setup_.primitive_screening;
    settings.batch_bytes = setup_.batch_bytes;
    builder_ = std::make_unique<GBuilder>(basis_, settings, comm_.rank(), comm_.size());
    transform_ = std::make_unique<FunctionTransform>(basis_, setup_.functions);
    one_electron_ = one_electron_matrices(basis_, nuclei_of(setup_.molecule));
    if (setup_.guess == Guess::sad)
      initial_density_ = superposed_atomic_densities(setup_.basis, setup_.molecule, basis_);
    if (!transform_->identity()) {
      one_electron_ = {transform_->to_working(one_electron_.overlap),
                       transform_->to_working(one_electron_.kinetic),
                       transform_->to_working(one_electron_.nuclear)};
      if (initial_density_.extent(0) > 0)
        initial_density_ = transform_->density_to_working(initial_density_);
      const int n = transform_->cartesian();
      cartesian_density_ = Matrix<DeviceMemory>("hf::cartesian_density", n, n);
      cartesian_g_ = Matrix<DeviceMemory>("hf::cartesian_g", n, n);
    }
  }

  // The variant's whole SCF, untimed by the runner (its own timings go to the metrics), so that
  // the timed repetitions are G builds from its converged density: the same work every time.
  void prepare(const VariantSpec& variant) override {
    if (variant.traits.meta)
      auto_ = std::make_unique<AutoUpdate>(auto_candidates(),
                                           [this](double seconds) { return comm_.max(seconds); });
    ScfSettings settings;
    settings.max_iterations = setup_.max_iterations;
    settings.energy_convergence = setup_.energy_convergence;
    settings.commutator_convergence = setup_.commutator_convergence;
    IncrementalG incremental(setup_.fock_build, setup_.full_rebuild_every,
                             IncrementalG::loosest_scale_for(setup_.screening_threshold));
    std::vector<BuildRow>& rows = scf_builds_[variant.index];
    rows.clear();
    const Clock::time_point start = Clock::now();
    results_[variant.index] = run_scf(
        one_electron_, setup_.molecule.electrons() / 2, setup_.molecule.nuclear_repulsion(),
        settings, initial_density_,
        [&](const Matrix<DeviceMemory>& density, const Matrix<DeviceMemory>& g) {
          incremental.next(density, g, [&](const auto& d, const auto& out, double scale) {
            builder_->set_threshold_scale(scale);
            build_g(variant, d, out);
          });
          rows.push_back(row_of_last_build(incremental.last_was_full()));
        },
        [&](bool value) { return comm_.all(value); });
    scf_seconds_[variant.index] = comm_.max(seconds_since(start));
    g_ = Matrix<DeviceMemory>("hf::g_repeated", transform_->working(), transform_->working());
    first_g_.clear();
    repeats_differ_ = 0;
    fastest_repeat_ = INFINITY;
  }

  // One G build from the whole converged density, compared bit for bit with the first.
  Counts run(const VariantSpec& variant) override {
    builder_->set_threshold_scale(1.0);
    const Clock::time_point start = Clock::now();
    build_g(variant, results_.at(variant.index).density, g_);
    repeat_phases_ = last_build_phases_;
    fastest_repeat_ = std::min(fastest_repeat_, comm_.max(seconds_since(start)));
    repeat_row_ = row_of_last_build(true);
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g_);
    if (first_g_.empty()) {
      first_g_.assign(host.data(), host.data() + host.size());
    } else {
      for (std::size_t k = 0; k < first_g_.size(); ++k)
        repeats_differ_ += host.data()[k] != first_g_[k];
    }
    // The figure of merit counts G builds: one per repetition, shared by the ranks.
    Counts counts;
    counts.items = 1.0 / comm_.size();
    return counts;
  }

  Validation validate(const VariantSpec& variant) override {
    const ScfResult& r = results_.at(variant.index);
    const ScfIteration& last = r.history.back();
    const double differing = comm_.sum(static_cast<double>(repeats_differ_));
    if (variant_table().action(variant) == GUpdate::kernel_split && differing > 0) {
      return Validation::within(
          "kernel_split is deterministic: G elements differing between repeated builds", differing,
          0.0);
    }
    if (!r.converged) {
      const double change = r.history.size() > 1
                                ? std::fabs(last.energy - r.history[r.history.size() - 2].energy)
                                : INFINITY;
      std::ostringstream metric;
      metric << "SCF did not converge in " << r.history.size() << " iterations: last energy change "
             << format_significant(change, 3) << " hartree (needed < "
             << format_significant(setup_.energy_convergence, 3) << "), commutator "
             << format_significant(last.commutator, 3) << " (needed < "
             << format_significant(setup_.commutator_convergence, 3) << ")";
      return Validation::within(metric.str(), INFINITY, setup_.energy_convergence);
    }
    if (setup_.reference_energy) {
      return Validation::within("|energy - reference_energy| (hartree)",
                                std::fabs(r.energy - *setup_.reference_energy),
                                setup_.energy_tolerance);
    }
    if (first_energy_) {
      return Validation::within("|energy - " + first_variant_ + "'s energy| (hartree)",
                                std::fabs(r.energy - *first_energy_), kVariantAgreement);
    }
    first_energy_ = r.energy;
    first_variant_ = variant.name;
    return Validation::within(
        "SCF converged; no reference_energy given, so: last energy change (hartree)",
        std::fabs(last.energy - r.history[r.history.size() - 2].energy), setup_.energy_convergence);
  }

  std::vector<Metric> metrics(const VariantSpec& variant) const override {
    const ScfResult& r = results_.at(variant.index);
    const std::vector<BuildRow>& rows = scf_builds_.at(variant.index);
    const QuartetPlan& plan = builder_->plan();
    std::vector<double> energies, g_seconds, computed, screened, full;
    for (const ScfIteration& step : r.history) {
      energies.push_back(step.energy);
      g_seconds.push_back(step.g_seconds);
    }
    for (const BuildRow& row : rows) {
      computed.push_back(row.computed);
      screened.push_back(plan.candidates - row.computed);
      full.push_back(row.full ? 1.0 : 0.0);
    }
    const double g_min = *std::min_element(g_seconds.begin(), g_seconds.end());
    const double g_max = *std::max_element(g_seconds.begin(), g_seconds.end());
    const double g_avg =
        std::accumulate(g_seconds.begin(), g_seconds.end(), 0.0) / g_seconds.size();
    double integrals = 0.0;
    for (std::size_t k = 0; k < plan.classes.size(); ++k)
      with_quartet_class(plan.classes[k].bra_kind, plan.classes[k].ket_kind, [&](auto cls) {
        integrals += comm_.sum(builder_->last().computed[k]) * decltype(cls)::integrals;
      });
    std::vector<Metric> out{
        {"energy", r.energy, "hartree", energies},
        {"nuclear_repulsion", setup_.molecule.nuclear_repulsion(), "hartree"},
        {"scf_iterations", static_cast<double>(r.history.size()), ""},
        {"scf_seconds", scf_seconds_.at(variant.index), "s"},
        {"commutator", r.history.back().commutator, ""},
        {"scf_g_build_min", g_min, "s", g_seconds},
        {"scf_g_build_avg", g_avg, "s"},
        {"scf_g_build_max", g_max, "s"},
        {"scf_full_builds", std::accumulate(full.begin(), full.end(), 0.0),
         "of the SCF's G builds (values: 1 full, 0 from the density's change)", full},
        {"scf_quartets_computed", std::accumulate(computed.begin(), computed.end(), 0.0),
         "over the SCF's G builds (values: per build)", computed},
        {"scf_quartets_screened", std::accumulate(screened.begin(), screened.end(), 0.0),
         "over the SCF's G builds, of the unique quartets (values: per build)", screened},
        {"repeated_g_elements_differing", comm_.sum(static_cast<double>(repeats_differ_)), ""},
        {"quartets_computed", repeat_row_.computed, "per G build from the converged density"},
        {"quartets_screened", plan.candidates - repeat_row_.computed,
         "per G build from the converged density, of the unique quartets"},
        {"quartets_per_second", repeat_row_.computed / fastest_repeat_,
         "in the fastest G build from the converged density"},
        {"integrals_per_second", integrals / fastest_repeat_,
         "in the fastest G build from the converged density"},
        {"basis_functions", static_cast<double>(transform_->working()), "the SCF's"},
        {"primitives_removed", primitives_removed(setup_),
         "from the molecule's contractions by contractions: optimized (0 with as_given)"},
        {"spherical_functions", setup_.functions == Functions::spherical ? 1.0 : 0.0,
         "1: the SCF ran over real solid harmonics (5 per d shell), 0: over Cartesian "
         "functions (6)"},
    };
    if (comm_.size() > 1) {
      // The last G build from the converged density: the ranks' own shares, fastest and
      // slowest (their spread is the load imbalance), and the slowest rank's sum of G.
      out.push_back({"rank_build_seconds_min", comm_.min(repeat_phases_.own), "s"});
      out.push_back({"rank_build_seconds_max", comm_.max(repeat_phases_.own), "s"});
      out.push_back({"g_sum_seconds", comm_.max(repeat_phases_.sum), "s"});
      out.push_back({"g_sum_seconds_min", comm_.min(repeat_phases_.sum),
                     "s: the rank that finished its share last waits for none, so about the sum "
                     "itself"});
      out.push_back({"g_sum_cuda_ipc", sum_over_ranks_.cuda_ipc() ? 1.0 : 0.0,
                     "1: the parts of G summed over CUDA IPC, 0: through the host and MPI"});
      out.push_back({"rank_quartets_computed_min", repeat_row_.rank_computed_min,
                     "the fewest any rank computed in that build"});
      out.push_back({"rank_quartets_computed_max", repeat_row_.rank_computed_max,
                     "the most any rank computed in that build"});
    }
    if (setup_.screening == Screening::density) {
      std::vector<double> largest;
      for (const BuildRow& row : rows)
        largest.push_back(row.largest_density);
      out.push_back({"scf_largest_density", largest.empty() ? 0.0 : largest.back(),
                     "max |D| each SCF build screened with (values: per build)", largest});
      out.push_back({"quartets_coulomb_only", repeat_row_.coulomb_only,
                     "per G build from the converged density, of the quartets computed: those "
                     "whose exchange updates the screen skipped"});
    }
    // Each class's time in the G build from the converged density, and in each SCF build.
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
    if (variant.traits.meta) {
      out.push_back({"auto_trial_seconds", auto_->trial_seconds(), "s, the trial G build"});
      out.push_back({"auto_trial_overhead", auto_->trial_overhead(),
                     "s the trial lost against the chosen updates on the same quartets"});
      for (std::size_t c = 0; c < auto_->candidates().size(); ++c)
        for (std::size_t k = 0; k < plan.classes.size(); ++k) {
          const double rate = auto_->rates()[c][k];
          if (rate < 0.0) continue;
          out.push_back({std::string("auto_rate_") + update_name(auto_->candidates()[c]) + "_for_" +
                             pair_kind_name(plan.classes[k].bra_kind) +
                             pair_kind_name(plan.classes[k].ket_kind),
                         rate * 1e9, "ns per quartet in the trial"});
        }
      for (std::size_t k = 0; k < plan.classes.size(); ++k) {
        const ClassPlan& c = plan.classes[k];
        if (c.listed == 0.0 || !auto_->decided()) continue;
        out.push_back({std::string("auto_chose_") + update_name(auto_->choice()[k]) + "_for_" +
                           pair_kind_name(c.bra_kind) + pair_kind_name(c.ket_kind),
                       1.0, ""});
      }
    }
    // The integral buffer, where the variant uses one (auto's trials of kernel_split do).
    if (variant.traits.needs_buffer)
      out.push_back({"batch_megabytes", builder_->batch_capacity() * 8.0 / 1048576.0, "MiB"});
    return out;
  }

 private:
  // G from `density` by the variant's update, summed over ranks.
  // Times this rank's share and the sum into last_build_phases_.
  void build_g(const VariantSpec& variant, const Matrix<DeviceMemory>& density,
               const Matrix<DeviceMemory>& g) {
    const Clock::time_point start = Clock::now();
    // The builder works over the Cartesian functions; the SCF's may be spherical.
    const bool cartesian = transform_->identity();
    if (!cartesian) transform_->density_to_cartesian(products_, density, cartesian_density_);
    const Matrix<DeviceMemory>& d = cartesian ? density : cartesian_density_;
    const Matrix<DeviceMemory>& out = cartesian ? g : cartesian_g_;
    if (const GBuildChoice update = variant_table().action(variant)) {
      builder_->build(*update, d, out);
    } else {
      auto_->build(*builder_, d, out);
    }
    Kokkos::fence();
    const Clock::time_point built = Clock::now();
    sum_over_ranks_(comm_, out);
    if (!cartesian) transform_->g_to_working(products_, out, g);
    last_build_phases_.own = std::chrono::duration<double>(built - start).count();
    last_build_phases_.sum = seconds_since(built);
  }

  // The builder's latest build, over all ranks.
  BuildRow row_of_last_build(bool full) const {
    const GBuildRecord& record = builder_->last();
    BuildRow row;
    row.full = full;
    row.computed = comm_.sum(record.total_computed());
    row.coulomb_only =
        comm_.sum(std::accumulate(record.coulomb_only.begin(), record.coulomb_only.end(), 0.0));
    row.rank_computed_min = comm_.min(record.total_computed());
    row.rank_computed_max = comm_.max(record.total_computed());
    row.largest_density = record.largest_density;
    for (const double seconds : record.seconds)
      row.class_seconds.push_back(comm_.max(seconds));
    return row;
  }

  // One G build's host time on this rank: its own share of the quartets, and the sum of G over
  // the ranks (which waits for the slowest share).
  struct BuildPhases {
    double own = 0.0;
    double sum = 0.0;
  };

  const Comm& comm_;
  BuildPhases last_build_phases_;
  BuildPhases repeat_phases_;  // the last repetition's
  HfSetup setup_;
  MolecularBasis basis_;
  OneElectronMatrices one_electron_;
  HostMatrix initial_density_;  // empty: the core Hamiltonian's guess
  // The SCF's functions over the Cartesian ones, and the Cartesian density and G of a build when
  // they differ.
  std::unique_ptr<FunctionTransform> transform_;
  DenseProducts products_;
  Matrix<DeviceMemory> cartesian_density_, cartesian_g_;
  std::unique_ptr<GBuilder> builder_;
  SymmetricRankSum sum_over_ranks_;
  std::unique_ptr<AutoUpdate> auto_;  // while the auto variant runs
  std::map<std::size_t, ScfResult> results_;
  std::map<std::size_t, double> scf_seconds_;
  std::map<std::size_t, std::vector<BuildRow>> scf_builds_;
  Matrix<DeviceMemory> g_;
  std::vector<double> first_g_;  // this rank's first repeated build
  std::int64_t repeats_differ_ = 0;
  double fastest_repeat_ = INFINITY;
  BuildRow repeat_row_;  // the latest repeated build
  std::optional<double> first_energy_;
  std::string first_variant_;
};

}  // namespace

AppSpec app_spec() {
  AppSpec app;
  app.name = "hf";
  app.doc =
      "restricted Hartree-Fock in Gaussian basis sets with s, p and d shells (STO-3G, 6-31G, "
      "6-31G*, 6-31G**, cc-pVDZ shipped); its cost is "
      "the ERI-driven G-matrix build, with the seeds' update variants side by side";
  app.params = hf_params();
  app.variants = variant_table().specs();
  app.byte_model = "none: the G build is bound by integral arithmetic and atomics, not bandwidth";
  // G builds per second for the fixed input: a faster answer scores higher, whatever screening
  // skips (a quartet rate would rise with quartets computed needlessly).
  app.fom = FigureOfMerit{"G-build rate", "builds/s", FigureOfMerit::Quantity::items, 1.0};
  app.ceiling = Ceiling::copy;
  // A repetition is one G build from the converged density; the SCF before them warms up.
  app.default_variants = {"auto"};
  app.default_repetitions = 3;
  app.default_warmup = 0;
  app.check = check_hf;
  app.device_bytes = device_bytes;
  app.estimate_work = estimate_work;
  app.setup = [](const Params& params, const RunContext& context) -> std::unique_ptr<Case> {
    return std::make_unique<HfCase>(params, context);
  };
  return app;
}

}  // namespace kmini::hf
