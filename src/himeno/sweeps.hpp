// The Jacobi sweeps: each computes wrk2 = p + omega ss over a rank's owned points (local indices
// 1 .. owned) and hands every ss^2 to a gosa sink (gosa.hpp). They differ only in how points map
// to threads:
//
//   MDRangeSweep    one point per index of a Kokkos MDRangePolicy over (i, j, k) with a tile;
//                   the straightforward port. (Kokkos 3.4 on CUDA makes the tile the thread
//                   block, threadIdx.x along i, so the tile decides coalescing.)
//   MarchingSweep   a team covers a (tj x tk) tile of a (j, k) plane and marches along i over
//                   `planes` planes, each thread keeping p's i-neighbours in registers: seed
//                   001's lesson that a 2-D block shape suits this stencil. With sync_planes the
//                   team meets at a barrier after each plane, seed 001's __syncthreads cache
//                   tuning: the team's threads then read neighbouring rows while they are in L1.
//   SharedSweep     the marching team with p's planes staged in team scratch (below).
//   PackedSweep     a thread per 16-byte pack of consecutive k points, vector loads, a team per
//                   tile of a plane (packed_sweep.hpp).
//   RowSweep        the original's loops, i and j shared among host threads, k innermost:
//                   patterns (5) and (6).
#pragma once

#include <Kokkos_Core.hpp>

#include "himeno/fields.hpp"
#include "himeno/stencil.hpp"

namespace kmini::himeno {

template <class T, class MemorySpace>
struct SweepArrays {
  // Plain loads: Kokkos 3.4 turns RandomAccess const Views into texture fetches on CUDA, which
  // slowed the mdrange sweep (docs/performance-notes.md, himeno).
  // The padded arrays' windows (padded_array.hpp).
  using Coefficients = Kokkos::View<const T****, Kokkos::LayoutStride, MemorySpace>;
  using Input = Kokkos::View<const T***, Kokkos::LayoutStride, MemorySpace>;
  using Output = Kokkos::View<T***, Kokkos::LayoutStride, MemorySpace>;

  Coefficients coef;
  Input p;
  Output wrk2;
  T omega;
  int i_first;     // the first plane along i to sweep
  int ni, nj, nk;  // points to sweep per axis: planes i_first .. i_first + ni - 1, all owned j, k
  int i_owned;     // the first owned plane, wherever a part of the sweep (planes()) starts
  // Planes beyond the swept ones, on the low and the high side along i, that hold a neighbour's
  // points a temporal pass may update too (the halo's layers but the outermost); 0 where the
  // plane next to the swept ones is fixed for the pass (the boundary, or a halo one layer deep).
  int reach_low = 0, reach_high = 0;

  SweepArrays(const Fields<T, MemorySpace>& fields, T omega_)
      : coef(fields.coef.view),
        p(fields.p.view),
        wrk2(fields.wrk2.view),
        omega(omega_),
        i_first(fields.halo_i),
        ni(static_cast<int>(p.extent(0)) - 2 * fields.halo_i),
        nj(static_cast<int>(p.extent(1)) - 2),
        nk(static_cast<int>(p.extent(2)) - 2),
        i_owned(fields.halo_i) {}

  // The same sweep over `count` planes from `first` only: the overlapped halo exchange sweeps the
  // planes it sends first, and the rest while they travel.
  SweepArrays planes(int first, int count) const {
    SweepArrays part = *this;
    part.i_first = first;
    part.ni = count;
    return part;
  }
  // One past the last plane swept: a plane of p the sweep reads but does not update.
  KOKKOS_INLINE_FUNCTION int i_end() const { return i_first + ni; }
};

template <class T, class ExecutionSpace, class Sink>
struct MDRangeSweep {
  using value_type = double;  // the gosa sum, where the sweep is a reduction
  SweepArrays<T, typename ExecutionSpace::memory_space> a;
  Sink sink;

  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, double& local) const {
    const T ss = residual(ArrayPoint<decltype(a.coef), decltype(a.p)>{a.coef, a.p, i, j, k});
    a.wrk2(i, j, k) = a.p(i, j, k) + a.omega * ss;
    sink.bind(NoTeam{})(true, i, j, k, static_cast<double>(ss * ss), local);
  }
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    double unused = 0.0;
    (*this)(i, j, k, unused);
  }
};

// A team's tile and its run along i, as the input gives them (himeno_app.cpp's parameters).
struct MarchingShape {
  int planes;  // along i, per team
  int tj;
  int tk;
  bool sync_planes;
};

// How the team sweeps cut the owned points: a team per (tj x tk) tile of a (j, k) plane and per
// run of at most `planes` planes along i, k's tiles fastest in the league. The runs split the
// planes evenly (511 planes in runs of at most 85 make 7 runs of 73, not 6 of 85 and one of 1), so
// that no team is left with a short run.
struct TeamTiling {
  MarchingShape shape;
  int i_first, ni, tiles_j, tiles_k;
  int runs, run_planes;  // runs along i, and planes a run (the last may have fewer)

