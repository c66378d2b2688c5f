// The packed sweep: each thread updates one pack of consecutive points along k (4 in float, 2 in
// double; pack.hpp) with 16-byte loads of its coefficients and of p's rows, and one 16-byte store.
// A team covers a (tj x tk packs) tile of a (j, k) plane, for a few planes along i in turn; p's
// neighbours come through the cache, as in the fastest public CUDA port's one-point-per-thread
// kernel, but the vector loads put four times the bytes in flight per load instruction. This, with
// the aligned rows and several planes a team, is what brought the sweep to the copy ceiling under
// the byte model (docs/performance-notes.md, himeno).
#pragma once

#include <stdexcept>

#include <Kokkos_Core.hpp>

#include "himeno/pack.hpp"
#include "himeno/padded_array.hpp"
#include "himeno/stencil.hpp"
#include "himeno/sweeps.hpp"

namespace kmini::himeno {

// p around a pack of W points at (i, j, k .. k+W-1). The stencil reads the rows (i, j),
// (i, j±1) and (i±1, j) from k-1 to k+W ("wide": element n + 1 is point n), the (i±1, j±1)
// diagonals at the pack's own points only.
template <class T, int W>
struct PackNeighbourhood {
  T centre[W + 2], j_next[W + 2], j_prev[W + 2], i_next[W + 2], i_prev[W + 2];
  T diagonal[2][2][W];  // [i+1][j+1]

  template <class Array>
  KOKKOS_FORCEINLINE_FUNCTION PackNeighbourhood(const Array& p, int i, int j, int k)
      : PackNeighbourhood(FromRows{}, [&](int di, int dj) { return &p(i + di, j + dj, k); }) {}

  // From rows anywhere (the temporal sweep's team scratch): row(di, dj) is the address of the
  // pack's first point in row (i + di, j + dj), 16-byte aligned, with a point before and after it.
  struct FromRows {};
  template <class Rows>
  KOKKOS_FORCEINLINE_FUNCTION PackNeighbourhood(FromRows, const Rows& row) {
    wide(row(0, 0), centre);
    wide(row(0, 1), j_next);
    wide(row(0, -1), j_prev);
    wide(row(1, 0), i_next);
    wide(row(-1, 0), i_prev);
    for (int di = 0; di < 2; ++di)
      for (int dj = 0; dj < 2; ++dj) {
        const Pack<T> pack = load_pack(row(2 * di - 1, 2 * dj - 1));
        for (int n = 0; n < W; ++n)
          diagonal[di][dj][n] = pack.value[n];
      }
  }

  // Offsets are constants at every call, and n a constant of an unrolled loop: after inlining
  // this is a register.
  KOKKOS_FORCEINLINE_FUNCTION T at(int di, int dj, int dk, int n) const {
    if (di == 0 && dj == 0) return centre[n + 1 + dk];
    if (di == 0) return (dj > 0 ? j_next : j_prev)[n + 1 + dk];
    if (dj == 0) return (di > 0 ? i_next : i_prev)[n + 1 + dk];
    return diagonal[di > 0][dj > 0][n];  // the stencil reads the diagonals at dk = 0 only
  }

 private:
  KOKKOS_FORCEINLINE_FUNCTION static void wide(const T* at_k, T (&row)[W + 2]) {
    const Pack<T> pack = load_pack(at_k);
    row[0] = at_k[-1];
    for (int n = 0; n < W; ++n)
      row[n + 1] = pack.value[n];
    row[W + 1] = at_k[W];
  }
};

// Point n of a pack, for the stencil.
template <class T, int W>
struct PackPoint {
  const T (&coef)[kCoefficients][W];
  const PackNeighbourhood<T, W>& neighbourhood;
  int n;

  KOKKOS_FORCEINLINE_FUNCTION T c(int which) const { return coef[which][n]; }
  KOKKOS_FORCEINLINE_FUNCTION T p(int di, int dj, int dk) const {
    return neighbourhood.at(di, dj, dk, n);
  }
};

// shape: a team of tj rows of tk threads, each thread a pack of each of `planes` planes in turn.
// Several planes a team amortise what a team costs beyond its loads (its launch, and the end of
// its reduction, which waits for its writes to land).
template <class T, class ExecutionSpace, class Sink>
struct PackedSweep {
  using value_type = double;
  using Member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  static constexpr int W = Pack<T>::size;
  SweepArrays<T, typename ExecutionSpace::memory_space> a;
  Sink sink;
  MarchingShape shape;
  TeamTiling tiling;  // over packs along k

  PackedSweep(const SweepArrays<T, typename ExecutionSpace::memory_space>& arrays_,
              const Sink& sink_, const MarchingShape& shape_)
      : a(arrays_),
        sink(sink_),
        shape(shape_),
        tiling(shape_, arrays_.i_first, arrays_.ni, arrays_.nj, (arrays_.nk + W - 1) / W) {
    if (!rows_aligned(a.coef, kPackBytes) || !rows_aligned(a.p, kPackBytes) ||
        !rows_aligned(a.wrk2, kPackBytes)) {
      throw std::logic_error("himeno: the packed sweep needs rows aligned to 16 bytes");
    }
  }

  int league_size() const { return tiling.league_size(); }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, double& local) const {
    const TeamTiling::Tile tile = tiling.tile(team.league_rank());
    const auto& add_term = sink.bind(team);
    const int columns = shape.tj * shape.tk;
    // A team smaller than its tile (host backends) takes the packs in rounds; every thread makes
    // the same number of calls to the sink.
    for (int first = 0; first < columns; first += team.team_size()) {
      const int column = first + team.team_rank();
      const int j = tile.j0 + 1 + column / shape.tk;
      const int k = 1 + (tile.k0 + column % shape.tk) * W;
      const bool inside = column < columns && j <= a.nj && k <= a.nk;
      for (int i = tile.i_begin; i < tile.i_end; ++i) {
        double terms[W] = {};
        if (inside) update(i, j, k, terms);
        for (int n = 0; n < W; ++n)
          add_term(inside && k + n <= a.nk, i, j, k + n, terms[n], local);
      }
    }
  }
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    double unused = 0.0;
    (*this)(team, unused);
  }

 private:
  // The pack at (i, j, k ..): wrk2 and each point's ss^2 (0 past the row's last owned point,
  // where the pack reads the boundary and the padding and writes nothing).
  KOKKOS_FORCEINLINE_FUNCTION void update(int i, int j, int k, double (&terms)[W]) const {
    T coef[kCoefficients][W];
    for (int c = 0; c < kCoefficients; ++c) {
      const Pack<T> pack = load_pack_streaming(&a.coef(c, i, j, k));
      for (int n = 0; n < W; ++n)
        coef[c][n] = pack.value[n];
    }
    const PackNeighbourhood<T, W> x(a.p, i, j, k);
    Pack<T> out;
    for (int n = 0; n < W; ++n) {
      const T ss = residual(PackPoint<T, W>{coef, x, n});
      out.value[n] = x.at(0, 0, 0, n) + a.omega * ss;
      terms[n] = k + n <= a.nk ? static_cast<double>(ss * ss) : 0.0;
    }
    T* wrk2 = &a.wrk2(i, j, k);
    if (k + W - 1 <= a.nk) {
      store_pack(wrk2, out);
    } else {
      for (int n = 0; n < W; ++n)
        if (k + n <= a.nk) wrk2[n] = out.value[n];
    }
  }
};

}  // namespace kmini::himeno
