// The temporal sweep: `steps` Jacobi iterations in one pass over memory. A team owns a tile of
// (j, k) columns and a run of planes along i, and marches along i with each iteration one plane
// behind the one before it: at each step the team loads the next plane of p, then iteration 1
// updates the plane behind it, iteration 2 the plane behind that, and so on, each from its
// predecessor's last three planes, which the team keeps in team scratch. Only the last iteration
// writes memory. The coefficients are read once a pass from memory; the later iterations read
// them again a plane or a few behind, from the cache.
//
// Each iteration after the first needs one more column of its predecessor on every side, so a
// team of tj x tk threads (iteration 1's columns) owns the (tj - 2 (steps - 1)) x (tk - 2 (steps -
// 1)) columns at its centre, and the iterations before the last also update the planes up to
// steps - t beyond the team's run. What the teams compute twice, they compute alike: p after
// a pass equals p after `steps` single sweeps bit for bit, since every point is updated by the
// same expression (stencil.hpp) from the same values.
//
// The boundary (a plane, row or column that the sweep does not update) keeps p's values in every
// iteration, so the rings copy it from p. The planes before i_first and at i_end() are fixed for
// the whole pass, as one rank's boundary is; a halo plane from a neighbour is not, so on more than
// one rank this sweep would need a halo `steps` planes deep, which kmini does not build yet.
#pragma once

#include <cstddef>

#include <Kokkos_Core.hpp>

#include "himeno/gosa.hpp"
#include "himeno/stencil.hpp"
#include "himeno/sweeps.hpp"

namespace kmini::himeno {

struct TemporalShape {
  int planes;  // output planes along i per team, at most (the runs split the planes evenly)
  int tj, tk;  // a team's threads: the columns of its first iteration
  int steps;   // iterations a pass, 2 .. kMaxTimeSteps

  // The columns a team updates in the last iteration: each iteration shrinks the tile by one
  // column on every side.
  int owned_j() const { return tj - 2 * (steps - 1); }
  int owned_k() const { return tk - 2 * (steps - 1); }
};

template <class T, class ExecutionSpace, class Sink>
struct TemporalSweep {
  using value_type = StepSums;  // one gosa sum per iteration of the pass
  using Member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  // (ring slot, jj, kk): iteration t's ring is slots kSlots t .. kSlots t + 2 (t = 0: p).
  using Planes =
      Kokkos::View<T***, Kokkos::LayoutRight, typename ExecutionSpace::scratch_memory_space,
                   Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  // Three planes a ring: an iteration reads its predecessor's planes x - 1 .. x + 1 while the
  // predecessor writes x + 2 into the slot of x - 1, which the team finished reading a barrier
  // earlier (the barrier before the next iteration's turn).
  static constexpr int kSlots = 3;

  SweepArrays<T, typename ExecutionSpace::memory_space> a;
  Sink sink;
  TemporalShape shape;
  TeamTiling tiling;  // over the owned columns

  TemporalSweep(const SweepArrays<T, typename ExecutionSpace::memory_space>& arrays_,
                const Sink& sink_, const TemporalShape& shape_)
      : a(arrays_),
        sink(sink_),
        shape(shape_),
        tiling(MarchingShape{shape_.planes, shape_.owned_j(), shape_.owned_k(), false},
               arrays_.i_first, arrays_.ni, arrays_.nj, arrays_.nk) {}

  int league_size() const { return tiling.league_size(); }
  static std::size_t scratch_bytes(const TemporalShape& shape) {
    return Planes::shmem_size(kSlots * shape.steps, shape.tj + 2, shape.tk + 2);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, StepSums& local) const {
    const TeamTiling::Tile tile = tiling.tile(team.league_rank());
    const int steps = shape.steps;
    const Planes planes(team.team_scratch(0), kSlots * steps, shape.tj + 2, shape.tk + 2);
    // Column (jj, kk) of the rings is (origin.j + jj, origin.k + kk): `steps` before the first
    // owned column. A thread's first column is worked out once: the division it takes costs more
    // than the stencil's integer work (the team covers its tile in one round on a GPU).
    const Tiles tiles{tile.j0 + 1 - steps, tile.k0 + 1 - steps, 1 + team.team_rank() / shape.tk,
                      1 + team.team_rank() % shape.tk};
    const auto& bound = sink.bind(team);
    // Iteration t (0: p as loaded) holds planes [first_plane(t), end_plane(t)) and reaches plane x
    // at step x + t - 1.
    const auto first_plane = [&](int t) {
      const int wanted = tile.i_begin - (steps - t);
      return wanted > a.i_first - 1 ? wanted : a.i_first - 1;
    };
    const auto end_plane = [&](int t) {
      const int wanted = tile.i_end + (steps - t);
      return wanted < a.i_end() + 1 ? wanted : a.i_end() + 1;
    };
    for (int step = first_plane(0) - 1; step <= tile.i_end + steps - 2; ++step) {
      if (step + 1 < end_plane(0)) load(team, planes, tiles, step + 1);
      for (int t = 1; t <= steps; ++t) {
        team.team_barrier();
        const int x = step + 1 - t;
        if (x < first_plane(t) || x >= end_plane(t)) continue;
        double sum = 0.0;
        advance(team, planes, tiles, tile, t, x, bound.at_step(t - 1), sum);
        // A constant index for each element keeps the sums in registers.
        for (int s = 0; s < kMaxTimeSteps; ++s)
          if (s == t - 1) local.value[s] += sum;
      }
    }
  }
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    StepSums unused;
    (*this)(team, unused);
  }

