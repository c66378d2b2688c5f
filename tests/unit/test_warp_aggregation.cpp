// The warp-aggregation algorithms of src/reducers, run on the host warp emulator: the same code the
// GPU runs, with the grouping, the prefixes and the atomics checked lane by lane.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "reducers/warp_aggregation.hpp"
#include "support/warp_emulator.hpp"

namespace kmini {
namespace {

using testing::EmulatedLane;
using testing::WarpEmulator;

// One warp's worth of calls: which lanes call, at which slot (address), with which value.
struct WarpCall {
  unsigned active = 0xffffffffu;
  std::array<int, 32> slot{};
  std::array<int, 32> value{};
};

enum class Method { match_fetch_add, ballot_fetch_add, match_add };

template <class T>
struct Outcome {
  std::vector<T> memory;
  std::array<T, 32> returned{};
  int atomics = 0;
};

template <class T>
Outcome<T> emulate(Method method, const WarpCall& call, int slots, T initial) {
  Outcome<T> out;
  out.memory.assign(static_cast<std::size_t>(slots), initial);
  WarpEmulator warp;
  warp.run(call.active, [&](const EmulatedLane& lane) {
    T* address = &out.memory[static_cast<std::size_t>(call.slot[lane.lane()])];
    const T value = static_cast<T>(call.value[lane.lane()]);
    switch (method) {
      case Method::match_fetch_add:
        out.returned[lane.lane()] = reducers::Impl::match_fetch_add(lane, address, value);
        break;
      case Method::ballot_fetch_add:
        out.returned[lane.lane()] = reducers::Impl::ballot_fetch_add(lane, address, value);
        break;
      case Method::match_add:
        reducers::Impl::match_add(lane, address, value);
        break;
    }
  });
  out.atomics = warp.atomics();
  return out;
}

// What one atomic per lane, issued in lane order, leaves in memory and returns.
template <class T>
Outcome<T> serial_reference(const WarpCall& call, int slots, T initial) {
  Outcome<T> out;
  out.memory.assign(static_cast<std::size_t>(slots), initial);
  std::map<int, bool> used;
  for (int lane = 0; lane < 32; ++lane) {
    if ((call.active >> lane & 1u) == 0u) continue;
    T& cell = out.memory[static_cast<std::size_t>(call.slot[lane])];
    out.returned[lane] = cell;
    cell += static_cast<T>(call.value[lane]);
    used[call.slot[lane]] = true;
  }
  out.atomics = static_cast<int>(used.size());  // one per distinct address, aggregated
  return out;
}

template <class T>
void check(Method method, const WarpCall& call, int slots) {
  const T initial = static_cast<T>(1000);
  const Outcome<T> got = emulate<T>(method, call, slots, initial);
  const Outcome<T> want = serial_reference<T>(call, slots, initial);
  // Small integers: every sum is exact in every type, so equality is the right test.
  EXPECT_EQ(got.memory, want.memory);
  EXPECT_EQ(got.atomics, want.atomics) << "atomics issued";
  if (method == Method::match_add) return;
  for (int lane = 0; lane < 32; ++lane) {
    if ((call.active >> lane & 1u) == 0u) continue;
    EXPECT_EQ(got.returned[lane], want.returned[lane]) << "lane " << lane;
  }
}

template <class T>
void check_all_methods(const WarpCall& call, int slots) {
  for (const Method method :
       {Method::match_fetch_add, Method::ballot_fetch_add, Method::match_add}) {
    SCOPED_TRACE(static_cast<int>(method));
    check<T>(method, call, slots);
  }
}

template <class T>
class WarpAggregation : public ::testing::Test {};
using Types = ::testing::Types<std::int32_t, std::int64_t, float, double>;
TYPED_TEST_SUITE(WarpAggregation, Types);

WarpCall values_from(unsigned active, const std::array<int, 32>& slot) {
  WarpCall call;
  call.active = active;
  call.slot = slot;
  for (int lane = 0; lane < 32; ++lane)
    call.value[lane] = 1 + (lane * 7) % 11;  // not all 1
  return call;
}

TYPED_TEST(WarpAggregation, AllLanesOneAddress) {
  check_all_methods<TypeParam>(values_from(0xffffffffu, {}), 1);
}

TYPED_TEST(WarpAggregation, AllLanesDifferentAddresses) {
  std::array<int, 32> slot{};
  for (int lane = 0; lane < 32; ++lane)
    slot[lane] = 31 - lane;
  check_all_methods<TypeParam>(values_from(0xffffffffu, slot), 32);
}

TYPED_TEST(WarpAggregation, TheSeedsFigureTwo) {
  // Lanes 0 and 7 on A, 1, 4 and 6 on B, 3 and 5 on C, lane 2 inactive; the rest of the warp
  // inactive too, as in the seed's 8-lane example.
  std::array<int, 32> slot{};
  slot = {0, 1, 0, 2, 1, 2, 1, 0};
  check_all_methods<TypeParam>(values_from(0b11111011u, slot), 3);
}

TYPED_TEST(WarpAggregation, MixedGroupsWithInactiveLanes) {
  std::array<int, 32> slot{};
  for (int lane = 0; lane < 32; ++lane)
    slot[lane] = (lane * lane) % 5;
  for (const unsigned active : {0xffffffffu, 0x80000001u, 0x55555555u, 0xf0f00f0fu, 1u, 1u << 31}) {
    SCOPED_TRACE(active);
    check_all_methods<TypeParam>(values_from(active, slot), 5);
  }
}

TYPED_TEST(WarpAggregation, RandomWarps) {
  std::mt19937 random(20261122);
  for (int trial = 0; trial < 30; ++trial) {
    WarpCall call;
    const int slots = 1 + static_cast<int>(random() % 40);
    call.active = static_cast<unsigned>(random()) | (1u << (random() % 32));  // never empty
    for (int lane = 0; lane < 32; ++lane) {
      call.slot[lane] = static_cast<int>(random() % static_cast<unsigned>(slots));
      call.value[lane] = static_cast<int>(random() % 100) - 30;  // negatives too
    }
    SCOPED_TRACE(trial);
    check_all_methods<TypeParam>(call, slots);
  }
}

TEST(WarpEmulatorItself, RejectsAShuffleFromOutsideTheMask) {
  WarpEmulator warp;
  EXPECT_THROW(warp.run(1u, [](const EmulatedLane& lane) { lane.shuffle(1u, 5, 3); }),
               std::logic_error);
}

}  // namespace
}  // namespace kmini
