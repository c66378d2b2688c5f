// A host emulation of one 32-lane warp, for testing the warp-aggregation algorithms in CI, where
// there is no GPU. Each active lane runs the algorithm on its own host thread; the warp
// collectives (match_any, shuffle) are rendezvous of exactly the lanes their mask names, as the
// *_sync intrinsics are, so lanes of different groups proceed independently. The memory atomic
// is a real atomic, counted.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>

#include <Kokkos_Core.hpp>

namespace kmini::testing {

class WarpEmulator;

// The Warp interface of src/reducers/warp_aggregation.hpp, for one emulated lane.
class EmulatedLane {
 public:
  EmulatedLane(WarpEmulator& warp, int lane) : warp_(warp), lane_(lane) {}
  int lane() const { return lane_; }
  unsigned active_mask() const;
  unsigned match_any(unsigned mask, std::uint64_t key) const;
  template <class T>
  T shuffle(unsigned mask, T value, int source_lane) const {
    static_assert(sizeof(T) <= sizeof(std::uint64_t), "shuffles move at most 64 bits");
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    const auto all = exchange(mask, bits);
    T out;
    std::memcpy(&out, &all.at(check_source(mask, source_lane)), sizeof(T));
    return out;
  }
  template <class T>
  T atomic_fetch_add(T* address, T value) const;

 private:
  std::array<std::uint64_t, 32> exchange(unsigned mask, std::uint64_t payload) const;
  int check_source(unsigned mask, int source_lane) const;

  WarpEmulator& warp_;
  int lane_;
};

class WarpEmulator {
 public:
  // Runs body(lane) for every lane set in `active`, each on its own thread, and waits for all.
  void run(unsigned active, const std::function<void(const EmulatedLane&)>& body);
  int atomics() const { return atomics_; }  // memory atomics issued by the last run

 private:
  friend class EmulatedLane;
  struct Round {
    int arrived = 0;
    int left = 0;
    bool complete = false;
    std::array<std::uint64_t, 32> payload{};
  };

  unsigned active_ = 0;
  bool aborted_ = false;  // a lane failed: every rendezvous gives up rather than wait forever
  std::atomic<int> atomics_{0};
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<unsigned, Round> rounds_;  // one rendezvous per lane mask
};

template <class T>
T EmulatedLane::atomic_fetch_add(T* address, T value) const {
  ++warp_.atomics_;
  return Kokkos::atomic_fetch_add(address, value);
}

}  // namespace kmini::testing