 private:
  struct Tiles {
    int j, k;              // the rings' column (0, 0)
    int mine_jj, mine_kk;  // the thread's column in its first round
  };

  // The ring column of the round starting at `first`: the thread's own in the first round.
  KOKKOS_INLINE_FUNCTION void column_of(const Tiles& tiles, int first, int column, int& jj,
                                        int& kk) const {
    if (first == 0) {
      jj = tiles.mine_jj;
      kk = tiles.mine_kk;
    } else {
      jj = 1 + column / shape.tk;
      kk = 1 + column % shape.tk;
    }
  }

  // Plane x of p into ring 0, over the whole (tj + 2) x (tk + 2) tile: each thread its columns,
  // then the tile's border, 2 (tk + 2) + 2 tj points.
  KOKKOS_INLINE_FUNCTION void load(const Member& team, const Planes& planes, const Tiles& tiles,
                                   int x) const {
    const int slot = x % kSlots;
    const auto copy = [&](int jj, int kk) {
      const int j = tiles.j + jj, k = tiles.k + kk;
      if (j >= 0 && j <= a.nj + 1 && k >= 0 && k <= a.nk + 1) planes(slot, jj, kk) = a.p(x, j, k);
    };
    const int columns = shape.tj * shape.tk;
    for (int first = 0; first < columns; first += team.team_size()) {
      const int column = first + team.team_rank();
      if (column >= columns) break;
      int jj, kk;
      column_of(tiles, first, column, jj, kk);
      copy(jj, kk);
    }
    const int wide = shape.tk + 2;
    for (int b = team.team_rank(); b < 2 * wide + 2 * shape.tj; b += team.team_size()) {
      if (b < 2 * wide) {
        copy(b < wide ? 0 : shape.tj + 1, b < wide ? b : b - wide);
      } else {
        copy(1 + (b - 2 * wide) / 2, (b & 1) != 0 ? shape.tk + 1 : 0);
      }
    }
  }

  // Iteration t at plane x over its columns: from ring t - 1 into ring t, or into wrk2 for the
  // last. A team smaller than the tile (host backends) takes the columns in rounds; every thread
  // makes the same number of calls to the sink.
  template <class Bound>
  KOKKOS_INLINE_FUNCTION void advance(const Member& team, const Planes& planes, const Tiles& tiles,
                                      const TeamTiling::Tile& tile, int t, int x,
                                      const Bound& add_term, double& sum) const {
    const int steps = shape.steps;
    const int columns = shape.tj * shape.tk;
    const bool last = t == steps;
    const bool plane_inside = x >= a.i_first && x < a.i_end();
    const bool plane_owned = x >= tile.i_begin && x < tile.i_end;
    const int slot = kSlots * t + x % kSlots;
    for (int first = 0; first < columns; first += team.team_size()) {
      const int column = first + team.team_rank();
      int jj, kk;
      column_of(tiles, first, column, jj, kk);
      const int j = tiles.j + jj, k = tiles.k + kk;
      // Iteration t's columns: one fewer on each side than its predecessor's.
      const bool in_tile = column < columns && jj >= t && jj <= shape.tj + 1 - t && kk >= t &&
                           kk <= shape.tk + 1 - t;
      const bool exists = in_tile && j >= 0 && j <= a.nj + 1 && k >= 0 && k <= a.nk + 1;
      const bool inside = exists && plane_inside && j >= 1 && j <= a.nj && k >= 1 && k <= a.nk;
      double term = 0.0;
      if (inside) {
        T coef[kCoefficients];
        for (int c = 0; c < kCoefficients; ++c)
          coef[c] = a.coef(c, x, j, k);
        const ScratchPoint<T, Planes, kSlots> point{coef, planes, kSlots * (t - 1), x, jj, kk};
        const T ss = residual(point);
        const T updated = point.p(0, 0, 0) + a.omega * ss;
        if (last) {
          a.wrk2(x, j, k) = updated;
        } else {
          planes(slot, jj, kk) = updated;
        }
        term = static_cast<double>(ss * ss);
      } else if (exists && !last) {
        planes(slot, jj, kk) = planes(slot - kSlots, jj, kk);  // the boundary keeps its value
      }
      const bool owned = inside && plane_owned && jj >= steps && jj <= shape.tj + 1 - steps &&
                         kk >= steps && kk <= shape.tk + 1 - steps;
      add_term(owned, x, j, k, term, sum);
    }
  }
};

}  // namespace kmini::himeno
