#include "core/report.hpp"

#include <ctime>
#include <set>

#include "core/build_info.hpp"
#include "core/comm.hpp"
#include "core/config.hpp"
#include "core/device.hpp"
#include "core/interrupt.hpp"
#include "core/session.hpp"
#include "core/text.hpp"

namespace kmini {

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

Tree validation_tree(const Validation& v) {
  Tree t = Tree::map();
  t["status"] = v.passed() ? "PASS" : "FAIL";
  t["metric"] = v.metric;
  t["value"] = v.value;
  t["tolerance"] = v.tolerance;
  return t;
}

namespace {

struct RankPlacement {
  std::string host;
  int local_rank = 0;
  int device_id = -1;
  std::string device;
  std::string uuid;
  std::string pci_bus_id;
};

// Every rank's placement, gathered as tab-separated fields.
std::vector<RankPlacement> gather_placement(const Comm& comm, const DeviceInfo& device,
                                            const NodePlacement& placement) {
  const std::string mine = host_name() + "\t" + std::to_string(placement.local_rank) + "\t" +
                           std::to_string(device.id) + "\t" + device.name + "\t" + device.uuid +
                           "\t" + device.pci_bus_id;
  std::vector<RankPlacement> ranks;
  for (const auto& line : comm.all_gather(mine)) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (std::size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1) {
      fields.push_back(line.substr(start, tab - start));
    }
    fields.push_back(line.substr(start));
    ranks.push_back(RankPlacement{fields[0], std::stoi(fields[1]), std::stoi(fields[2]), fields[3],
                                  fields[4], fields[5]});
  }
  return ranks;
}

Tree placement_tree(const std::vector<RankPlacement>& ranks) {
  Tree out = Tree::list();
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    Tree rank = Tree::map();
    rank["rank"] = static_cast<long long>(r);
    rank["host"] = ranks[r].host;
    rank["local_rank"] = ranks[r].local_rank;
    rank["device_id"] = ranks[r].device_id >= 0 ? Tree(ranks[r].device_id) : Tree();
    rank["device"] = ranks[r].device;
    if (ranks[r].device_id >= 0) {
      rank["uuid"] = ranks[r].uuid;
      rank["pci_bus_id"] = ranks[r].pci_bus_id;
    }
    out.push_back(rank);
  }
  return out;
}

// Physical GPUs in use: ranks sharing a GPU count once.
int distinct_gpus(const std::vector<RankPlacement>& ranks) {
  std::set<std::string> gpus;
  for (const auto& r : ranks) {
    if (r.device_id >= 0) gpus.insert(r.host + "/" + r.uuid);
  }
  return static_cast<int>(gpus.size());
}

Tree optional_number(const std::optional<double>& value) {
  return value ? Tree(*value) : Tree();
}

}  // namespace

Tree meta_section(const Comm& comm, const DeviceInfo& device, const NodePlacement& placement,
                  const std::string& command_line, const Input& input) {
  const BuildInfo& build = build_info();
  Tree meta = Tree::map();
  meta["kmini"]["version"] = build.version;
  meta["kmini"]["git_revision"] = build.git_revision;
  meta["build"]["preset"] = build.preset;
  meta["build"]["type"] = build.build_type;
  meta["build"]["compiler"] = build.compiler;
  meta["build"]["cxx_standard"] = build.cxx_standard;
  meta["build"]["sanitizers"] = build.sanitizers.empty() ? Tree() : Tree(build.sanitizers);
  meta["kokkos"]["version"] = build.kokkos_version;
  meta["kokkos"]["patches"] = build.kokkos_patches;
  meta["kokkos"]["backends"] = build.kokkos_backends;
  meta["kokkos"]["default_execution_space"] = device.execution_space;
  meta["kokkos"]["concurrency"] = device.concurrency;
  meta["device"]["name"] = device.name;
  meta["device"]["kind"] = device.is_gpu() ? "gpu" : "host";
  meta["device"]["memory_bytes"] = device.memory_bytes;
  meta["device"]["memory_peak_GBps"] =
      optional_number(device.memory_peak_gbps > 0.0 ? std::optional<double>(device.memory_peak_gbps)
                                                    : std::nullopt);
  const auto ranks = gather_placement(comm, device, placement);
  meta["mpi"]["ranks"] = comm.size();
  meta["mpi"]["ranks_per_node"] = placement.local_size;
  meta["mpi"]["visible_gpus_per_node"] = placement.visible_gpus;
  meta["mpi"]["distinct_gpus"] = distinct_gpus(ranks);
  meta["mpi"]["placement"] = placement_tree(ranks);
  meta["host"] = host_name();
  meta["date"] = utc_timestamp();
  meta["command"] = command_line;
  meta["input"]["path"] = input.path;
  meta["input"]["name"] = input.name;
  if (!input.description.empty()) meta["input"]["description"] = input.description;
  return meta;
}

