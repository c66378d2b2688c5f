// The public reducers of src/reducers/atomics.hpp and block_aggregation.hpp inside real Kokkos
// kernels on the default execution space: on a GPU the warp and block algorithms themselves,
// on a host backend the fallbacks and the (portable) block algorithm.
//
// For every address, the values its fetch_adds returned must be exactly the partial sums of some
// serial order of its additions: sorted, each one is the previous plus the previous addition.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include <Kokkos_Core.hpp>

#include "reducers/atomics.hpp"
#include "reducers/block_aggregation.hpp"

namespace kmini {
namespace {

using Index = std::int64_t;

KOKKOS_INLINE_FUNCTION Index slot_of(Index i, Index slots) {
  // Scrambled, so that lanes of one warp hit a mix of addresses.
  return static_cast<Index>((static_cast<std::uint64_t>(i) * 2654435761u) >> 7) % slots;
}
KOKKOS_INLINE_FUNCTION int value_of(Index i) {
  return 1 + static_cast<int>(i % 5);
}

template <class T>
struct Outcome {
  std::vector<T> memory;
  std::vector<T> returned;
};

template <class T>
Outcome<T> host_copy(const Kokkos::View<T*>& memory, const Kokkos::View<T*>& returned) {
  Outcome<T> out;
  auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), memory);
  auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), returned);
  out.memory.assign(m.data(), m.data() + m.extent(0));
  out.returned.assign(r.data(), r.data() + r.extent(0));
  return out;
}

template <class T, class Method>
Outcome<T> run_warp_method(Index n, Index slots, bool fetch) {
  Kokkos::View<T*> memory("memory", slots);
  Kokkos::View<T*> returned("returned", n);
  Kokkos::parallel_for(
      "test::warp_method", Kokkos::RangePolicy<Kokkos::IndexType<Index>>(0, n),
      KOKKOS_LAMBDA(Index i) {
        T* address = &memory(slot_of(i, slots));
        if (fetch) {
          returned(i) = Method::fetch_add(address, T(value_of(i)));
        } else {
          Method::add(address, T(value_of(i)));
        }
      });
  return host_copy(memory, returned);
}

template <class T>
Outcome<T> run_block(Index n, Index slots, int team_size) {
  using Policy = Kokkos::TeamPolicy<>;
  using Aggregator = reducers::BlockAggregator<T>;
  Kokkos::View<T*> memory("memory", slots);
  Kokkos::View<T*> returned("returned", n);
  const int league =
      static_cast<int>(std::max<Index>(1, (n + 4 * team_size - 1) / (4 * team_size)));
  const Policy policy =
      Policy(league, team_size)
          .set_scratch_size(0, Kokkos::PerTeam(Aggregator::scratch_bytes(team_size)));
  Kokkos::parallel_for(
      "test::block", policy, KOKKOS_LAMBDA(const Policy::member_type& member) {
        const Aggregator aggregator(member);
        reducers::for_each_in_team_chunks(member, n, [&](Index i) {
          const T got = aggregator.fetch_add(i < 0 ? nullptr : &memory(slot_of(i, slots)),
                                             i < 0 ? T(0) : T(value_of(i)));
          if (i >= 0) returned(i) = got;
        });
      });
  return host_copy(memory, returned);
}

template <class T>
void expect_serial_order(const Outcome<T>& got, Index n, Index slots, bool fetch) {
  std::vector<std::vector<std::pair<T, int>>> by_slot(static_cast<std::size_t>(slots));
  std::vector<double> sums(static_cast<std::size_t>(slots), 0.0);
  for (Index i = 0; i < n; ++i) {
    by_slot[slot_of(i, slots)].push_back({got.returned[i], value_of(i)});
    sums[slot_of(i, slots)] += value_of(i);
  }
  for (Index s = 0; s < slots; ++s) {
    ASSERT_EQ(static_cast<double>(got.memory[s]), sums[s]) << "slot " << s;
    if (!fetch) continue;
    auto& entries = by_slot[s];
    std::sort(entries.begin(), entries.end());
    T expected = T(0);
    for (const auto& [old_value, added] : entries) {
      ASSERT_EQ(old_value, expected) << "slot " << s << ": not a serial order";
      expected += T(added);
    }
  }
}

struct NoOpTeamFunctor {
  KOKKOS_INLINE_FUNCTION void operator()(const Kokkos::TeamPolicy<>::member_type&) const {}
};

template <class T>
class Reducers : public ::testing::Test {};
using Types = ::testing::Types<std::int32_t, std::int64_t, float, double>;
TYPED_TEST_SUITE(Reducers, Types);

// Sizes include a partial last warp; slot counts run from total contention to none.
const Index kSizes[] = {1, 1000, 65536 + 17};
const Index kSlots[] = {1, 3, 100, 1 << 20};

TYPED_TEST(Reducers, WarpMethodsFetchAndAdd) {
  using T = TypeParam;
  for (const Index n : kSizes) {
    for (const Index slots : kSlots) {
      SCOPED_TRACE("n=" + std::to_string(n) + " slots=" + std::to_string(slots));
      for (const bool fetch : {true, false}) {
        expect_serial_order(run_warp_method<T, reducers::PlainAtomic>(n, slots, fetch), n, slots,
                            fetch);
        expect_serial_order(run_warp_method<T, reducers::WarpMatchAtomic>(n, slots, fetch), n,
                            slots, fetch);
        expect_serial_order(run_warp_method<T, reducers::WarpBallotAtomic>(n, slots, fetch), n,
                            slots, fetch);
      }
    }
  }
}

TYPED_TEST(Reducers, BlockAggregation) {
  using T = TypeParam;
  const int team_size =
      std::min(128, Kokkos::TeamPolicy<>(1, Kokkos::AUTO)
                        .team_size_max(NoOpTeamFunctor{}, Kokkos::ParallelForTag()));
  for (const Index n : kSizes) {
    for (const Index slots : kSlots) {
      SCOPED_TRACE("n=" + std::to_string(n) + " slots=" + std::to_string(slots));
      expect_serial_order(run_block<T>(n, slots, team_size), n, slots, true);
    }
  }
}

}  // namespace
}  // namespace kmini
