#include "core/ceiling.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/config.hpp"
#include "core/device.hpp"
#include "core/runner.hpp"

namespace kmini {

namespace {
constexpr const char* kProbeApp = "stream";
constexpr const char* kProbeVariants = "[copy, deep_copy]";
constexpr std::int64_t kProbeRepetitions = 10;
}  // namespace

bool Ceiling::validated() const {
  for (const auto& probe : probes) {
    if (!probe.validation.passed()) return false;
  }
  return true;
}

Tree Ceiling::to_tree() const {
  Tree copy = Tree::map();
  copy["measured"] = measured;
  if (!measured) {
    copy["reason"] = reason;
    return copy;
  }
  copy["bandwidth_GBps"] = gbps;
  copy["method"] = std::string("the faster of stream's copy (c = a, a Kokkos kernel) and ") +
                   "deep_copy (Kokkos::deep_copy), double, bytes read + written, best of " +
                   std::to_string(repetitions) + " after 1 warm-up, all ranks at once";
  copy["ranks"] = ranks;
  copy["elements_per_rank"] = static_cast<long long>(elements);
  Tree list = Tree::list();
  for (const auto& probe : probes) {
    Tree t = Tree::map();
    t["variant"] = probe.variant;
    t["bandwidth_GBps"] = probe.gbps;
    t["validation"]["status"] = probe.validation.passed() ? "PASS" : "FAIL";
    t["validation"]["metric"] = probe.validation.metric;
    t["validation"]["value"] = probe.validation.value;
    t["validation"]["tolerance"] = probe.validation.tolerance;
    list.push_back(t);
  }
  copy["probes"] = list;
  return copy;
}

std::int64_t default_ceiling_elements(const DeviceInfo& device, double free_bytes) {
  // BabelStream's rule: arrays far larger than the last-level cache. 2^27 doubles (1 GiB per
  // array) on a GPU, 2^25 (256 MiB) on a host; never more than a quarter of free memory.
  const std::int64_t wanted = device.is_gpu() ? (std::int64_t{1} << 27) : (std::int64_t{1} << 25);
  const auto fitting = static_cast<std::int64_t>(free_bytes / 4.0 / (3.0 * sizeof(double)));
  return std::max<std::int64_t>(1024, std::min(wanted, fitting));
}

Ceiling measure_copy_ceiling(const AppRegistry& registry, const Runner& runner,
                             std::int64_t elements, int ranks) {
  Ceiling ceiling;
  ceiling.ranks = ranks;
  if (elements <= 0) {
    ceiling.reason = "skipped (--ceiling-elements 0)";
    return ceiling;
  }
  if (registry.find(kProbeApp) == nullptr) {
    throw std::logic_error("the copy-bandwidth probe needs the stream app");
  }
  const std::string probe = std::string("app: ") + kProbeApp + "\nvariant: " + kProbeVariants +
                            "\nprecision: double\nelements: " + std::to_string(elements) +
                            "\nrepetitions: " + std::to_string(kProbeRepetitions) + "\nwarmup: 1\n";
  const Input input = load_input_text(probe, "copy-bandwidth probe", "", {}, registry);
  const RunResult result = runner.run(input.runs.front(), nullptr);
  ceiling.measured = true;
  ceiling.elements = elements;
  ceiling.repetitions = kProbeRepetitions;
  for (const VariantResult& copy : result.results) {
    const double best = copy.work.bytes / copy.time.min / 1.0e9;
    ceiling.probes.push_back(Ceiling::Probe{copy.variant->name, best, copy.validation});
    ceiling.gbps = std::max(ceiling.gbps, best);
  }
  return ceiling;
}

}  // namespace kmini
