// The device's copy bandwidth, measured at start by running the stream app's two copies through
// the ordinary runner: `copy` (BabelStream's c = a, a Kokkos kernel) and `deep_copy` (the
// backend's own copy). Bytes read + written, best of several repetitions, the faster copy wins.
// Every bandwidth in a report is quoted against it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/app.hpp"
#include "core/registry.hpp"
#include "core/tree.hpp"

namespace kmini {

class Runner;
struct DeviceInfo;

struct Ceiling {
  struct Probe {
    std::string variant;
    double gbps = 0.0;  // all ranks together: bytes of every rank over the slowest rank's time
    Validation validation;
  };

  bool measured = false;
  double gbps = 0.0;  // the fastest probe's
  std::vector<Probe> probes;
  int ranks = 1;
  std::int64_t elements = 0;  // per rank, double precision
  std::int64_t repetitions = 0;
  std::string reason;  // why it was not measured

  bool validated() const;

  Tree to_tree() const;
};

// The probe's array length when none is given: large enough to stream from memory, not cache.
std::int64_t default_ceiling_elements(const DeviceInfo& device, double free_bytes);

// `elements` 0 skips the probe. Collective over the runner's ranks.
Ceiling measure_copy_ceiling(const AppRegistry& registry, const Runner& runner,
                             std::int64_t elements, int ranks);

}  // namespace kmini
