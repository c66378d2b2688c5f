// One point of the himeno app on one rank, in the phases the runner drives: prepare (the
// variant's solver, its arrays and the rehearsal that sets the iteration count), run (the timed
// iterations), validate (p and gosa against the serial reference, over the whole run or its first
// iterations) and the report's metrics.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <Kokkos_Core.hpp>

#include "core/app.hpp"
#include "core/comm.hpp"
#include "core/interrupt.hpp"
#include "core/timing.hpp"
#include "himeno/gosa.hpp"
#include "himeno/grid.hpp"
#include "himeno/himeno_estimates.hpp"
#include "himeno/himeno_params.hpp"
#include "himeno/himeno_variants.hpp"
#include "himeno/reference.hpp"
#include "himeno/solver.hpp"
#include "himeno/temporal_sweep.hpp"

namespace kmini::himeno {

constexpr double kOmega = 0.8;  // the original's relaxation factor

// `validate: auto` replays the whole run serially up to this many point updates, else checks
// the first iterations only.
constexpr double kFullReplayBudget = 1.0e9;

enum class ValidationMode { full, first };

template <class T>
class HimenoCase final : public Case {
 public:
  HimenoCase(const Params& params, const RunContext& context)
      : comm_(context.comm),
        grid_(grid_of(params)),
        fixed_iterations_(params.has("iterations") ? params.integer("iterations") : 0),
        target_seconds_(params.real("target_seconds")),
        timed_repetitions_(params.integer("repetitions") + params.integer("warmup")),
        replay_(choices().validate.of(params)) {
    setup_.grid = grid_;
    setup_.decomposition = decompose(grid_, dims_of(params, grid_, comm_.size()), comm_.rank());
    setup_.initial.state = choices().initial.of(params);
    setup_.initial.seed = static_cast<std::uint64_t>(params.integer("seed"));
    setup_.initial.imax = grid_.points(0);
    setup_.omega = kOmega;
    setup_.sweep = sweep_of(params);
    setup_.swap = swaps(params);
    setup_.device_pointers = params.boolean("gpu_aware_mpi");
    setup_.transport = choices().halo_transport.of(params);
    setup_.overlap_halo = choices().halo_exchange.of(params) == HaloTiming::overlapped;
    setup_.comm = comm_.handle();
  }

  std::string not_applicable(const VariantSpec& variant) const override {
    const bool needs_team = variant_table<T>().action(variant).needs_team;
    if (needs_team && setup_.sweep.kind == SweepKind::mdrange) {
      return "block aggregation works within a team, and the mdrange sweep has no teams; use "
             "sweep: packed, shared or marching";
    }
    if (setup_.sweep.kind == SweepKind::temporal && variant.traits.side == Side::device) {
      const Decomposition& d = setup_.decomposition;
      if (d.dims[1] > 1 || d.dims[2] > 1) {
        return "the temporal sweep's halo is time_steps planes deep along i only, and these "
               "ranks split j or k; use ranks: [" +
               std::to_string(d.dims[0] * d.dims[1] * d.dims[2]) + ", 1, 1]";
      }
      const std::int64_t fewest = grid_.interior(0) / d.dims[0];
      if (d.dims[0] > 1 && fewest < setup_.sweep.temporal.steps) {
        return "each rank's halo of time_steps planes along i comes from its neighbour's owned "
               "planes, and a rank here owns " +
               std::to_string(fewest) + "; use fewer ranks or time_steps";
      }
      if (needs_team) {
        const TemporalShape& shape = setup_.sweep.temporal;
        const std::size_t needed =
            TemporalSweep<T, Device, BlockGosa<Device>>::scratch_bytes(shape) +
            BlockGosa<Device>::scratch_bytes(shape.tj * shape.tk);
        const std::size_t allowed = team_scratch_limit();
        if (needed > allowed) {
          return "with block aggregation's scratch a team of the temporal sweep needs " +
                 std::to_string(needed) + " bytes of team scratch, and this device allows " +
                 std::to_string(allowed) + "; use a smaller temporal_block";
        }
      }
    }
    return "";
  }

