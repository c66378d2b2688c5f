#include "core/ceiling.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/config.hpp"
#include "core/device.hpp"
#include "core/error.hpp"
#include "core/interrupt.hpp"
#include "core/report.hpp"
#include "core/runner.hpp"

namespace kmini {

namespace {

constexpr std::int64_t kProbeRepetitions = 10;
constexpr Ceiling kCeilings[] = {Ceiling::copy, Ceiling::read};

}  // namespace

bool Ceilings::validated() const {
  for (const auto& [name, kind] : kinds) {
    for (const auto& probe : kind.probes) {
      if (!probe.validation.passed()) return false;
    }
  }
  return true;
}

std::map<Ceiling, double> Ceilings::by_kind() const {
  std::map<Ceiling, double> out;
  for (const auto& [name, kind] : kinds)
    out[name] = kind.gbps;
  return out;
}

Tree Ceilings::to_tree() const {
  Tree out = Tree::map();
  for (const Ceiling ceiling : kCeilings) {
    const char* name = ceiling_name(ceiling);
    Tree t = Tree::map();
    t["measured"] = measured;
    if (!measured) {
      t["reason"] = reason;
      out[name] = t;
      continue;
    }
    const Kind& kind = kinds.at(ceiling);
    t["bandwidth_GBps"] = kind.gbps;
    t["set_by"] = kind.set_by;
    if (!kind.raised_by.empty()) {
      t["probed_GBps"] = kind.probed_gbps;
      t["raised_by"] = kind.raised_by;
      t["raised_because"] =
          "a validated result passed the probe's bandwidth; every result is quoted against the "
          "fastest such result's";
    }
    if (datasheet_gbps > 0.0) t["percent_of_datasheet"] = 100.0 * kind.gbps / datasheet_gbps;
    t["method"] = methods.at(ceiling) + ", best of " + std::to_string(repetitions) +
                  " after 1 warm-up, all ranks at once";
    t["ranks"] = ranks;
    t["elements_per_rank"] = static_cast<long long>(elements);
    Tree list = Tree::list();
    for (const auto& probe : kind.probes) {
      Tree p = Tree::map();
      p["variant"] = probe.variant;
      p["bandwidth_GBps"] = probe.gbps;
      p["validation"] = validation_tree(probe.validation);
      list.push_back(p);
    }
    t["probes"] = list;
    out[name] = t;
  }
  Tree datasheet = Tree::map();
  datasheet["known"] = datasheet_gbps > 0.0;
  if (datasheet_gbps > 0.0) {
    datasheet["bandwidth_GBps"] = datasheet_gbps;
    datasheet["method"] =
        "2 x memory clock x bus width as the driver reports them, summed over the job's GPUs";
  }
  out["datasheet"] = datasheet;
  return out;
}

std::int64_t default_ceiling_elements(const AppRegistry& registry, const DeviceInfo& device,
                                      double free_bytes) {
  const AppSpec* prober = registry.prober();
  if (prober == nullptr) return 0;
  // BabelStream's rule: arrays far larger than the last-level cache. 2^28 elements (2 GiB per
  // array of doubles) on a GPU, the procurement suite's stream size, so that a run that size
  // amortises its launches no better than the probes do; 2^25 (256 MiB) on a host; never more
  // than a quarter of free memory.
  const std::int64_t wanted = device.is_gpu() ? (std::int64_t{1} << 28) : (std::int64_t{1} << 25);
  const auto fitting = static_cast<std::int64_t>(free_bytes / 4.0 / prober->probe->bytes_per_unit);
  return std::max<std::int64_t>(1024, std::min(wanted, fitting));
}

namespace {

// The probe run: the prober's probing variants at `elements`, its settings, repeated.
std::string probe_input(const AppSpec& app, std::int64_t elements) {
  std::string variants;
  for (const auto& v : app.variants)
    if (v.traits.probes) variants += (variants.empty() ? "" : ", ") + v.name;
  return "app: " + app.name + "\nvariant: [" + variants + "]\n" + app.probe->settings +
         app.probe->size_param + ": " + std::to_string(elements) +
         "\nrepetitions: " + std::to_string(kProbeRepetitions) + "\nwarmup: 1\n";
}

// The probe's run, its memory gated as a run's is.
Input probe_run_checked(const AppSpec& prober, const AppRegistry& registry, const Runner& runner,
                        std::int64_t elements) {
  Input input = load_input_text(probe_input(prober, elements), "bandwidth probe", "", {}, registry);
  try {
    runner.check_memory(input.runs.front());
  } catch (const InputError& e) {
    // Its message points into the probe's own input; the user typed the option.
    const std::string message = e.what();
    throw InputError("--ceiling-elements " + std::to_string(elements) + ": the copy probe" +
                     message.substr(message.find(": needs")) +
                     "; give fewer elements, or 0 to skip the probe");
  }
  return input;
}

}  // namespace

void check_ceiling_memory(const AppRegistry& registry, const Runner& runner,
                          std::int64_t elements) {
  const AppSpec* prober = registry.prober();
  if (prober != nullptr && elements > 0) probe_run_checked(*prober, registry, runner, elements);
}

void raise_ceilings_to_results(Ceilings& ceilings, std::vector<RunResult>& results) {
  if (!ceilings.measured) return;
  for (const RunResult& run : results) {
    const auto kind = ceilings.kinds.find(run.spec->app->ceiling);
    if (kind == ceilings.kinds.end()) continue;
    for (const VariantResult& r : run.results) {
      if (!r.bandwidth_gbps || !r.validation.passed() || *r.bandwidth_gbps <= kind->second.gbps)
        continue;
      if (kind->second.raised_by.empty()) kind->second.probed_gbps = kind->second.gbps;
      kind->second.gbps = *r.bandwidth_gbps;
      const std::string point = describe_point(r.point);
      kind->second.raised_by =
          run.spec->label() + ": " + r.variant->name + (point.empty() ? "" : " at " + point);
    }
  }
  for (RunResult& run : results) {
    const auto kind = ceilings.kinds.find(run.spec->app->ceiling);
    if (kind == ceilings.kinds.end() || kind->second.raised_by.empty()) continue;
    for (VariantResult& r : run.results)
      if (r.bandwidth_gbps) r.percent_of_ceiling = 100.0 * *r.bandwidth_gbps / kind->second.gbps;
  }
}

Ceilings measure_ceilings(const AppRegistry& registry, const Runner& runner, std::int64_t elements,
                          int ranks, double datasheet_gbps) {
  Ceilings ceilings;
  ceilings.ranks = ranks;
  ceilings.datasheet_gbps = datasheet_gbps;
  const AppSpec* prober = registry.prober();
  if (prober == nullptr) {
    ceilings.reason = "no app of this build probes them";
    return ceilings;
  }
  if (elements <= 0) {
    ceilings.reason = "skipped (--ceiling-elements 0)";
    return ceilings;
  }
  const Input input = probe_run_checked(*prober, registry, runner, elements);
  const RunResult result = runner.run(input.runs.front(), nullptr);
  // A signal during the probe: no ceiling (its variants may not all have run), and the runs
  // that follow stop at their first safe point.
  if (result.interrupted != 0) {
    ceilings.reason = probe_stopped_reason(result.interrupted);
    return ceilings;
  }
  ceilings.measured = true;
  ceilings.elements = elements;
  ceilings.unit = prober->probe->size_unit;
  ceilings.repetitions = kProbeRepetitions;
  ceilings.methods = prober->probe->method;
  for (const VariantResult& r : result.results) {
    const double best = r.work.bytes / r.time.min / 1.0e9;
    Ceilings::Kind& kind = ceilings.kinds[*r.variant->traits.probes];
    kind.probes.push_back(Ceilings::Probe{r.variant->name, best, r.validation});
    if (best > kind.gbps) {
      kind.gbps = best;
      kind.set_by = r.variant->name;
    }
  }
  return ceilings;
}

std::string probe_stopped_reason(int signal) {
  return std::string("stopped by ") + interrupt::name(signal) + " during the probe";
}

}  // namespace kmini
