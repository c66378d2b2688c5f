// How a sweep adds each point's ss^2 into gosa: the seed's reduction patterns, as sinks. A sweep
// binds its sink once per team (or once, with NoTeam, where it has no teams) and calls the bound
// sink once per point. Every thread of a team calls it the same number of times, with `valid`
// false where it has no point (block aggregation relies on that; see
// reducers/block_aggregation.hpp).
//
// The original accumulates gosa in float, serially; its rounding then depends on the order, and
// at size L a float sum of 3e7 terms loses several digits. kmini keeps each term as the original
// computes it (ss*ss in the working precision) and accumulates in double, so every pattern sums
// the same terms to the same value within a double rounding per term.
#pragma once

#include <Kokkos_Core.hpp>

#include "reducers/atomics.hpp"
#include "reducers/block_aggregation.hpp"

namespace kmini::himeno {

// No team: what the MDRange and row sweeps bind to.
struct NoTeam {};

// The sinks that need nothing from the team bind to themselves.
template <class Sink>
struct BindsToItself {
  static constexpr bool needs_team = false;
  template <class Team>
  KOKKOS_INLINE_FUNCTION const Sink& bind(const Team&) const {
    return static_cast<const Sink&>(*this);
  }
};

// The tree: a parallel_reduce over the sweep's per-thread sums.
struct TreeGosa : BindsToItself<TreeGosa> {
  static constexpr bool reduces = true;
  KOKKOS_INLINE_FUNCTION void operator()(bool valid, int, int, int, double term,
                                         double& local) const {
    if (valid) local += term;
  }
};

// One atomic per point into one device scalar, aggregated or not (reducers/atomics.hpp):
// pattern (2) with PlainAtomic, pattern (1) with WarpMatchAtomic.
template <class Method, class MemorySpace>
struct AtomicGosa : BindsToItself<AtomicGosa<Method, MemorySpace>> {
  static constexpr bool reduces = false;
  Kokkos::View<double, MemorySpace> gosa;
  explicit AtomicGosa(const Kokkos::View<double, MemorySpace>& gosa_) : gosa(gosa_) {}
  KOKKOS_INLINE_FUNCTION void operator()(bool valid, int, int, int, double term, double&) const {
    if (valid) Method::add(gosa.data(), term);
  }
};

// One atomic per point for the whole team, through team scratch and barriers (the seed's Fig. 4).
template <class ExecutionSpace>
struct BlockGosa {
  static constexpr bool reduces = false;
  static constexpr bool needs_team = true;
  Kokkos::View<double, typename ExecutionSpace::memory_space> gosa;
  explicit BlockGosa(const Kokkos::View<double, typename ExecutionSpace::memory_space>& gosa_)
      : gosa(gosa_) {}
  using Aggregator = reduce::BlockAggregator<double, ExecutionSpace>;

  // The aggregator takes its team scratch once per team, here.
  struct Bound {
    Aggregator aggregator;
    double* gosa;
    KOKKOS_INLINE_FUNCTION void operator()(bool valid, int, int, int, double term, double&) const {
      aggregator.add(valid ? gosa : nullptr, term);
    }
  };
  template <class Member>
  KOKKOS_INLINE_FUNCTION Bound bind(const Member& team) const {
    return Bound{Aggregator(team), gosa.data()};
  }
  static std::size_t scratch_bytes(int team_size) {
    return reduce::BlockAggregator<double, ExecutionSpace>::scratch_bytes(team_size);
  }
};

// Each point's term to a buffer that the host sums afterwards: patterns (3) and (4).
template <class T, class MemorySpace>
struct BufferedGosa : BindsToItself<BufferedGosa<T, MemorySpace>> {
  static constexpr bool reduces = false;
  Kokkos::View<T***, Kokkos::LayoutRight, MemorySpace> terms;  // over the owned points
  KOKKOS_INLINE_FUNCTION void operator()(bool valid, int i, int j, int k, double term,
                                         double&) const {
    if (valid) terms(i - 1, j - 1, k - 1) = static_cast<T>(term);
  }
};

}  // namespace kmini::himeno