  TeamTiling(const MarchingShape& shape_, int i_first_, int ni_, int nj, int nk)
      : shape(shape_),
        i_first(i_first_),
        ni(ni_),
        tiles_j((nj + shape_.tj - 1) / shape_.tj),
        tiles_k((nk + shape_.tk - 1) / shape_.tk),
        runs((ni_ + shape_.planes - 1) / shape_.planes),
        run_planes(runs > 0 ? (ni_ + runs - 1) / runs : 1) {}

  int league_size() const { return runs * tiles_j * tiles_k; }

  struct Tile {
    int i_begin, i_end;  // the planes it marches through
    int j0, k0;          // the point before its first (j, k): where its halo starts
  };
  KOKKOS_INLINE_FUNCTION Tile tile(int league_rank) const {
    Tile t;
    t.k0 = (league_rank % tiles_k) * shape.tk;
    t.j0 = ((league_rank / tiles_k) % tiles_j) * shape.tj;
    t.i_begin = i_first + (league_rank / (tiles_k * tiles_j)) * run_planes;
    const int last = i_first + ni;
    t.i_end = t.i_begin + run_planes <= last ? t.i_begin + run_planes : last;
    return t;
  }
};

template <class T, class ExecutionSpace, class Sink>
struct MarchingSweep {
  using value_type = double;  // the gosa sum, where the sweep is a reduction
  using Member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  SweepArrays<T, typename ExecutionSpace::memory_space> a;
  Sink sink;
  MarchingShape shape;
  TeamTiling tiling;

  MarchingSweep(const SweepArrays<T, typename ExecutionSpace::memory_space>& arrays,
                const Sink& sink_, const MarchingShape& shape_)
      : a(arrays),
        sink(sink_),
        shape(shape_),
        tiling(shape_, arrays.i_first, arrays.ni, arrays.nj, arrays.nk) {}

  int league_size() const { return tiling.league_size(); }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, double& local) const {
    const TeamTiling::Tile tile = tiling.tile(team.league_rank());
    const int i_begin = tile.i_begin, i_end = tile.i_end, j0 = tile.j0, k0 = tile.k0;
    const auto& add_term = sink.bind(team);
    const int columns = shape.tj * shape.tk;
    const int threads = team.team_size();
    // A team smaller than its tile (host backends) takes the columns in rounds; every thread
    // makes the same number of calls to the sink and the barrier.
    for (int first = 0; first < columns; first += threads) {
      const int column = first + team.team_rank();
      const int j = j0 + 1 + column / shape.tk;
      const int k = k0 + 1 + column % shape.tk;
      const bool inside = column < columns && j <= a.nj && k <= a.nk;
      T below = inside ? a.p(i_begin - 1, j, k) : T(0);
      T here = inside ? a.p(i_begin, j, k) : T(0);
      for (int i = i_begin; i < i_end; ++i) {
        const T above = inside ? a.p(i + 1, j, k) : T(0);
        double term = 0.0;
        if (inside) {
          const T ss = residual(MarchingPoint<decltype(a.coef), decltype(a.p), T>{
              a.coef, a.p, i, j, k, below, here, above});
          a.wrk2(i, j, k) = here + a.omega * ss;
          term = static_cast<double>(ss * ss);
        }
        add_term(inside, i, j, k, term, local);
        if (shape.sync_planes) team.team_barrier();
        below = here;
        here = above;
      }
    }
  }
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    double unused = 0.0;
    (*this)(team, unused);
  }
};

// Planes of a team's tile in team scratch, (slot, j, k) within the tile.
template <class T, class ExecutionSpace>
using ScratchPlanes =
    Kokkos::View<T***, Kokkos::LayoutRight, typename ExecutionSpace::scratch_memory_space,
                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// p's values from a team's ring of planes in team scratch: plane i lives in slot
// first_slot + i % Slots, each slot a (tj + 2) x (tk + 2) tile of a (j, k) plane whose (0, 0) is
// (j0, k0). (The temporal sweep keeps one ring per iteration it holds, one after another.)
template <class T, class Planes, int Slots>
struct ScratchPoint {
  const T (&coef)[kCoefficients];  // the point's coefficients, loaded beforehand
  const Planes& planes;
  int first_slot;
  int i;
  int jj, kk;  // (j, k) within the tile

  KOKKOS_FORCEINLINE_FUNCTION T c(int which) const { return coef[which]; }
  KOKKOS_FORCEINLINE_FUNCTION T p(int di, int dj, int dk) const {
    return planes(first_slot + static_cast<int>(static_cast<unsigned>(i + di) % Slots), jj + dj,
                  kk + dk);
  }
};

