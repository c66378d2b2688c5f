#include "hf/hf_case.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <numeric>
#include <sstream>

#include "core/comm.hpp"
#include "core/interrupt.hpp"
#include "core/text.hpp"
#include "core/timing.hpp"
#include "hf/fock/incremental_g.hpp"
#include "hf/hf_variants.hpp"
#include "hf/scf/atomic_guess.hpp"

namespace kmini::hf {

namespace {

// Every later variant's energy agrees with the first one's to this, in hartree (the issue's
// 1e-10 Eh), plus the two SCFs' last energy changes: an SCF stops once its energy moves by less
// than `convergence`, and two correct variants whose sums round differently take slightly
// different paths there, so they stop up to about their last changes apart (1.3e-10 Eh between
// atomic and warp_aggregated at 128 waters in 6-31G, docs/apps/hf.md).
constexpr double kVariantAgreement = 1e-10;

std::vector<PointCharge> nuclei_of(const Molecule& molecule) {
  std::vector<PointCharge> nuclei;
  for (const Atom& atom : molecule.atoms)
    nuclei.push_back(
        PointCharge{static_cast<double>(atom.atomic_number), {atom.x, atom.y, atom.z}});
  return nuclei;
}

}  // namespace

HfCase::HfCase(const Params& params, const RunContext& context)
    : comm_(context.comm), setup_(setup_of(params)), sum_over_ranks_(setup_.g_sum_transport) {
  // Each step's host seconds, to the setup's metrics.
  Clock::time_point step = Clock::now();
  const auto lap = [&](double& seconds) {
    Kokkos::fence();
    seconds = seconds_since(step);
    step = Clock::now();
    interrupt::stop_if_requested(comm_);  // the steps take a minute at 512 waters
  };
  basis_ = place_basis(setup_.basis, setup_.molecule);
  GBuildSettings settings;
  settings.screening = setup_.screening;
  settings.threshold = setup_.screening_threshold;
  settings.primitive_screening = setup_.primitive_screening;
  settings.batch_bytes = setup_.batch_bytes;
  settings.stop_requested = [] { return interrupt::received() != 0; };
  settings.setup_stop_requested = settings.stop_requested;
  settings.coulomb = setup_.fock_algorithm == FockAlgorithm::fused;
  // The G builder and the J engine start from the same pairs and products' bounds.
  const BoundedPairs pairs =
      bounded_pairs(basis_, setup_.screening_threshold, settings.setup_stop_requested);
  lap(setup_times_.shell_pairs);
  builder_ = std::make_unique<GBuilder>(basis_, pairs, settings, comm_.rank(), comm_.size());
  lap(setup_times_.g_builder);
  if (setup_.fock_algorithm == FockAlgorithm::split) {
    JEngineSettings j_settings;
    j_settings.threshold = setup_.screening_threshold;
    j_settings.ket_lanes = setup_.j_ket_lanes;
    j_settings.ket_tile_bytes = setup_.j_ket_tile_bytes;
    j_settings.far_field = setup_.j_far_field;
    j_settings.stop_requested = j_settings.setup_stop_requested = settings.stop_requested;
    j_engine_ = std::make_unique<JEngine>(pairs, j_settings, comm_.rank(), comm_.size());
    lap(setup_times_.j_engine);
  }
  transform_ = std::make_unique<FunctionTransform>(basis_, setup_.functions);
  OneElectronLaunch one_electron_launch;
  one_electron_launch.stop_requested = settings.stop_requested;
  one_electron_ = one_electron_matrices(basis_, nuclei_of(setup_.molecule), &one_electron_work_,
                                        kNegligibleProductExponent, one_electron_launch);
  lap(setup_times_.one_electron);
  if (setup_.guess == Guess::sad)
    initial_density_ = superposed_atomic_densities(setup_.basis, setup_.molecule, basis_);
  lap(setup_times_.guess);
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
  lap(setup_times_.transform);
}

void HfCase::prepare(const VariantSpec& variant) {
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
  ScfTimes& times = scf_times_[variant.index];
  times = ScfTimes{};
  double g_seconds = 0.0;
  const Clock::time_point start = Clock::now();
  results_[variant.index] = run_scf(
      one_electron_, setup_.molecule.electrons() / 2, setup_.molecule.nuclear_repulsion(), settings,
      initial_density_,
      [&](const Matrix<DeviceMemory>& density, const Matrix<DeviceMemory>& g) {
        if (setup_times_.scf_start < 0.0) setup_times_.scf_start = seconds_since(start);
        interrupt::stop_if_requested(comm_);  // once an SCF cycle
        incremental.next(density, g, [&](const auto& d, const auto& out, double scale) {
          builder_->set_threshold_scale(scale);
          if (j_engine_) j_engine_->set_threshold_scale(scale);
          build_g(variant, d, out);
          g_seconds += last_build_phases_.own + last_build_phases_.sum;
        });
        rows.push_back(row_of_last_build(incremental.last_was_full()));
        // The timed builds from the converged density are full ones at the full threshold:
        // their shares are cut by the SCF's last such build, whose density is close to theirs,
        // and stay put while they are timed (a deterministic variant's repeats stay bit for bit
        // equal).
        if (setup_.rank_balance == RankBalance::measured && comm_.size() > 1 &&
            incremental.last_was_full() && incremental.last_threshold_scale() == 1.0) {
          recut_shares();
          ++times.share_recuts;
        }
      },
      [&](bool value) { return comm_.all(value); });
  times.seconds = seconds_since(start);
  times.outside_g = times.seconds - g_seconds;
  g_ = Matrix<DeviceMemory>("hf::g_repeated", transform_->working(), transform_->working());
  first_g_.clear();
  repeats_differ_ = 0;
  fastest_repeat_ = INFINITY;
}

Counts HfCase::run(const VariantSpec& variant) {
  builder_->set_threshold_scale(1.0);
  if (j_engine_) j_engine_->set_threshold_scale(1.0);
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

Validation HfCase::validate(const VariantSpec& variant) {
  const ScfResult& r = results_.at(variant.index);
  const ScfIteration& last = r.history.back();
  const double differing = comm_.sum(static_cast<double>(repeats_differ_));
  const GBuildChoice update = variant_table().action(variant);
  if (update != nullptr && update->action.deterministic && differing > 0) {
    return Validation::within(std::string(update->name) +
                                  " is deterministic: G elements differing between repeated "
                                  "builds",
                              differing, 0.0);
  }
  const double change = last_energy_change(r);
  if (!r.converged) {
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
    return Validation::within("|energy - " + first_variant_ +
                                  "'s energy| (hartree), within 1e-10 plus both SCFs' last "
                                  "energy changes",
                              std::fabs(r.energy - *first_energy_),
                              kVariantAgreement + first_change_ + change);
  }
  first_energy_ = r.energy;
  first_change_ = change;
  first_variant_ = variant.name;
  return Validation::within(
      "SCF converged; no reference_energy given, so: last energy change (hartree)", change,
      setup_.energy_convergence);
}

void HfCase::build_g(const VariantSpec& variant, const Matrix<DeviceMemory>& density,
                     const Matrix<DeviceMemory>& g) {
  const Clock::time_point start = Clock::now();
  // The builder works over the Cartesian functions; the SCF's may be spherical.
  const bool cartesian = transform_->identity();
  if (!cartesian) transform_->density_to_cartesian(products_, density, cartesian_density_);
  const Matrix<DeviceMemory>& d = cartesian ? density : cartesian_density_;
  const Matrix<DeviceMemory>& out = cartesian ? g : cartesian_g_;
  const GBuildChoice update = variant_table().action(variant);
  if (update != nullptr) {
    builder_->build(*update, d, out);
  } else {
    auto_->build(*builder_, d, out);
  }
  Kokkos::fence();
  last_build_phases_.j = 0.0;
  if (j_engine_ && interrupt::received() == 0) {
    const bool deterministic = update != nullptr && update->action.deterministic;
    j_engine_->set_row_pairs(
        setup_.j_row_pairs.value_or(deterministic ? JRowPairs::both_ways : JRowPairs::once));
    const Clock::time_point j_start = Clock::now();
    j_engine_->add(d, out);
    Kokkos::fence();
    last_build_phases_.j = seconds_since(j_start);
  }
  const Clock::time_point built = Clock::now();
  // A signal may have cut the build short (GBuildSettings::stop_requested): every rank leaves
  // here, before G is summed or used.
  interrupt::stop_if_requested(comm_);
  sum_over_ranks_(comm_, out);
  if (!cartesian) transform_->g_to_working(products_, out, g);
  last_build_phases_.own = std::chrono::duration<double>(built - start).count();
  last_build_phases_.sum = seconds_since(built);
}

void HfCase::recut_shares() {
  std::vector<double> fractions = builder_->stripe_kept_fractions();
  comm_.sum_in_place(fractions.data(), fractions.size());
  builder_->deal_by_kept(fractions);
}

BuildRow HfCase::row_of_last_build(bool full) const {
  const GBuildRecord& record = builder_->last();
  BuildRow row;
  row.full = full;
  row.computed = comm_.sum(record.total_computed());
  row.listed = comm_.sum(std::accumulate(record.candidates.begin(), record.candidates.end(), 0.0));
  row.coulomb_only =
      comm_.sum(std::accumulate(record.coulomb_only.begin(), record.coulomb_only.end(), 0.0));
  row.rank_computed_min = comm_.min(record.total_computed());
  row.rank_computed_max = comm_.max(record.total_computed());
  row.largest_density = record.largest_density;
  for (const double seconds : record.seconds)
    row.class_seconds.push_back(comm_.max(seconds));
  row.list_seconds =
      comm_.max(std::accumulate(record.list_seconds.begin(), record.list_seconds.end(), 0.0));
  const double j_launch = j_engine_ ? j_engine_->last().longest_chunk_seconds : 0.0;
  row.longest_launch = comm_.max(std::max(record.longest_chunk_seconds, j_launch));
  return row;
}

}  // namespace kmini::hf
