// The device's memory-bandwidth ceilings (copy, read), measured at start by running the variants
// an app declares as probes (stream's: AppSpec::probe, VariantTraits::probes) through the
// ordinary runner, all ranks at once, each ceiling the fastest of its probes' best repetitions.
// Every bandwidth in a report is quoted against the ceiling its app names.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/app.hpp"
#include "core/registry.hpp"
#include "core/tree.hpp"

namespace kmini {

class Runner;
struct DeviceInfo;
struct RunResult;

struct Ceilings {
  struct Probe {
    std::string variant;
    double gbps = 0.0;  // all ranks together: bytes of every rank over the slowest rank's time
    Validation validation;
  };
  struct Kind {
    double gbps = 0.0;   // the fastest of its probes, or of the validated results past them
    std::string set_by;  // that probe's variant
    std::vector<Probe> probes;
    double probed_gbps = 0.0;  // the fastest probe's, where a result raised gbps past it
    std::string raised_by;     // "RUN: VARIANT" of that result; empty where none did
  };

  bool measured = false;
  std::string reason;  // why not
  int ranks = 1;
  std::int64_t elements = 0;  // the probe's length, in `unit`s
  std::string unit;           // "doubles per array and rank"
  std::int64_t repetitions = 0;
  std::map<Ceiling, Kind> kinds;
  std::map<Ceiling, std::string> methods;  // how each was measured, in the probing app's words
  // The job's datasheet memory bandwidth (job_memory_peak_gbps), 0 where unknown: every ceiling
  // is also given as a share of it, and so is every bandwidth in the report.
  double datasheet_gbps = 0.0;

  bool validated() const;
  std::map<Ceiling, double> by_kind() const;
  Tree to_tree() const;
};

// The probe's length when none is given: large enough to stream from memory, not cache; 0 where
// no app probes.
std::int64_t default_ceiling_elements(const AppRegistry& registry, const DeviceInfo& device,
                                      double free_bytes);

// Throws InputError where the probe of `elements` would not fit the memory, as measure_ceilings
// does before it runs (for --dry-run). Nothing where no app probes or `elements` is 0.
void check_ceiling_memory(const AppRegistry& registry, const Runner& runner, std::int64_t elements);

// One run of a kernel can beat the probe's best of ten by noise. Where a validated result's
// bandwidth passed its ceiling, the ceiling becomes the fastest such result's (Kind::raised_by
// says which), and every result is quoted against the ceilings so raised: no validated result
// reports more than 100% of its ceiling. A result that failed validation raises nothing.
// Why no ceiling was measured, where `signal` stopped the probe: "stopped by SIGTERM during the
// probe".
std::string probe_stopped_reason(int signal);

void raise_ceilings_to_results(Ceilings& ceilings, std::vector<RunResult>& results);

// `elements` 0 skips the probes. Collective over the runner's ranks.
Ceilings measure_ceilings(const AppRegistry& registry, const Runner& runner, std::int64_t elements,
                          int ranks, double datasheet_gbps);

}  // namespace kmini
