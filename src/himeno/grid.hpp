// The Himeno grid and its split across MPI ranks.
//
// Sizes are the original's array dimensions (MIMAX, MJMAX, MKMAX). Like himenoBMTxps.c, the
// computation uses imax = MIMAX - 1 points along i (0 .. imax-1): planes 0 and imax-1 are the
// fixed boundary, 1 .. imax-2 the interior that the Jacobi sweep updates. The original's extra
// plane at MIMAX-1 is never read; kmini does not allocate it.
//
// Ranks split the interior points of each axis into near-equal contiguous blocks. A rank's arrays
// hold its block plus one layer on each side: a neighbour's point (the halo) or the boundary.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace kmini::himeno {

constexpr int kAxes = 3;
using Extents = std::array<std::int64_t, kAxes>;

struct NamedSize {
  const char* name;
  Extents array_dims;  // MIMAX, MJMAX, MKMAX
};

// XS (33,33,65) .. XL (513,513,1025), as in the original.
const std::vector<NamedSize>& named_sizes();
std::vector<std::string> size_names();

// The smallest array dimension: 5 leaves 2 interior points (the fewest a rank split makes sense
// of) between the boundary planes and the unused plane.
constexpr std::int64_t kMinArrayDim = 5;

struct GlobalGrid {
  Extents array_dims;  // MIMAX, MJMAX, MKMAX

  // Points of the computational grid along an axis, boundaries included (imax, jmax, kmax).
  std::int64_t points(int axis) const { return array_dims[axis] - 1; }
  // Interior points along an axis (imax - 2).
  std::int64_t interior(int axis) const { return array_dims[axis] - 3; }
  double interior_points() const;
  // The original's flop count per sweep: 34 per interior point (fflop).
  double flops_per_sweep() const { return 34.0 * interior_points(); }
};

// Which rank has which block. `dims` ranks along each axis; coordinates are row-major in rank.
struct Decomposition {
  Extents dims{1, 1, 1};
  Extents coords{0, 0, 0};
  std::array<std::array<int, 2>, kAxes> neighbours{};  // [axis][low, high]; -1 at the boundary
  Extents first{1, 1, 1};  // global index of the first interior point this rank owns, per axis
  Extents owned{0, 0, 0};  // interior points owned, per axis

  // Local array extents: owned points and one layer each side.
  Extents local_dims() const { return {owned[0] + 2, owned[1] + 2, owned[2] + 2}; }
  double owned_points() const {
    return static_cast<double>(owned[0]) * static_cast<double>(owned[1]) *
           static_cast<double>(owned[2]);
  }
  bool single() const { return dims[0] * dims[1] * dims[2] == 1; }
};

// The ranks along each axis for `ranks` ranks: `requested` when given (its product must be
// `ranks`), else MPI_Dims_create's balanced choice. Throws std::invalid_argument with the reason
// when the request cannot work (wrong product, more ranks than interior points on an axis).
Extents choose_dims(const GlobalGrid& grid, int ranks, const std::vector<std::int64_t>& requested);

Decomposition decompose(const GlobalGrid& grid, const Extents& dims, int rank);

}  // namespace kmini::himeno