Tree run_section(const RunResult& run) {
  const RunSpec& spec = *run.spec;
  Tree out = Tree::map();
  out["app"] = spec.app->name;
  out["label"] = spec.label();
  out["source"] = spec.mark.str();
  Tree input = Tree::map();
  for (const auto& param : spec.app->params) {
    input[param.name] = Tree::from_value(spec.echoed(param.name));
  }
  out["input"] = input;
  out["status"] = !run.error.empty() ? "error" : run.interrupted != 0 ? "interrupted" : "completed";
  if (!run.error.empty()) out["error"] = run.error;
  if (run.interrupted != 0) out["interrupted_by"] = interrupt::name(run.interrupted);
  out["figure_of_merit"]["name"] = spec.app->fom.name;
  out["figure_of_merit"]["unit"] = spec.app->fom.unit;
  out["figure_of_merit"]["ceiling"] = ceiling_name(spec.app->ceiling);
  out["byte_model"] = spec.app->byte_model;
  Tree results = Tree::list();
  for (const auto& r : run.results) {
    Tree t = Tree::map();
    Tree point = Tree::map();
    for (const auto& [name, value] : r.point)
      point[name] = Tree::from_value(value);
    t["point"] = point;
    t["variant"] = r.variant->name;
    t["baseline"] = r.variant->traits.baseline;
    if (!r.not_applicable.empty()) {
      t["status"] = "not_applicable";
      t["reason"] = r.not_applicable;
      results.push_back(t);
      continue;
    }
    t["status"] = "ran";
    t["repetitions"] = static_cast<long long>(r.time.count);
    t["time_s"]["min"] = r.time.min;
    t["time_s"]["median"] = r.time.median;
    t["time_s"]["mean"] = r.time.mean;
    t["time_s"]["max"] = r.time.max;
    Tree samples = Tree::list();
    for (const double s : r.seconds)
      samples.push_back(s);
    t["time_s"]["samples"] = samples;
    t["work_per_repetition"]["bytes"] = r.work.bytes;
    t["work_per_repetition"]["flops"] = r.work.flops;
    t["work_per_repetition"]["items"] = r.work.items;
    t["fom"]["value"] = r.fom;
    t["fom"]["unit"] = spec.app->fom.unit;
    t["bandwidth_GBps"] = optional_number(r.bandwidth_gbps);
    t["percent_of_ceiling"] = optional_number(r.percent_of_ceiling);
    t["percent_of_datasheet"] = optional_number(r.percent_of_datasheet);
    t["GFLOPS"] = optional_number(r.gflops);
    if (!spec.app->item_rate.empty()) t[spec.app->item_rate] = optional_number(r.items_per_second);
    t["speedup_vs_baseline"] = optional_number(r.speedup);
    Tree metrics = Tree::map();
    for (const auto& m : r.metrics) {
      metrics[m.name]["value"] = m.value;
      metrics[m.name]["unit"] = m.unit;
      if (!m.series.empty()) {
        Tree values = Tree::list();
        for (const double v : m.series)
          values.push_back(v);
        metrics[m.name]["values"] = values;
      }
    }
    t["metrics"] = metrics;
    t["validation"] = validation_tree(r.validation);
    results.push_back(t);
  }
  out["results"] = results;
  return out;
}

Summary summarize(const std::vector<RunResult>& runs) {
  Summary s;
  for (const auto& run : runs) {
    if (!run.error.empty()) ++s.run_errors;
    if (run.interrupted != 0) s.interrupted = run.interrupted;
    for (const auto& r : run.results) {
      if (!r.not_applicable.empty()) {
        ++s.not_applicable;
        continue;
      }
      ++s.results;
      (r.validation.passed() ? s.passed : s.failed) += 1;
    }
  }
  return s;
}

std::string Summary::status() const {
  if (interrupted != 0) return "INTERRUPTED";
  return valid() ? "VALID" : "INVALID";
}

std::string Summary::line() const {
  std::string counts =
      std::to_string(passed) + " of " + std::to_string(results) + " results passed validation";
  if (not_applicable > 0) counts += " (" + std::to_string(not_applicable) + " not applicable)";
  std::string changed;
  if (!overrides.empty())
    changed = "; inputs changed by --set " + join_words(overrides, ", --set ");
  if (valid()) {
    if (!rating) return "VALID: " + counts + changed;
    return "VALID with a rating of " + format_significant(*rating, 4) +
           " (1 = " + reference_device + "): " + counts + changed;
  }
  std::string text = status() + ": " + counts;
  if (interrupted != 0)
    text += " before " + std::string(interrupt::name(interrupted)) + " stopped it";
  if (run_errors > 0) text += ", " + std::to_string(run_errors) + " run(s) failed to complete";
  if (probe_failed) text += ", a ceiling probe failed validation";
  if (!reference_device.empty()) text += "; no rating";
  return text + changed;
}

Tree Summary::to_tree() const {
  Tree t = Tree::map();
  t["status"] = status();
  t["results"] = results;
  t["passed"] = passed;
  t["failed"] = failed;
  t["not_applicable"] = not_applicable;
  t["run_errors"] = run_errors;
  t["probe_failed"] = probe_failed;
  if (reference_device.empty()) {
    t["rating"] = Tree();
  } else {
    t["rating"]["value"] = rating && valid() ? Tree(*rating) : Tree();
    t["rating"]["reference_device"] = reference_device;
    t["rating"]["definition"] =
        "geometric mean over the runs of each run's fastest validated figure of merit over the "
        "reference device's";
  }
  Tree changed = Tree::list();
  for (const auto& o : overrides)
    changed.push_back(o);
  t["overrides"] = changed;
  t["line"] = line();
  return t;
}

}  // namespace kmini
