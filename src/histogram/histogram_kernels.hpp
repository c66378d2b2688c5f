// The histogram of the seed's §3.1: N samples in [0, 1), B equal bins, bin = min(floor(x B), B-1),
// each sample adding one to its bin. One kernel per way of adding.
#pragma once

#include <cstdint>

#include <Kokkos_Core.hpp>

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

// One atomic per sample, added the way `Method` adds (reduce::PlainAtomic, WarpMatchAtomic, ...).
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
  using Aggregator = reduce::BlockAggregator<Bin>;
  Samples samples;
  Kokkos::View<Bin*> histogram;
  Index bins;
  KOKKOS_INLINE_FUNCTION void operator()(const Policy::member_type& member) const {
    const Aggregator aggregator(member);
    reduce::for_each_in_team_chunks(member, static_cast<Index>(samples.extent(0)), [&](Index i) {
      aggregator.add(i < 0 ? nullptr : &histogram(bin_of(samples(i), bins)), Bin(1));
    });
  }
};

// Per-team sub-histograms in scratch memory (shared memory on a GPU), merged into the global
// histogram with one atomic per non-empty bin per team.
template <class Bin>
struct PrivatizedPerTeam {
  using Policy = Kokkos::TeamPolicy<>;
  using Local = Kokkos::View<Bin*, Kokkos::DefaultExecutionSpace::scratch_memory_space,
                             Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Samples samples;
  Kokkos::View<Bin*> histogram;
  Index bins;
  KOKKOS_INLINE_FUNCTION void operator()(const Policy::member_type& member) const {
    const Local local(member.team_scratch(0), bins);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, bins),
                         [&](Index b) { local(b) = Bin(0); });
    member.team_barrier();
    reduce::for_each_in_team_chunks(member, static_cast<Index>(samples.extent(0)), [&](Index i) {
      if (i >= 0) Kokkos::atomic_add(&local(bin_of(samples(i), bins)), Bin(1));
    });
    member.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, bins), [&](Index b) {
      if (local(b) != Bin(0)) Kokkos::atomic_add(&histogram(b), local(b));
    });
  }
};

}  // namespace kmini::histogram
