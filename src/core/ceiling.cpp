#include "core/ceiling.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/config.hpp"
#include "core/device.hpp"
#include "core/error.hpp"
#include "core/report.hpp"
#include "core/runner.hpp"

namespace kmini {

namespace {

constexpr const char* kProbeApp = "stream";
constexpr std::int64_t kProbeRepetitions = 10;

// Which stream variant measures which ceiling.
struct ProbeRole {
  const char* variant;
  const char* kind;
};
constexpr ProbeRole kProbes[] = {{"copy", "copy"}, {"deep_copy", "copy"}, {"dot", "read"}};

const char* method_of(const std::string& kind) {
  return kind == "read" ? "stream dot (the sum of a * b): two arrays read, nothing written"
                        : "the faster of stream's copy (c = a, a Kokkos kernel) and deep_copy "
                          "(Kokkos::deep_copy): one array read, one written";
}

}  // namespace

const std::vector<std::string>& ceiling_kinds() {
  static const std::vector<std::string> kinds{"copy", "read"};
  return kinds;
}

bool Ceilings::validated() const {
  for (const auto& [name, kind] : kinds) {
    for (const auto& probe : kind.probes) {
      if (!probe.validation.passed()) return false;
    }
  }
  return true;
}

double Ceilings::gbps(const std::string& kind) const {
  const auto found = kinds.find(kind);
  return found == kinds.end() ? 0.0 : found->second.gbps;
}

std::map<std::string, double> Ceilings::by_kind() const {
  std::map<std::string, double> out;
  for (const auto& [name, kind] : kinds)
    out[name] = kind.gbps;
  return out;
}

Tree Ceilings::to_tree() const {
  Tree out = Tree::map();
  for (const auto& name : ceiling_kinds()) {
    Tree t = Tree::map();
    t["measured"] = measured;
    if (!measured) {
      t["reason"] = reason;
      out[name] = t;
      continue;
    }
    const Kind& kind = kinds.at(name);
    t["bandwidth_GBps"] = kind.gbps;
    t["method"] = std::string(method_of(name)) + "; double, bytes read + written, best of " +
                  std::to_string(repetitions) + " after 1 warm-up, all ranks at once";
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
  return out;
}

std::int64_t default_ceiling_elements(const DeviceInfo& device, double free_bytes) {
  // BabelStream's rule: arrays far larger than the last-level cache. 2^27 doubles (1 GiB per
  // array) on a GPU, 2^25 (256 MiB) on a host; never more than a quarter of free memory.
  const std::int64_t wanted = device.is_gpu() ? (std::int64_t{1} << 27) : (std::int64_t{1} << 25);
  const auto fitting = static_cast<std::int64_t>(free_bytes / 4.0 / (3.0 * sizeof(double)));
  return std::max<std::int64_t>(1024, std::min(wanted, fitting));
}

Ceilings measure_ceilings(const AppRegistry& registry, const Runner& runner, std::int64_t elements,
                          int ranks) {
  Ceilings ceilings;
  ceilings.ranks = ranks;
  if (elements <= 0) {
    ceilings.reason = "skipped (--ceiling-elements 0)";
    return ceilings;
  }
  if (registry.find(kProbeApp) == nullptr) {
    throw std::logic_error("the bandwidth probes need the stream app");
  }
  std::string variants;
  for (const auto& probe : kProbes)
    variants += (variants.empty() ? "" : ", ") + std::string(probe.variant);
  const std::string probe = std::string("app: ") + kProbeApp + "\nvariant: [" + variants +
                            "]\nprecision: double\nelements: " + std::to_string(elements) +
                            "\nrepetitions: " + std::to_string(kProbeRepetitions) + "\nwarmup: 1\n";
  const Input input = load_input_text(probe, "bandwidth probe", "", {}, registry);
  try {
    runner.check_memory(input.runs.front());
  } catch (const InputError& e) {
    // Its message points into the probe's own input; the user typed the option.
    const std::string message = e.what();
    throw InputError("--ceiling-elements " + std::to_string(elements) + ": the copy probe" +
                     message.substr(message.find(": needs")) +
                     "; give fewer elements, or 0 to skip the probe");
  }
  const RunResult result = runner.run(input.runs.front(), nullptr);
  ceilings.measured = true;
  ceilings.elements = elements;
  ceilings.repetitions = kProbeRepetitions;
  for (const VariantResult& r : result.results) {
    const double best = r.work.bytes / r.time.min / 1.0e9;
    for (const auto& role : kProbes) {
      if (r.variant->name != role.variant) continue;
      Ceilings::Kind& kind = ceilings.kinds[role.kind];
      kind.probes.push_back(Ceilings::Probe{r.variant->name, best, r.validation});
      kind.gbps = std::max(kind.gbps, best);
    }
  }
  return ceilings;
}

}  // namespace kmini