  void prepare(const VariantSpec& variant) override {
    solver_.reset();  // one variant's arrays at a time
    solver_ = variant_table<T>().action(variant).make(setup_);
    solver_->initialize(true);
    interrupt::stop_if_requested(comm_);  // the fill stops at a signal, half done
    comm_.barrier();
    const std::int64_t rehearsed = rehearsal_iterations(solver_->steps());
    const Clock::time_point start = Clock::now();
    gosa_ = solver_->iterate(rehearsed);
    Kokkos::fence();
    const double rehearsal = comm_.max(seconds_since(start));
    done_ = rehearsed;
    per_run_ = fixed_iterations_ > 0
                   ? fixed_iterations_
                   : std::max<std::int64_t>(
                         1, static_cast<std::int64_t>(target_seconds_ / (rehearsal / rehearsed)));
    const std::int64_t total =
        (fixed_iterations_ > 0 ? 0 : rehearsed) + timed_repetitions_ * per_run_;
    mode_ = replay_ == Replay::full ||
                    (replay_ == Replay::automatic &&
                     grid_.interior_points() * static_cast<double>(total) <= kFullReplayBudget)
                ? ValidationMode::full
                : ValidationMode::first;
    if (mode_ == ValidationMode::first) {
      first_check_ = compare(rehearsed, gosa_);
      first_check_.metric += " (the first " + std::to_string(rehearsed) + " of " +
                             std::to_string(total) + " iterations)";
    }
    if (fixed_iterations_ > 0) {
      // The rehearsal is the original's measurement mode; a fixed count starts from the start.
      solver_->initialize(false);
      done_ = 0;
    }
  }

  Counts run(const VariantSpec&) override {
    gosa_ = solver_->iterate(per_run_);
    done_ += per_run_;
    return sweep_counts(setup_.decomposition.owned_points(), per_run_, solver_->steps(),
                        setup_.swap, sizeof(T));
  }

  Validation validate(const VariantSpec&) override {
    if (mode_ == ValidationMode::first) return first_check_;
    return compare(done_, gosa_);
  }

  // gosa: the last iteration's, over all ranks. p_checksum: the sum of p over the interior where
  // it was compared with the reference (the run's end, or its first iterations), and the
  // reference's. gosa_original_order: the reference's gosa summed as the original sums it, in
  // the working precision, where one rank holds the whole grid.
  std::vector<Metric> metrics(const VariantSpec&) const override {
    std::vector<Metric> out{
        {"gosa", gosa_, ""},
        {"iterations_total", static_cast<double>(done_), ""},
        {"iterations_per_repetition", static_cast<double>(per_run_), ""},
    };
    out.push_back({"p_checksum", p_checksum_, ""});
    out.push_back({"p_checksum_reference", reference_p_checksum_, ""});
    // A temporal pass's gosa of each of its iterations, where the run ended with one.
    const StepGosa launch = solver_ ? solver_->last_launch() : StepGosa{};
    for (int step = 0; launch.steps > 1 && step < launch.steps; ++step) {
      const std::string name = "gosa_step_" + std::to_string(step + 1);
      out.push_back({name, launch.value[step], ""});
      if (mode_ == ValidationMode::full && step_references_.size() == std::size_t(launch.steps)) {
        out.push_back({name + "_reference", step_references_[step], ""});
      }
    }
    if (mode_ == ValidationMode::full) {
      out.push_back({"gosa_reference", reference_gosa_, ""});
      if (std::isfinite(reference_original_order_)) {
        out.push_back({"gosa_original_order", reference_original_order_, ""});
      }
    }
    if (solver_ && solver_->team_size() > 0) {
      out.push_back({"team_size", static_cast<double>(solver_->team_size()), "threads"});
    }
    if (solver_ && !setup_.decomposition.single()) {
      // 1 where the faces along i travelled while the sweep ran; 0 where the two took turns.
      out.push_back({"halo_overlapped", solver_->halo_overlapped() ? 1.0 : 0.0, ""});
      // 1 where the faces went from GPU to GPU over CUDA IPC; 0 where MPI carried them.
      out.push_back({"halo_cuda_ipc", solver_->halo_cuda_ipc() ? 1.0 : 0.0, ""});
      add_phase_metrics(out);
    }
    return out;
  }

 private:
  // The last repetition's host time per iteration, in the halo exchange's calls and in gosa's
  // allreduce (the slowest rank's), and each rank's own share (the time outside the allreduce:
  // its fastest and slowest rank), where scaling's losses show. Collective.
  void add_phase_metrics(std::vector<Metric>& out) const {
    const PhaseSeconds phases = solver_->phase_seconds();
    if (phases.iterations == 0) return;
    const double per = 1.0 / static_cast<double>(phases.iterations);
    out.push_back({"exchange_seconds_per_iteration", comm_.max(phases.exchange) * per, "s"});
    out.push_back({"allreduce_seconds_per_iteration", comm_.max(phases.allreduce) * per, "s"});
    out.push_back({"rank_busy_seconds_per_iteration_min", comm_.min(phases.busy()) * per, "s"});
    out.push_back({"rank_busy_seconds_per_iteration_max", comm_.max(phases.busy()) * per, "s"});
  }

