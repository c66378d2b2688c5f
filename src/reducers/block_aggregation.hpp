// Block-level aggregation (Tabaru & Nakahira, Fig. 4): the threads of a Kokkos team share their
// addresses and values through team scratch memory and barriers, so one atomic per distinct
// address leaves the team. Portable Kokkos team code: the same algorithm runs on every backend.
//
// Where it is safe. The seed warns that a warp which never reaches the barriers leaves stale
// entries in shared memory for the others to read, and wrong sums. Here the call is collective
// by contract, and the contract makes it safe: every thread of the team calls fetch_add the same
// number of times, and a thread with nothing to add passes a null address (it takes part in the
// barriers and contributes nothing). A team-strided loop with a uniform trip count, as
// for_each_in_team_chunks below produces, satisfies it. Calling it from divergent code does not.
#pragma once

#include <cstddef>
#include <cstdint>

#include <Kokkos_Core.hpp>

#include "reducers/warp_aggregation.hpp"

namespace kmini::reducers {

template <class T, class ExecutionSpace = Kokkos::DefaultExecutionSpace>
class BlockAggregator {
 public:
  using Member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using Keys = Kokkos::View<std::uint64_t*, typename ExecutionSpace::scratch_memory_space,
                            Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using Values = Kokkos::View<T*, typename ExecutionSpace::scratch_memory_space,
                              Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  // Level-0 team scratch the aggregator needs for a team of `team_size` threads.
  static std::size_t scratch_bytes(int team_size) {
    return Keys::shmem_size(team_size) + Values::shmem_size(team_size);
  }

  KOKKOS_INLINE_FUNCTION explicit BlockAggregator(const Member& member)
      : member_(member),
        keys_(member.team_scratch(0), member.team_size()),
        values_(member.team_scratch(0), member.team_size()) {}

  // Collective over the team (see above). Returns what a serial order of the team's atomics,
  // in team-rank order, would have returned this thread; 0 for a null address.
  KOKKOS_INLINE_FUNCTION T fetch_add(T* address, T value) const {
    const int me = member_.team_rank();
    const int threads = member_.team_size();
    const std::uint64_t key = address == nullptr ? 0u : Impl::address_key(address);
    member_.team_barrier();  // the previous call's readers are done with the buffers
    keys_(me) = key;
    values_(me) = value;
    member_.team_barrier();
    int writer = me;
    T total = T(0);
    T prefix = T(0);
    if (address != nullptr) {
      for (int other = 0; other < threads; ++other) {
        if (keys_(other) != key) continue;
        total += values_(other);
        if (other < me) prefix += values_(other);
        if (other < writer) writer = other;
      }
    }
    member_.team_barrier();  // everyone has read the values before writers overwrite theirs
    if (address != nullptr && writer == me) values_(me) = Kokkos::atomic_fetch_add(address, total);
    member_.team_barrier();
    return address == nullptr ? T(0) : values_(writer) + prefix;
  }

  KOKKOS_INLINE_FUNCTION void add(T* address, T value) const { fetch_add(address, value); }

 private:
  const Member& member_;
  Keys keys_;
  Values values_;
};

// Calls body(i) for the indices [begin, end) of this team's share of [0, n), in rounds of one
// index per thread; in the last round threads past the end call body(-1). The trip count is the
// same for every thread, as BlockAggregator requires.
template <class Member, class Body>
KOKKOS_INLINE_FUNCTION void for_each_in_team_chunks(const Member& member, std::int64_t n,
                                                    const Body& body) {
  const std::int64_t teams = member.league_size();
  const std::int64_t chunk = (n + teams - 1) / teams;
  const std::int64_t begin = chunk * member.league_rank();
  const std::int64_t end = begin + chunk < n ? begin + chunk : n;
  const std::int64_t threads = member.team_size();
  const std::int64_t rounds = end > begin ? (end - begin + threads - 1) / threads : 0;
  for (std::int64_t round = 0; round < rounds; ++round) {
    const std::int64_t i = begin + round * threads + member.team_rank();
    body(i < end ? i : std::int64_t(-1));
  }
}

}  // namespace kmini::reducers
