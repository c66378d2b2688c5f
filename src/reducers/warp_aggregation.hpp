// Warp-aggregated atomic addition (Tabaru & Nakahira, HPCS 2013, Fig. 1 and 5), written once
// against a `Warp` that supplies lane(), active_mask(), match_any(), shuffle() and the memory
// atomic: CudaWarp on the device, the host warp emulator in the tests. The algorithm, in the seed's
// Fig. 1 words:
//
//   every active lane shares its address and value with the others;
//   lanes with the same address form a group; the group's lowest lane is its writer;
//   the writer adds the group's total with one atomic, getting the old value back;
//   every lane returns old + the sum of the values of the lower lanes of its group,
//
// so each lane gets exactly what it would have got had the group's lanes issued their atomics
// one after another in lane order. (The seed's Fig. 5 code sums the *higher* lanes, which is the
// same in descending order; kmini uses ascending order throughout.)
#pragma once

#include <cstdint>

#include <Kokkos_Core.hpp>

#include "reducers/lane_mask.hpp"

namespace kmini::reducers::Impl {

template <class T>
KOKKOS_INLINE_FUNCTION std::uint64_t address_key(T* address) {
  return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(address));
}

// The lanes that share this lane's address, by __match_any_sync. Within the group, lane ranks
// 0..size-1 follow lane order, and a scan over ranks takes log2(size) shuffles.
struct MatchGroup {
  unsigned peers;
  int rank;
  int size;

  KMINI_HOST_DEVICE_TEMPLATE
  template <class Warp>
  KOKKOS_INLINE_FUNCTION MatchGroup(const Warp& warp, std::uint64_t key) {
    peers = warp.match_any(warp.active_mask(), key);
    rank = popcount(peers & lanes_below(warp.lane()));
    size = popcount(peers);
  }

  KOKKOS_INLINE_FUNCTION int lane_of_rank(int r) const { return nth_lane(peers, r); }
  KOKKOS_INLINE_FUNCTION int writer_lane() const { return lowest_lane(peers); }

  // Inclusive scan of `value` over the group's ranks (Hillis-Steele). Every lane of the group
  // runs the same number of steps, so each shuffle has all of `peers` present.
  KMINI_HOST_DEVICE_TEMPLATE
  template <class Warp, class T>
  KOKKOS_INLINE_FUNCTION T inclusive_scan(const Warp& warp, T value) const {
    for (int step = 1; step < size; step <<= 1) {
      const int source = lane_of_rank(rank >= step ? rank - step : rank);
      const T lower = warp.shuffle(peers, value, source);
      if (rank >= step) value += lower;
    }
    return value;
  }
};

// atomic_fetch_add through __match_any_sync grouping and shuffle scans.
KMINI_HOST_DEVICE_TEMPLATE
template <class Warp, class T>
KOKKOS_INLINE_FUNCTION T match_fetch_add(const Warp& warp, T* address, T value) {
  const MatchGroup group(warp, address_key(address));
  if (group.size == 1) return warp.atomic_fetch_add(address, value);
  const T inclusive = group.inclusive_scan(warp, value);
  const T total = warp.shuffle(group.peers, inclusive, group.lane_of_rank(group.size - 1));
  // The exclusive prefix comes from the next lower rank's inclusive sum, not from
  // inclusive - value, which would not be exact in floating point.
  T exclusive =
      warp.shuffle(group.peers, inclusive, group.lane_of_rank(group.rank > 0 ? group.rank - 1 : 0));
  if (group.rank == 0) exclusive = T(0);
  T old = T(0);
  if (group.rank == 0) old = warp.atomic_fetch_add(address, total);
  old = warp.shuffle(group.peers, old, group.writer_lane());
  return old + exclusive;
}

// atomic_add through __match_any_sync grouping: one tree reduction, one atomic per group.
KMINI_HOST_DEVICE_TEMPLATE
template <class Warp, class T>
KOKKOS_INLINE_FUNCTION void match_add(const Warp& warp, T* address, T value) {
  const MatchGroup group(warp, address_key(address));
  if (group.size == 1) {
    warp.atomic_fetch_add(address, value);
    return;
  }
  // Tree over ranks: at each step rank r adds rank r + step, for r a multiple of 2 * step.
  for (int step = 1; step < group.size; step <<= 1) {
    const bool receives = group.rank % (2 * step) == 0 && group.rank + step < group.size;
    const T upper = warp.shuffle(group.peers, value,
                                 group.lane_of_rank(receives ? group.rank + step : group.rank));
    if (receives) value += upper;
  }
  if (group.rank == 0) warp.atomic_fetch_add(address, value);
}

// The seed's Fig. 5 with the *_sync intrinsics: a loop over the active lanes in lane order; at
// each one, every lane compares that lane's address (as two 32-bit halves, as the seed does) with
// its own and, on a match, takes its value into the group total and, if it is a lower lane, into
// its prefix. The group's lowest lane writes.
KMINI_HOST_DEVICE_TEMPLATE
template <class Warp, class T>
KOKKOS_INLINE_FUNCTION T ballot_fetch_add(const Warp& warp, T* address, T value) {
  const unsigned active = warp.active_mask();
  const int lane = warp.lane();
  const std::uint64_t key = address_key(address);
  const auto low = static_cast<unsigned>(key);
  const auto high = static_cast<unsigned>(key >> 32);
  int writer = lane;
  T total = T(0);
  T prefix = T(0);
  // The seed walks with __brev and __clz; taking the lowest remaining lane visits the same order.
  for (unsigned remaining = active; remaining != 0u; remaining &= remaining - 1u) {
    const int source = lowest_lane(remaining);
    const unsigned source_low = warp.shuffle(active, low, source);
    const unsigned source_high = warp.shuffle(active, high, source);
    const T source_value = warp.shuffle(active, value, source);
    if (source_low == low && source_high == high) {
      total += source_value;
      if (source < lane) prefix += source_value;
      if (source < writer) writer = source;
    }
  }
  T old = T(0);
  if (writer == lane) old = warp.atomic_fetch_add(address, total);
  old = warp.shuffle(active, old, writer);
  return old + prefix;
}

}  // namespace kmini::reducers::Impl
