// The histogram of the seed's §3.1: N samples in [0, 1), B equal bins, bin = min(floor(x B), B-1),
// each sample adding one to its bin. One kernel per way of adding.
#pragma once

#include <cstdint>

#include <Kokkos_Core.hpp>

#include "core/paired_load.hpp"

#include "reducers/block_aggregation.hpp"

namespace kmini::histogram {

using Index = std::int64_t;
using Samples = Kokkos::View<const double*>;

// The bin of sample x among `bins` equal bins of [0, 1). The clamp keeps x * bins that rounds
// up to `bins` (x just below 1) in the last bin.
KOKKOS_INLINE_FUNCTION Index bin_of(double x, Index bins) {
  const auto bin = static_cast<Index>(x * static_cast<double>(bins));
  return bin < bins - 1 ? bin : bins - 1;
}

inline Kokkos::RangePolicy<Kokkos::IndexType<Index>> sample_range(Index n) {
  return Kokkos::RangePolicy<Kokkos::IndexType<Index>>(0, n);
}

// One atomic per sample, added the way `Method` adds (reducers::PlainAtomic, WarpMatchAtomic, ...).
template <class Bin, class Method>
struct AtomicPerSample {
  Samples samples;
  Kokkos::View<Bin*> histogram;
  Index bins;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const {
    Method::add(&histogram(bin_of(samples(i), bins)), Bin(1));
  }
};

// Kokkos' ScatterView: atomic on GPUs, a private copy per thread on hosts.
template <class Scatter>
struct ScatterPerSample {
  Samples samples;
  Scatter scatter;
  Index bins;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const {
    auto access = scatter.access();
    access(bin_of(samples(i), bins)) += 1;
  }
};

// The seed's Fig. 4: each team aggregates its threads' additions through scratch memory.
template <class Bin>
struct BlockAggregatedPerSample {
  using Policy = Kokkos::TeamPolicy<>;
  using Aggregator = reducers::BlockAggregator<Bin>;
  Samples samples;
  Kokkos::View<Bin*> histogram;
  Index bins;
  KOKKOS_INLINE_FUNCTION void operator()(const Policy::member_type& member) const {
    const Aggregator aggregator(member);
    reducers::for_each_in_team_chunks(member, static_cast<Index>(samples.extent(0)), [&](Index i) {
      aggregator.add(i < 0 ? nullptr : &histogram(bin_of(samples(i), bins)), Bin(1));
    });
  }
};

// Per-team sub-histograms of 32-bit counters in scratch memory (shared memory on a GPU), merged
// into the global histogram with one atomic per non-empty bin per team. The teams, a wave of
// them, stride over the samples a pair at a time; a GPU thread reads a pair in one 16-byte load
// and has kPairsInFlight loads outstanding before it counts any, so that the kernel reads at the
// memory's speed (the version that read one 8-byte sample per thread and step ran at 0.90x CUB
// at 100 bins on the H100: docs/performance-notes.md). Counting in 32-bit integers, whatever the
// bins' type, keeps double bins as fast as int ones, and exact: a team counts fewer than 2^32
// samples, and each merge adds a whole count.
template <class Bin>
struct PrivatizedPerTeam {
  using Policy = Kokkos::TeamPolicy<>;
  using Counter = unsigned int;
  using Local = Kokkos::View<Counter*, Kokkos::DefaultExecutionSpace::scratch_memory_space,
                             Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static constexpr int kPairsInFlight = 2;

  Samples samples;  // its allocation 16-byte aligned
  Kokkos::View<Bin*> histogram;
  Index bins;

  static std::size_t scratch_bytes(Index bins) {
    return static_cast<std::size_t>(bins) * sizeof(Counter);
  }

  KOKKOS_INLINE_FUNCTION void count(const Local& local, double x) const {
    Kokkos::atomic_add(&local(bin_of(x, bins)), Counter(1));
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Policy::member_type& member) const {
    const Local local(member.team_scratch(0), bins);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, bins),
                         [&](Index b) { local(b) = Counter(0); });
    member.team_barrier();
    const Index n = static_cast<Index>(samples.extent(0)), pairs = n / 2;
    const Index stride = static_cast<Index>(member.league_size()) * member.team_size();
    Index pair = static_cast<Index>(member.league_rank()) * member.team_size() + member.team_rank();
    for (; pair + (kPairsInFlight - 1) * stride < pairs; pair += kPairsInFlight * stride) {
      double first[kPairsInFlight], second[kPairsInFlight];
      for (int k = 0; k < kPairsInFlight; ++k)
        load_two(samples.data() + 2 * (pair + k * stride), first[k], second[k]);
      for (int k = 0; k < kPairsInFlight; ++k) {
        count(local, first[k]);
        count(local, second[k]);
      }
    }
    for (; pair < pairs; pair += stride) {
      double first, second;
      load_two(samples.data() + 2 * pair, first, second);
      count(local, first);
      count(local, second);
    }
    if (n % 2 == 1 && member.league_rank() == 0 && member.team_rank() == 0)
      count(local, samples(n - 1));
    member.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, bins), [&](Index b) {
      if (local(b) != Counter(0)) Kokkos::atomic_add(&histogram(b), static_cast<Bin>(local(b)));
    });
  }
};

}  // namespace kmini::histogram
