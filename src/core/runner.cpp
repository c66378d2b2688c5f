#include "core/runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include <Kokkos_Core.hpp>

#include "core/comm.hpp"
#include "core/device.hpp"
#include "core/error.hpp"
#include "core/host_backends.hpp"
#include "core/interrupt.hpp"
#include "core/progress.hpp"
#include "core/registry.hpp"
#include "core/text.hpp"

namespace kmini {

namespace {

double quantity_of(const Work& work, FigureOfMerit::Quantity quantity) {
  switch (quantity) {
    case FigureOfMerit::Quantity::bytes:
      return work.bytes;
    case FigureOfMerit::Quantity::flops:
      return work.flops;
    case FigureOfMerit::Quantity::items:
      return work.items;
  }
  return 0.0;
}

bool same_counts(const Counts& a, const Counts& b) {
  return a.unit_bytes == b.unit_bytes && a.flops == b.flops && a.items == b.items;
}

Work sum_over_ranks(const Comm& comm, const Work& local) {
  return Work{comm.sum(local.bytes), comm.sum(local.flops), comm.sum(local.items)};
}

// Failed on any rank fails; the value shown is the worst rank's.
Validation combine_over_ranks(const Comm& comm, Validation local) {
  const bool all_passed = comm.all(local.passed());
  // NaN would vanish in a max-reduction; carry it as infinity so a broken rank still shows.
  const double value = std::isnan(local.value) ? INFINITY : local.value;
  local.value = comm.max(value);
  local.status = all_passed ? Validation::Status::pass : Validation::Status::fail;
  return local;
}

void add_speedups(std::vector<VariantResult>& results) {
  const VariantResult* baseline = nullptr;
  for (const auto& r : results) {
    if (r.variant->traits.baseline && r.not_applicable.empty()) baseline = &r;
  }
  if (baseline == nullptr || baseline->time.median <= 0.0) return;
  for (auto& r : results) {
    if (r.not_applicable.empty() && r.time.median > 0.0) {
      r.speedup = baseline->time.median / r.time.median;
    }
  }
}

}  // namespace

std::vector<std::pair<std::string, Value>> swept_values(const RunSpec& run, const Params& p) {
  std::vector<std::pair<std::string, Value>> point;
  for (const auto& sweep : run.sweeps)
    point.emplace_back(sweep.first, p.value(sweep.first));
  return point;
}

std::string describe_point(const std::vector<std::pair<std::string, Value>>& point) {
  std::string out;
  for (const auto& [name, value] : point) {
    if (!out.empty()) out += " ";
    out += name + "=" + format_value(value);
  }
  return out;
}

std::string nothing_applicable(const RunResult& run) {
  if (!run.error.empty() || run.interrupted != 0 || run.results.empty()) return "";
  std::vector<std::string> reasons;
  for (const auto& r : run.results) {
    if (r.not_applicable.empty()) return "";
    const std::string reason = r.variant->name + ": " + r.not_applicable;
    if (std::find(reasons.begin(), reasons.end(), reason) == reasons.end())
      reasons.push_back(reason);
  }
  std::string text = run.spec->mark.str() + ": " + run.spec->label() + ": no variant applies here";
  for (std::size_t i = 0; i < reasons.size(); ++i)
    text += (i == 0 ? ": " : "; ") + reasons[i];
  return text;
}

Runner::Runner(const Comm& comm, const DeviceInfo& device, std::map<Ceiling, double> ceilings,
               double datasheet_gbps)
    : comm_(comm),
      device_(device),
      ceilings_(std::move(ceilings)),
      datasheet_gbps_(datasheet_gbps) {}

void Runner::check_memory(const RunSpec& run) const {
  const AppSpec& app = *run.app;
  if (!app.device_bytes && !app.host_bytes) return;
  // Where the device's memory is the host's, both needs draw on it: one check of their sum.
  const bool shared = device_memory_is_host();
  const FreeMemory device_free = free_device_memory();
  const FreeMemory host_free = shared ? device_free : free_host_memory();
  for (const auto& params : run.points()) {
    const double device = app.device_bytes ? app.device_bytes(params, comm_) : 0.0;
    const double host = app.host_bytes ? app.host_bytes(params, comm_) : 0.0;
    const auto refuse = [&](double needed, const FreeMemory& available, const std::string& of_what,
                            const std::string& has) {
      // Every rank checks its own memory; all must fit.
      const bool fits = needed <= available.bytes;
      if (comm_.all(fits)) return;
      // Named where it is not rank 0 that lacks the memory, as an input refused on one rank is.
      const int short_rank = static_cast<int>(comm_.min(fits ? comm_.size() : comm_.rank()));
      const std::string rank = short_rank == 0 ? "" : "rank " + std::to_string(short_rank) + ": ";
      const std::string where =
          run.key_path.empty() ? app.name : run.key_path + " (" + app.name + ")";
      const std::string point = describe_point(swept_values(run, params));
      const double least = comm_.min(available.bytes);
      // Named where the rank with the least is bound by its limit, which the user can raise.
      const bool limit_bound =
          !comm_.all(!(available.address_space_bound && available.bytes == least));
      throw InputError(
          rank + run.mark.str() + ": " + where + (point.empty() ? "" : " at " + point) +
          ": needs " + format_bytes(comm_.max(needed)) + " of " + of_what + " per rank, but " +
          (limit_bound ? "the address-space limit (ulimit -v, RLIMIT_AS) leaves " : has + " has ") +
          format_bytes(least) + " free");
    };
    if (shared) {
      refuse(device + host, device_free, "memory", device_.name);
    } else {
      refuse(device, device_free, "memory", device_.name);
      refuse(host, host_free, "host memory (for its host variants)", "the host");
    }
  }
}

VariantResult Runner::run_variant(Case& problem, const AppSpec& app, const VariantSpec& variant,
                                  const Params& params) const {
  VariantResult result;
  result.variant = &variant;
  result.not_applicable = missing_backend(variant.traits.backend);
  if (result.not_applicable.empty()) result.not_applicable = problem.not_applicable(variant);
  if (!result.not_applicable.empty()) return result;
  const auto repetitions = params.integer(kRepetitionsKey);
  const auto warmup = params.integer(kWarmupKey);

  progress::set_stage(variant.name + ", preparing");
  problem.prepare(variant);
  for (std::int64_t i = 0; i < warmup; ++i) {
    interrupt::stop_if_requested(comm_);
    progress::set_stage(variant.name + ", warm-up " + std::to_string(i + 1) + " of " +
                        std::to_string(warmup));
    problem.run(variant);
  }
  Kokkos::fence();

  Counts local_counts;
  for (std::int64_t i = 0; i < repetitions; ++i) {
    interrupt::stop_if_requested(comm_);
    progress::set_stage(variant.name + ", repetition " + std::to_string(i + 1) + " of " +
                        std::to_string(repetitions));
    comm_.barrier();
    const auto start = std::chrono::steady_clock::now();
    const Counts counts = problem.run(variant);
    Kokkos::fence();
    const auto stop = std::chrono::steady_clock::now();
    if (i > 0 && !same_counts(counts, local_counts)) {
      throw std::logic_error(app.name + "/" + variant.name +
                             ": repetitions reported different work");
    }
    local_counts = counts;
    result.seconds.push_back(comm_.max(std::chrono::duration<double>(stop - start).count()));
  }
  result.time = summarize(result.seconds);
  result.work = sum_over_ranks(comm_, work_of(local_counts, variant));

  if (result.time.median > 0.0) {
    result.fom = quantity_of(result.work, app.fom.quantity) / result.time.median / app.fom.scale;
    if (result.work.bytes > 0.0) {
      result.bandwidth_gbps = result.work.bytes / result.time.median / 1.0e9;
      if (datasheet_gbps_ > 0.0) {
        result.percent_of_datasheet = 100.0 * *result.bandwidth_gbps / datasheet_gbps_;
      }
    }
    if (result.work.flops > 0.0) result.gflops = result.work.flops / result.time.median / 1.0e9;
    if (!app.item_rate.empty() && result.work.items > 0.0) {
      result.items_per_second = result.work.items / result.time.median;
    }
  }
  progress::set_stage(variant.name + ", validating");
  result.validation = combine_over_ranks(comm_, problem.validate(variant));
  const auto ceiling = ceilings_.find(app.ceiling);
  if (result.bandwidth_gbps && ceiling != ceilings_.end() && ceiling->second > 0.0) {
    // A validated result past the probe is its own ceiling (raise_ceilings_to_results then
    // raises the report's); one that failed is shown as it is, past 100% if so.
    const double quoted = result.validation.passed()
                              ? std::max(ceiling->second, *result.bandwidth_gbps)
                              : ceiling->second;
    result.percent_of_ceiling = 100.0 * *result.bandwidth_gbps / quoted;
  }
  result.metrics = problem.metrics(variant);
  // A validation that a signal cut short says nothing: the variant is left out, not kept as
  // failed (or passed) on part of its check.
  interrupt::stop_if_requested(comm_);
  return result;
}

RunResult Runner::run(const RunSpec& run, const PointResults& on_point,
                      const PointResults& on_variant) const {
  RunResult out;
  out.spec = &run;
  const RunContext context{comm_, device_};
  const auto& points = run.points();
  progress::start_run(comm_.is_root(), run.label());
  for (std::size_t p = 0; p < points.size(); ++p) {
    if ((out.interrupted = interrupt::requested(comm_)) != 0) break;
    const Params& params = points[p];
    std::vector<VariantResult> point_results;
    if (points.size() > 1) {
      progress::set_point("point " + std::to_string(p + 1) + " of " +
                          std::to_string(points.size()));
    }
    progress::set_stage("setting up");
    try {
      // The case (and the device memory it holds) lives only while its point runs.
      const std::unique_ptr<Case> problem = run.app->setup(params, context);
      for (const VariantSpec* variant : run.variants()) {
        if ((out.interrupted = interrupt::requested(comm_)) != 0) break;
        point_results.push_back(run_variant(*problem, *run.app, *variant, params));
        point_results.back().point = swept_values(run, params);
        if (on_variant) {
          std::vector<VariantResult> so_far = point_results;
          add_speedups(so_far);
          on_variant(so_far);
        }
      }
    } catch (const interrupt::Interrupted& stopped) {
      // Inside the setup or a variant: the variant under way is left out, those before it kept.
      out.interrupted = stopped.signal;
    }
    if (point_results.empty()) break;  // stopped before its first variant
    add_speedups(point_results);
    progress::clear();
    if (on_point) on_point(point_results);
    out.results.insert(out.results.end(), point_results.begin(), point_results.end());
    if (out.interrupted != 0) break;
  }
  // A signal during the last variant finds no safe point after it: it is looked at here.
  if (out.interrupted == 0) out.interrupted = interrupt::requested(comm_);
  progress::clear();
  return out;
}

}  // namespace kmini
