// The device's memory-bandwidth ceilings, measured at start by running stream variants through
// the ordinary runner, all ranks at once, bytes counted BabelStream's way, best of several
// repetitions:
//   copy  the faster of `copy` (c = a, a Kokkos kernel) and `deep_copy` (the backend's own copy)
//   read  `dot` (the sum of a * b: two arrays read, nothing written)
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

struct Ceilings {
  struct Probe {
    std::string variant;
    double gbps = 0.0;  // all ranks together: bytes of every rank over the slowest rank's time
    Validation validation;
  };
  struct Kind {
    double gbps = 0.0;  // the fastest of its probes
    std::vector<Probe> probes;
  };

  bool measured = false;
  std::string reason;  // why not
  int ranks = 1;
  std::int64_t elements = 0;  // per rank and array, double precision
  std::int64_t repetitions = 0;
  std::map<std::string, Kind> kinds;  // "copy", "read"

  bool validated() const;
  // The kind's bandwidth, 0 when not measured.
  double gbps(const std::string& kind) const;
  std::map<std::string, double> by_kind() const;
  Tree to_tree() const;
};

// The names AppSpec::ceiling may take.
const std::vector<std::string>& ceiling_kinds();

// The probe's array length when none is given: large enough to stream from memory, not cache.
std::int64_t default_ceiling_elements(const DeviceInfo& device, double free_bytes);

// `elements` 0 skips the probes. Collective over the runner's ranks.
Ceilings measure_ceilings(const AppRegistry& registry, const Runner& runner, std::int64_t elements,
                          int ranks);

}  // namespace kmini
