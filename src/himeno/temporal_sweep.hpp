// The temporal sweep: `steps` Jacobi iterations in one pass over memory. A team owns a tile of
// (j, k) columns and a run of planes along i, and marches along i with each iteration one plane
// behind the one before it: at each step iteration 1 updates the next plane from p (as the packed
// sweep does: a thread per 16-byte pack of consecutive k points, p's neighbours through the
// cache), iteration 2 the plane behind it from iteration 1's last three planes, which the team
// keeps in team scratch, and so on. Only the last iteration writes memory. The coefficients are
// read once a pass from memory; the later iterations read them again a plane or a few behind,
// from the cache (where the neighbouring teams' overlapping edges are not always found:
// docs/performance-notes.md, himeno, the temporal sweep).
//
// Each iteration after the first needs its predecessor one row and one pack further on every
// side, so a team of tj x tk threads (iteration 1's rows and packs) owns the
// (tj - 2 (steps - 1)) x (tk - 2 (steps - 1)) rows and packs at its centre, and iteration t also
// updates the steps - t planes beyond each end of the team's run. What the teams compute twice,
// they compute alike: p after a pass equals p after `steps` single sweeps bit for bit, since every
// point is updated by the same expression (stencil.hpp) from the same values.
//
// The boundary (a plane, row or column that the sweep does not update) keeps p's values in every
// iteration, so the rings copy it. Along i, a side of the swept planes is either the boundary,
// fixed for the whole pass, or a neighbour's: its points change every iteration, so the arrays
// hold `steps` of its planes (a halo that deep, exchanged once a pass) and iteration t updates
// steps - t of them from the ones further out, as the teams do at their runs' ends. Only the
// swept planes' points count towards gosa. The rows and columns j, k are not split among ranks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include <Kokkos_Core.hpp>

#include "himeno/gosa.hpp"
#include "himeno/pack.hpp"
#include "himeno/packed_sweep.hpp"
#include "himeno/stencil.hpp"
#include "himeno/sweeps.hpp"

namespace kmini::himeno {

struct TemporalShape {
  int planes;  // output planes along i per team, at most (the runs split the planes evenly)
  int tj, tk;  // a team's threads: the rows and packs of its first iteration
  int steps;   // iterations a pass, 2 .. kMaxTimeSteps

  // The rows and packs a team updates in the last iteration: each iteration shrinks the tile by
  // one row and one pack on every side.
  int owned_j() const { return tj - 2 * (steps - 1); }
  int owned_k() const { return tk - 2 * (steps - 1); }
};

// DeepHalo: whether the arrays hold a neighbour's planes that a pass updates (reach_low or
// reach_high above 0). Without, the bounds of every iteration's planes are those of one rank, as
// plain as before the halo was deepened (which was 3% faster at L on the H100 than the same code
// with reaches of 0 at run time: docs/performance-notes.md).
template <class T, class ExecutionSpace, class Sink, bool DeepHalo = false>
struct TemporalSweep {
  using value_type = StepSums;  // one gosa sum per iteration of the pass
  // At most kMaxThreads a team, and registers for kMinTeams of them an SM: left to itself nvcc
  // gives the sweep 160 registers, one team of 256 an SM (three teams spill; performance notes).
  static constexpr int kMaxThreads = 256;
  static constexpr int kMinTeams = 2;
  using Policy = Kokkos::TeamPolicy<ExecutionSpace, Kokkos::LaunchBounds<kMaxThreads, kMinTeams>>;
  using Member = typename Policy::member_type;
  static constexpr int W = Pack<T>::size;
  // (slot, row, point): iteration t's ring (t = 1 .. steps - 1) is slots kSlots (t - 1) ..
  // kSlots t - 1, each a plane of the team's tj rows and W tk points.
  using Planes = ScratchPlanes<T, ExecutionSpace>;
  // Three planes a ring: an iteration reads its predecessor's planes x - 1 .. x + 1, and the
  // predecessor's next plane goes into the slot of x - 1 after a barrier.
  static constexpr int kSlots = 3;

  SweepArrays<T, typename ExecutionSpace::memory_space> a;
  Sink sink;
  TemporalShape shape;
  TeamTiling tiling;  // over the owned rows and packs

