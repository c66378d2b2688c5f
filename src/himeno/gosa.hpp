// How a sweep adds each point's ss^2 into gosa: the seed's reduction patterns, as sinks. A sweep
// binds its sink once per team (or once, with NoTeam, where it has no teams) and calls the bound
// sink once per point. Every thread of a team calls it the same number of times, with `valid`
// false where it has no point (block aggregation relies on that; see
// reducers/block_aggregation.hpp).
//
// A sweep that advances several iterations a pass (the temporal sweep) produces one gosa per
// iteration: it adds iteration t's terms through the bound sink's at_step(t), and a reducing sink
// into the t-th element of its per-thread sums; the buffered sinks into the t-th block of their
// buffer.
//
// The original accumulates gosa in float, serially; its rounding then depends on the order, and
// at size L a float sum of 3e7 terms loses several digits. kmini keeps each term as the original
// computes it (ss*ss in the working precision) and accumulates in double, so every pattern sums
// the same terms to the same value within a double rounding per term.
#pragma once

#include <Kokkos_Core.hpp>

#include "core/fixed_sums.hpp"
#include "reducers/atomics.hpp"
#include "reducers/block_aggregation.hpp"

namespace kmini::himeno {

// No team: what the MDRange and row sweeps bind to.
struct NoTeam {};

// The most iterations a temporal pass advances, and so the most gosa values a launch produces.
constexpr int kMaxTimeSteps = 4;

// A temporal pass's gosa sums, one per iteration, as the tree reduces them.
using StepSums = FixedSums<kMaxTimeSteps>;

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
  static constexpr bool has_steps = true;
  KOKKOS_INLINE_FUNCTION void operator()(bool valid, int, int, int, double term,
                                         double& local) const {
    if (valid) local += term;
  }
  // The step picks the element of the per-thread sums, which the sweep does.
  KOKKOS_INLINE_FUNCTION const TreeGosa& at_step(int) const { return *this; }
};

// One atomic per point into a device scalar, one per step, aggregated or not
// (reducers/atomics.hpp): pattern (2) with PlainAtomic, pattern (1) with WarpMatchAtomic.
template <class Method, class MemorySpace>
struct AtomicGosa : BindsToItself<AtomicGosa<Method, MemorySpace>> {
  static constexpr bool reduces = false;
  static constexpr bool has_steps = true;
  double* gosa;  // step 0's scalar; step t's follows at gosa + t
  explicit AtomicGosa(const Kokkos::View<double*, MemorySpace>& steps) : gosa(steps.data()) {}
  KOKKOS_INLINE_FUNCTION void operator()(bool valid, int, int, int, double term, double&) const {
    if (valid) Method::add(gosa, term);
  }
  KOKKOS_INLINE_FUNCTION AtomicGosa at_step(int step) const {
    AtomicGosa moved = *this;
    moved.gosa += step;
    return moved;
  }
};

// One atomic per point for the whole team, through team scratch and barriers (the seed's Fig. 4).
template <class ExecutionSpace>
struct BlockGosa {
  static constexpr bool reduces = false;
  static constexpr bool needs_team = true;
  static constexpr bool has_steps = true;
  using Steps = Kokkos::View<double*, typename ExecutionSpace::memory_space>;
  double* gosa;  // as AtomicGosa's
  explicit BlockGosa(const Steps& steps) : gosa(steps.data()) {}
  using Aggregator = reducers::BlockAggregator<double, ExecutionSpace>;

  // The aggregator takes its team scratch once per team, here.
  struct Bound {
    Aggregator aggregator;
    double* gosa;
    KOKKOS_INLINE_FUNCTION void operator()(bool valid, int, int, int, double term, double&) const {
      aggregator.add(valid ? gosa : nullptr, term);
    }
    KOKKOS_INLINE_FUNCTION Bound at_step(int step) const { return Bound{aggregator, gosa + step}; }
  };
  template <class Member>
  KOKKOS_INLINE_FUNCTION Bound bind(const Member& team) const {
    return Bound{Aggregator(team), gosa};
  }
  static std::size_t scratch_bytes(int team_size) {
    return reducers::BlockAggregator<double, ExecutionSpace>::scratch_bytes(team_size);
  }
};

// Each point's term to a buffer that the host sums afterwards: patterns (3) and (4). The buffer
// holds a block of the owned points' terms per iteration of a launch (one, or a temporal pass's
// steps), and at_step(t) moves to block t.
template <class T, class MemorySpace>
struct BufferedGosa : BindsToItself<BufferedGosa<T, MemorySpace>> {
  static constexpr bool reduces = false;
  static constexpr bool has_steps = true;
  // (step x owned plane, owned row, owned column): block t is planes t x planes .. on.
  Kokkos::View<T***, Kokkos::LayoutRight, MemorySpace> terms;
  int first_plane;  // the local i whose terms go to the current block's first plane
  int planes;       // owned planes: a block's
  KOKKOS_INLINE_FUNCTION void operator()(bool valid, int i, int j, int k, double term,
                                         double&) const {
    if (valid) terms(i - first_plane, j - 1, k - 1) = static_cast<T>(term);
  }
  KOKKOS_INLINE_FUNCTION BufferedGosa at_step(int step) const {
    BufferedGosa moved = *this;
    moved.first_plane -= step * planes;
    return moved;
  }
};

}  // namespace kmini::himeno