  const ReferenceResult<T>& reference(std::int64_t iterations) {
    auto found = references_.find(iterations);
    if (found == references_.end()) {
      ReferenceResult<T> replayed =
          serial_reference<T>(grid_, setup_.decomposition, setup_.initial, kOmega, iterations);
      // A signal may have stopped the replay on some rank: every rank leaves here, none keeping it.
      interrupt::stop_if_requested(comm_);
      found = references_.emplace(iterations, std::move(replayed)).first;
    }
    return found->second;
  }

  // p must equal the reference bit for bit (every operation rounds as the reference's does);
  // gosa, the same terms summed in double in another order, within the bound on that order's
  // rounding: each of n - 1 additions errs by at most 2^-53 of the partial sum (Higham (4.4)),
  // for the variant's order and the reference's.
  Validation compare(std::int64_t iterations, double gosa) {
    const ReferenceResult<T>& ref = reference(iterations);
    const HostArray<T> p = solver_->pressure_on_host();
    const Decomposition& d = setup_.decomposition;
    double worst = 0.0;
    double checksum = 0.0;
    double reference_checksum = 0.0;
    std::size_t n = 0;
    for (std::int64_t i = 1; i <= d.owned[0]; ++i)
      for (std::int64_t j = 1; j <= d.owned[1]; ++j)
        for (std::int64_t k = 1; k <= d.owned[2]; ++k) {
          const double value = static_cast<double>(p(i, j, k));
          const double expected = static_cast<double>(ref.p[n++]);
          const double difference = std::fabs(value - expected);
          worst = std::isnan(difference) ? INFINITY : std::max(worst, difference);
          checksum += value;
          reference_checksum += expected;
        }
    p_checksum_ = comm_.sum(checksum);
    reference_p_checksum_ = comm_.sum(reference_checksum);
    reference_gosa_ = comm_.sum(ref.gosa);
    reference_original_order_ = ref.gosa_original_order;
    const std::string after = " after " + std::to_string(iterations) + " iterations";
    if (comm_.max(worst) > 0.0) {
      return Validation::within("max |p - p_reference| over the owned points" + after, worst, 0.0);
    }
    const auto relative_error = [](double value, double reference) {
      return reference == 0.0 ? std::fabs(value) : std::fabs(value - reference) / reference;
    };
    double error = relative_error(gosa, reference_gosa_);
    // A temporal pass reduces each of its iterations' gosa: every one of the last pass's counts.
    const StepGosa launch = solver_->last_launch();
    step_references_.clear();
    for (int step = 0; launch.steps > 1 && step < launch.steps; ++step) {
      const auto index = static_cast<std::size_t>(iterations - launch.steps + step);
      step_references_.push_back(comm_.sum(ref.gosa_each.at(index)));
      error = std::max(error, relative_error(launch.value[step], step_references_.back()));
    }
    const std::string which =
        launch.steps > 1 ? "the worst relative error of the gosa of each of the last temporal "
                           "pass's " +
                               std::to_string(launch.steps) + " iterations"
                         : "relative error of gosa";
    const double terms = grid_.interior_points() + comm_.size();
    return Validation::within(
        which + " vs the serial reference" + after + " (p equal to it bit for bit)", error,
        2.0 * terms * std::ldexp(1.0, -53));
  }

  const Comm& comm_;
  GlobalGrid grid_;
  std::int64_t fixed_iterations_;
  double target_seconds_;
  std::int64_t timed_repetitions_;
  Replay replay_;
  SolverSetup setup_;

  std::unique_ptr<Solver<T>> solver_;
  std::int64_t per_run_ = 0;
  std::int64_t done_ = 0;
  double gosa_ = 0.0;
  ValidationMode mode_ = ValidationMode::full;
  Validation first_check_;
  double reference_gosa_ = 0.0;
  double p_checksum_ = 0.0;  // at the last comparison: the run's end, or the first iterations
  double reference_p_checksum_ = 0.0;
  double reference_original_order_ = NAN;
  std::vector<double> step_references_;  // the last pass's iterations' gosa, at the last comparison
  std::map<std::int64_t, ReferenceResult<T>> references_;
};

}  // namespace kmini::himeno
