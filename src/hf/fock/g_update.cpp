#include "hf/fock/g_update.hpp"

#include <stdexcept>

#include <Kokkos_Core.hpp>

#include "core/host_backends.hpp"
#include "hf/fock/g_build.hpp"

namespace kmini::hf {

namespace {

void atomic(ClassShare& share) {
  share.scatter(DeviceAdd::plain_atomic);
}
void warp_aggregated(ClassShare& share) {
  share.scatter(DeviceAdd::warp_aggregated);
}
void kernel_split(ClassShare& share) {
  share.store_and_gather();
}
void host_update(ClassShare& share) {
  share.store_and_add_on_host();
}
void cpu(ClassShare& share) {
  share.compute_on_host();
}

}  // namespace

// host_update is no candidate of auto: wherever it was measured it was slower than both atomic and
// cpu (docs/apps/hf.md), and on a GPU build the host's updates are far behind the device's.
const std::vector<GUpdate>& g_updates() {
  static const std::vector<GUpdate> rows{
      {"atomic",
       "the naive GPU version: the threads that compute a shell quartet's integrals add its "
       "contributions to the six G blocks it touches with plain atomics",
       0.0,
       on_device(),
       {&atomic, AutoCandidate::always}},
      {"warp_aggregated",
       "atomic with the reducers' warp-aggregated atomics: the lanes of a warp that add to the "
       "same G element combine their contributions first, and one of them adds the sum",
       0.0,
       on_device(),
       {&warp_aggregated, AutoCandidate::always}},
      {"kernel_split",
       "kernel 1 writes a batch of quartets' integrals to device memory, kernel 2 gives each G "
       "block to one thread, which gathers its contributions; no atomics, bitwise reproducible",
       0.0,
       on_device().with_buffer(),
       {&kernel_split, AutoCandidate::always, true}},
      {"host_update",
       "integrals computed on the device into a buffer, copied to the host and added into G by "
       "the host's OpenMP threads, each with a private G",
       0.0,
       on_device().needing(HostBackend::openmp).with_buffer(),
       {&host_update}},
      {"cpu",
       "everything on the host's OpenMP threads, each with a private G",
       0.0,
       on_host().needing(HostBackend::openmp).as_baseline(),
       {&cpu, AutoCandidate::host_only_builds}},
  };
  return rows;
}

const GUpdate& g_update(const std::string& name) {
  for (const GUpdate& row : g_updates())
    if (name == row.name) return row;
  throw std::invalid_argument("no G update named " + name);
}

std::vector<const GUpdate*> auto_candidates() {
  constexpr bool host_only =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, DeviceMemory>::accessible;
  std::vector<const GUpdate*> candidates;
  for (const GUpdate& row : g_updates()) {
    const bool timed = row.action.candidate == AutoCandidate::always ||
                       (row.action.candidate == AutoCandidate::host_only_builds && host_only);
    if (timed && missing_backend(row.traits.backend).empty()) candidates.push_back(&row);
  }
  return candidates;
}

}  // namespace kmini::hf