// The marching sweep with p staged through team scratch (shared memory on CUDA) instead of
// read through the cache: seed 001's other lesson, shared memory versus cache. Each step loads
// the plane two ahead while the team computes the current one from the three it holds, so one
// barrier per plane suffices. (Two points per thread, or loading the next plane's coefficients
// a step early, made it no faster: see docs/performance-notes.md, himeno.)
template <class T, class ExecutionSpace, class Sink>
struct SharedSweep {
  using value_type = double;
  using Member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using Planes = ScratchPlanes<T, ExecutionSpace>;
  static constexpr int kSlots = 4;
  SweepArrays<T, typename ExecutionSpace::memory_space> a;
  Sink sink;
  MarchingShape shape;
  TeamTiling tiling;

  SharedSweep(const SweepArrays<T, typename ExecutionSpace::memory_space>& arrays_,
              const Sink& sink_, const MarchingShape& shape_)
      : a(arrays_),
        sink(sink_),
        shape(shape_),
        tiling(shape_, arrays_.i_first, arrays_.ni, arrays_.nj, arrays_.nk) {}

  int league_size() const { return tiling.league_size(); }
  static std::size_t scratch_bytes(const MarchingShape& shape) {
    return Planes::shmem_size(kSlots, shape.tj + 2, shape.tk + 2);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, double& local) const {
    const TeamTiling::Tile tile = tiling.tile(team.league_rank());
    const int i_begin = tile.i_begin, i_end = tile.i_end, j0 = tile.j0, k0 = tile.k0;
    const int wide = shape.tk + 2;
    const int ring = (shape.tj + 2) * wide;
    const Planes planes(team.team_scratch(0), kSlots, shape.tj + 2, wide);
    const auto load = [&](int i) {
      for (int e = team.team_rank(); e < ring; e += team.team_size()) {
        const int j = j0 + e / wide;
        const int k = k0 + e % wide;
        if (j <= a.nj + 1 && k <= a.nk + 1) planes(i & 3, e / wide, e % wide) = a.p(i, j, k);
      }
    };
    load(i_begin - 1);
    load(i_begin);
    if (i_begin + 1 <= a.i_end()) load(i_begin + 1);
    team.team_barrier();

    const auto& add_term = sink.bind(team);
    const int columns = shape.tj * shape.tk;
    const int threads = team.team_size();
    for (int i = i_begin; i < i_end; ++i) {
      if (i + 2 <= i_end) load(i + 2);
      for (int first = 0; first < columns; first += threads) {
        const int column = first + team.team_rank();
        const int jj = 1 + column / shape.tk;
        const int kk = 1 + column % shape.tk;
        const int j = j0 + jj;
        const int k = k0 + kk;
        const bool inside = column < columns && j <= a.nj && k <= a.nk;
        double term = 0.0;
        if (inside) {
          T coef[kCoefficients];
          for (int c = 0; c < kCoefficients; ++c)
            coef[c] = a.coef(c, i, j, k);
          const ScratchPoint<T, Planes, kSlots> x{coef, planes, 0, i, jj, kk};
          const T ss = residual(x);
          a.wrk2(i, j, k) = x.p(0, 0, 0) + a.omega * ss;
          term = static_cast<double>(ss * ss);
        }
        add_term(inside, i, j, k, term, local);
      }
      team.team_barrier();
    }
  }
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    double unused = 0.0;
    (*this)(team, unused);
  }
};

template <class T, class ExecutionSpace>
struct RowSweep {
  SweepArrays<T, typename ExecutionSpace::memory_space> a;

  KOKKOS_INLINE_FUNCTION void operator()(int row, double& local) const {
    const int i = a.i_first + row / a.nj;
    const int j = 1 + row % a.nj;
    for (int k = 1; k <= a.nk; ++k) {
      const T ss = residual(ArrayPoint<decltype(a.coef), decltype(a.p)>{a.coef, a.p, i, j, k});
      a.wrk2(i, j, k) = a.p(i, j, k) + a.omega * ss;
      local += static_cast<double>(ss * ss);
    }
  }
};

// The original's copy-back, p = wrk2 over the owned points, as one contiguous copy of the planes
// `first` to `last` along i, padding included: the owned planes, and the halo planes along i that
// the neighbours filled. wrk2's boundary layer equals p's (wrk2 starts as a copy of p and the sweep
// never writes it), its halo layers were filled from the neighbours after the sweep, and the
// padding is zero in both, so the owned points end as after the original's interior loops and p's
// halo layers hold the neighbours' new values. A contiguous device-to-device copy runs at the copy
// ceiling, and beat a kernel copying 16 bytes a thread over only the rows' windows, fewer bytes
// though they are (docs/performance-notes.md, himeno).
template <class ExecutionSpace, class Padded>
void copy_back(const Padded& p, const Padded& wrk2, int first, int last) {
  Kokkos::deep_copy(ExecutionSpace(), p.planes_span(first, last), wrk2.planes_span(first, last));
}

}  // namespace kmini::himeno