  TemporalSweep(const SweepArrays<T, typename ExecutionSpace::memory_space>& arrays_,
                const Sink& sink_, const TemporalShape& shape_)
      : a(arrays_),
        sink(sink_),
        shape(shape_),
        tiling(MarchingShape{shape_.planes, shape_.owned_j(), shape_.owned_k(), false},
               arrays_.i_first, arrays_.ni, arrays_.nj, (arrays_.nk + W - 1) / W) {
    if (!rows_aligned(a.coef, kPackBytes) || !rows_aligned(a.p, kPackBytes) ||
        !rows_aligned(a.wrk2, kPackBytes)) {
      throw std::logic_error("himeno: the temporal sweep needs rows aligned to 16 bytes");
    }
  }

  int league_size() const { return tiling.league_size(); }
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes(const TemporalShape& shape) {
    return ring_bytes(shape) + kPackBytes;  // room to align the rings for 16-byte accesses
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, StepSums& local) const {
    const TeamTiling::Tile tile = tiling.tile(team.league_rank());
    const int steps = shape.steps;
    const Planes rings(aligned_rings(team), kSlots * (steps - 1), shape.tj, W * shape.tk);
    // Ring row r and pack q stand for j = tiles.j + r and k = tiles.k + W q: steps - 1 rows and
    // packs before the first owned. A thread's first pack is worked out once: the division it takes
    // costs more than the stencil's integer work (the team covers its tile in one round on a GPU).
    const Tiles tiles{tile.j0 + 2 - steps, 1 + W * (tile.k0 + 1 - steps),
                      team.team_rank() / shape.tk, team.team_rank() % shape.tk};
    const auto& bound = sink.bind(team);
    // Iteration t holds planes [first_plane(t), end_plane(t)) and reaches plane x at step
    // x + t - 1.
    const auto first_plane = [&](int t) {
      const int wanted = tile.i_begin - (steps - t);
      const int held = a.i_first - reach_low(t) - 1;
      return wanted > held ? wanted : held;
    };
    const auto end_plane = [&](int t) {
      const int wanted = tile.i_end + (steps - t);
      const int held = a.i_end() + reach_high(t) + 1;
      return wanted < held ? wanted : held;
    };
    for (int step = first_plane(1); step <= tile.i_end + steps - 2; ++step) {
      for (int t = 1; t <= steps; ++t) {
        // Before iteration 1: the slot it writes was read in the last step's iteration 2.
        team.team_barrier();
        const int x = step + 1 - t;
        if (x < first_plane(t) || x >= end_plane(t)) continue;
        double sum = 0.0;
        advance(team, rings, tiles, tile, t, x, bound.at_step(t - 1), sum);
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
    int j, k;            // ring row 0's j, pack 0's first k
    int mine_r, mine_q;  // the thread's row and pack in its first round
  };

  // Where a pack of a ring stands.
  struct Place {
    int r, q;  // ring row and pack
    int j, k;  // its row and first point
  };

  // The neighbour's planes iteration t updates below i_first and from i_end() on.
  KOKKOS_INLINE_FUNCTION int reach_low(int t) const {
    if constexpr (!DeepHalo) return 0;
    return a.reach_low < shape.steps - t ? a.reach_low : shape.steps - t;
  }
  KOKKOS_INLINE_FUNCTION int reach_high(int t) const {
    if constexpr (!DeepHalo) return 0;
    return a.reach_high < shape.steps - t ? a.reach_high : shape.steps - t;
  }

  // Iteration t's slot for plane x.
  KOKKOS_INLINE_FUNCTION int ring_slot(int t, int x) const { return kSlots * (t - 1) + x % kSlots; }

  KOKKOS_INLINE_FUNCTION static std::size_t ring_bytes(const TemporalShape& shape) {
    return sizeof(T) * static_cast<std::size_t>(kSlots * (shape.steps - 1)) *
           static_cast<std::size_t>(shape.tj) * static_cast<std::size_t>(W * shape.tk);
  }
  // Team scratch is aligned to fewer than 16 bytes by some backends: the rings start at the first
  // 16-byte boundary of theirs.
  KOKKOS_INLINE_FUNCTION T* aligned_rings(const Member& team) const {
    const auto start =
        reinterpret_cast<std::uintptr_t>(team.team_scratch(0).get_shmem(scratch_bytes(shape)));
    return reinterpret_cast<T*>((start + kPackBytes - 1) / kPackBytes * kPackBytes);
  }

  // Iteration t at plane x over its rows and packs: from p (t = 1) or ring t - 1 into ring t, or
  // into wrk2 for the last. A team smaller than the tile (host backends) takes the packs in
  // rounds; every thread makes the same number of calls to the sink.
  template <class Bound>
  KOKKOS_INLINE_FUNCTION void advance(const Member& team, const Planes& rings, const Tiles& tiles,
                                      const TeamTiling::Tile& tile, int t, int x,
                                      const Bound& add_term, double& sum) const {
    const int steps = shape.steps;
    const int columns = shape.tj * shape.tk;
    const bool last = t == steps;
    const bool plane_inside = x >= a.i_first - reach_low(t) && x < a.i_end() + reach_high(t);
    const bool plane_owned = x >= tile.i_begin && x < tile.i_end;
    for (int first = 0; first < columns; first += team.team_size()) {
      const int column = first + team.team_rank();
      Place at;
      at.r = first == 0 ? tiles.mine_r : column / shape.tk;
      at.q = first == 0 ? tiles.mine_q : column % shape.tk;
      at.j = tiles.j + at.r;
      at.k = tiles.k + W * at.q;
      // Iteration t's rows and packs: one fewer on each side than its predecessor's.
      const bool in_tile = column < columns && at.r >= t - 1 && at.r <= shape.tj - t &&
                           at.q >= t - 1 && at.q <= shape.tk - t;
      const bool row_exists = in_tile && at.j >= 0 && at.j <= a.nj + 1;
      // The pack's points that the sweep updates: all, some (the row's last pack), or none (a
      // boundary plane or row, or a pack before or after the row's points).
      const bool updates =
          row_exists && plane_inside && at.j >= 1 && at.j <= a.nj && at.k >= 1 && at.k <= a.nk;
      Pack<T> value;
      double terms[W] = {};
      if (updates) {
        update(rings, t, x, at, value, terms);
      } else if (row_exists) {
        keep(rings, t, x, at, value);
      }
      if (row_exists) {
        if (!last) {
          store_pack(&rings(ring_slot(t, x), at.r, W * at.q), value);
        } else if (updates) {
          T* out = &a.wrk2(x, at.j, at.k);
          if (at.k + W - 1 <= a.nk) {
            store_pack(out, value);
          } else {
            for (int n = 0; n < W; ++n)
              if (at.k + n <= a.nk) out[n] = value.value[n];
          }
        }
      }
      const bool owned = updates && plane_owned && at.r >= steps - 1 && at.r <= shape.tj - steps &&
                         at.q >= steps - 1 && at.q <= shape.tk - steps;
      for (int n = 0; n < W; ++n)
        add_term(owned && at.k + n <= a.nk, x, at.j, at.k + n, terms[n], sum);
    }
  }

  // A pack whose points the sweep updates (all but those past the row's last, which keep their
  // value): its coefficients from memory, p's neighbours from p or from ring t - 1.
  KOKKOS_INLINE_FUNCTION void update(const Planes& rings, int t, int x, const Place& at,
                                     Pack<T>& value, double (&terms)[W]) const {
    T coef[kCoefficients][W];
    for (int c = 0; c < kCoefficients; ++c) {
      const Pack<T> pack = load_pack(&a.coef(c, x, at.j, at.k));
      for (int n = 0; n < W; ++n)
        coef[c][n] = pack.value[n];
    }
    // One neighbourhood for both sources, so that the stencil is inlined once.
    const int below = ring_slot(t - 1, x - 1), centre = ring_slot(t - 1, x);
    const int above = ring_slot(t - 1, x + 1);
    const PackNeighbourhood<T, W> around(
        typename PackNeighbourhood<T, W>::FromRows{}, [&](int di, int dj) -> const T* {
          if (t == 1) return &a.p(x + di, at.j + dj, at.k);
          return &rings(di < 0 ? below : (di > 0 ? above : centre), at.r + dj, W * at.q);
        });
    for (int n = 0; n < W; ++n) {
      const T here = around.at(0, 0, 0, n);
      if (at.k + n <= a.nk) {
        const T ss = residual(PackPoint<T, W>{coef, around, n});
        value.value[n] = here + a.omega * ss;
        terms[n] = static_cast<double>(ss * ss);
      } else {
        value.value[n] = here;
      }
    }
  }

  // A pack the sweep does not update: its points keep their values, from p (t = 1) or ring t - 1.
  // (Points past the grid get what is there, and nothing reads them.)
  KOKKOS_INLINE_FUNCTION void keep(const Planes& rings, int t, int x, const Place& at,
                                   Pack<T>& value) const {
    if (t == 1) {
      for (int n = 0; n < W; ++n) {
        const int k = at.k + n;
        value.value[n] = k >= 0 && k <= a.nk + 1 ? a.p(x, at.j, k) : T(0);
      }
    } else {
      value = load_pack(&rings(ring_slot(t - 1, x), at.r, W * at.q));
    }
  }
};

}  // namespace kmini::himeno
