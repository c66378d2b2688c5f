#include "core/ceiling.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/config.hpp"
#include "core/device.hpp"
#include "core/runner.hpp"

namespace kmini {

namespace {
constexpr const char* kProbeApp = "stream";
constexpr const char* kProbeVariant = "copy";
constexpr std::int64_t kProbeRepetitions = 10;
}  // namespace

Tree Ceiling::to_tree() const {
  Tree copy = Tree::map();
  copy["measured"] = measured;
  if (!measured) {
    copy["reason"] = reason;
    return copy;
  }
  copy["bandwidth_GBps"] = gbps;
  copy["method"] = std::string("stream copy (c = a), double, bytes read + written, best of ") +
                   std::to_string(repetitions) + " after 1 warm-up, all ranks at once";
  copy["ranks"] = ranks;
  copy["elements_per_rank"] = static_cast<long long>(elements);
  Tree check = Tree::map();
  check["status"] = validation.passed() ? "PASS" : "FAIL";
  check["metric"] = validation.metric;
  check["value"] = validation.value;
  check["tolerance"] = validation.tolerance;
  copy["validation"] = check;
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
  const std::string probe = std::string("app: ") + kProbeApp + "\nvariant: " + kProbeVariant +
                            "\nprecision: double\nelements: " + std::to_string(elements) +
                            "\nrepetitions: " + std::to_string(kProbeRepetitions) + "\nwarmup: 1\n";
  const Input input = load_input_text(probe, "copy-bandwidth probe", "", {}, registry);
  const RunResult result = runner.run(input.runs.front(), nullptr);
  const VariantResult& copy = result.results.front();
  ceiling.measured = true;
  ceiling.gbps = copy.work.bytes / copy.time.min / 1.0e9;
  ceiling.elements = elements;
  ceiling.repetitions = kProbeRepetitions;
  ceiling.validation = copy.validation;
  return ceiling;
}

}  // namespace kmini
