// Which sweep a run makes, as the input chose it, and how each sweep is launched on a rank's
// arrays with a gosa sink (gosa.hpp): the team sweeps with the team their tile asks for, or as
// many threads as the backend takes; the mdrange sweep over an MDRangePolicy; a temporal pass.
#pragma once

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <type_traits>

#include <Kokkos_Core.hpp>

#include "himeno/gosa.hpp"
#include "himeno/grid.hpp"
#include "himeno/packed_sweep.hpp"
#include "himeno/sweeps.hpp"
#include "himeno/temporal_sweep.hpp"

namespace kmini::himeno {

enum class SweepKind { mdrange, marching, shared, packed, temporal };

// The sweep and its shapes, as the input gives them: the defaults are the parameters'
// (himeno_app.cpp), and nothing here assumes one.
struct SweepChoice {
  SweepKind kind;
  Extents mdrange_tile;
  MarchingShape marching;
  MarchingShape packed;  // tj x tk threads of a pack each, over `planes` planes
  TemporalShape temporal;

  // The iterations one launch advances.
  int steps() const { return kind == SweepKind::temporal ? temporal.steps : 1; }
  // The sweep that finishes a run whose iterations are not a multiple of steps(): the packed one.
  SweepChoice single() const {
    SweepChoice one = *this;
    if (kind == SweepKind::temporal) one.kind = SweepKind::packed;
    return one;
  }
};

// The arrays' layers along i (Fields::halo_i) for `sweep` on ranks split `dims`: a temporal pass's
// steps where the ranks split i (temporal_sweep.hpp), else one.
inline int halo_layers(const SweepChoice& sweep, const Extents& dims) {
  return sweep.kind == SweepKind::temporal && dims[0] > 1 ? sweep.steps() : 1;
}

// A team sweep's policy: its own Policy where it declares one (launch bounds), else the plain one.
template <class Sweep, class ExecutionSpace, class = void>
struct TeamPolicyOf {
  using type = Kokkos::TeamPolicy<ExecutionSpace>;
};
template <class Sweep, class ExecutionSpace>
struct TeamPolicyOf<Sweep, ExecutionSpace, std::void_t<typename Sweep::Policy>> {
  using type = typename Sweep::Policy;
};

// Launches a team sweep with a team of the tile's thread count, or as many as the backend takes
// (host backends take few; the sweep then gives each thread several columns). Returns the team
// size.
template <class ExecutionSpace, class Sweep, class Result>
int launch_teams(const ExecutionSpace& space, const char* name, const Sweep& sweep,
                 const MarchingShape& shape, std::size_t sweep_scratch, const Result& result) {
  using Sink = decltype(sweep.sink);
  using Policy = typename TeamPolicyOf<Sweep, ExecutionSpace>::type;
  const int columns = shape.tj * shape.tk;
  std::size_t scratch = sweep_scratch;
  if constexpr (Sink::needs_team) scratch += Sink::scratch_bytes(columns);
  const auto with_scratch = [&](Policy policy) {
    if (scratch > 0) policy.set_scratch_size(0, Kokkos::PerTeam(static_cast<int>(scratch)));
    return policy;
  };
  const auto probe = with_scratch(Policy(space, sweep.league_size(), 1));
  int team = columns;
  if constexpr (Sink::reduces) {
    team = std::min(team, probe.team_size_max(sweep, Kokkos::ParallelReduceTag()));
    Kokkos::parallel_reduce(name, with_scratch(Policy(space, sweep.league_size(), team)), sweep,
                            result);
  } else {
    team = std::min(team, probe.team_size_max(sweep, Kokkos::ParallelForTag()));
    Kokkos::parallel_for(name, with_scratch(Policy(space, sweep.league_size(), team)), sweep);
  }
  return team;
}

// Launches a temporal pass (choice.kind == temporal) on `arrays` with `sink`, on `space`; a
// reducing sink's sums go to `result` (a device StepSums). Returns the team size.
template <class T, class ExecutionSpace, class Sink, class Result>
int launch_temporal(const ExecutionSpace& space,
                    const SweepArrays<T, typename ExecutionSpace::memory_space>& arrays,
                    const SweepChoice& choice, const Sink& sink, const Result& result) {
  static_assert(Sink::has_steps, "a temporal pass adds each of its iterations' gosa apart");
  const TemporalShape& shape = choice.temporal;
  const MarchingShape team{shape.planes, shape.tj, shape.tk, false};
  if (arrays.reach_low > 0 || arrays.reach_high > 0) {
    using Sweep = TemporalSweep<T, ExecutionSpace, Sink, true>;
    return launch_teams(space, "himeno::jacobi_temporal", Sweep(arrays, sink, shape), team,
                        Sweep::scratch_bytes(shape), result);
  }
  using Sweep = TemporalSweep<T, ExecutionSpace, Sink, false>;
  return launch_teams(space, "himeno::jacobi_temporal", Sweep(arrays, sink, shape), team,
                      Sweep::scratch_bytes(shape), result);
}

// Launches the chosen single sweep on `arrays` with `sink`, on `space`; a reducing sink's sum
// goes to `result` (a device scalar). Returns the team sweeps' team size, or 0.
template <class T, class ExecutionSpace, class Sink, class Result>
int launch_sweep(const ExecutionSpace& space,
                 const SweepArrays<T, typename ExecutionSpace::memory_space>& arrays,
                 const SweepChoice& choice, const Sink& sink, const Result& result) {
  if (choice.kind == SweepKind::temporal) {
    throw std::logic_error("himeno: launch_sweep was given a temporal pass");
  }
  if constexpr (!Sink::needs_team) {
    if (choice.kind == SweepKind::mdrange) {
      using Policy = Kokkos::MDRangePolicy<ExecutionSpace, Kokkos::Rank<3>>;
      const Policy policy(space, {arrays.i_first, 1, 1},
                          {arrays.i_end(), arrays.nj + 1, arrays.nk + 1},
                          {choice.mdrange_tile[0], choice.mdrange_tile[1], choice.mdrange_tile[2]});
      const MDRangeSweep<T, ExecutionSpace, Sink> sweep{arrays, sink};
      if constexpr (Sink::reduces) {
        Kokkos::parallel_reduce("himeno::jacobi_mdrange", policy, sweep, result);
      } else {
        Kokkos::parallel_for("himeno::jacobi_mdrange", policy, sweep);
      }
      return 0;
    }
  } else if (choice.kind == SweepKind::mdrange) {
    throw std::logic_error("himeno: a sink that needs a team was given the mdrange sweep");
  }
  if (choice.kind == SweepKind::packed) {
    return launch_teams(space, "himeno::jacobi_packed",
                        PackedSweep<T, ExecutionSpace, Sink>(arrays, sink, choice.packed),
                        choice.packed, 0, result);
  }
  if (choice.kind == SweepKind::shared) {
    using Sweep = SharedSweep<T, ExecutionSpace, Sink>;
    return launch_teams(space, "himeno::jacobi_shared", Sweep(arrays, sink, choice.marching),
                        choice.marching, Sweep::scratch_bytes(choice.marching), result);
  }
  return launch_teams(space, "himeno::jacobi_marching",
                      MarchingSweep<T, ExecutionSpace, Sink>(arrays, sink, choice.marching),
                      choice.marching, 0, result);
}

}  // namespace kmini::himeno
