#include "himeno/grid.hpp"

#include <stdexcept>

#include <mpi.h>

namespace kmini::himeno {

const std::vector<NamedSize>& named_sizes() {
  static const std::vector<NamedSize> sizes{
      {"XS", {33, 33, 65}},   {"S", {65, 65, 129}},     {"M", {129, 129, 257}},
      {"L", {257, 257, 513}}, {"XL", {513, 513, 1025}},
  };
  return sizes;
}

std::vector<std::string> size_names() {
  std::vector<std::string> names;
  for (const auto& size : named_sizes())
    names.emplace_back(size.name);
  return names;
}

double GlobalGrid::interior_points() const {
  return static_cast<double>(interior(0)) * static_cast<double>(interior(1)) *
         static_cast<double>(interior(2));
}

namespace {

const char* const kAxisNames[kAxes] = {"i", "j", "k"};

std::string describe(const Extents& dims) {
  return "[" + std::to_string(dims[0]) + ", " + std::to_string(dims[1]) + ", " +
         std::to_string(dims[2]) + "]";
}

}  // namespace

Extents choose_dims(const GlobalGrid& grid, int ranks, const std::vector<std::int64_t>& requested) {
  Extents dims{0, 0, 0};
  if (!requested.empty()) {
    if (requested.size() != kAxes) {
      throw std::invalid_argument("needs three entries [px, py, pz], got " +
                                  std::to_string(requested.size()));
    }
    dims = {requested[0], requested[1], requested[2]};
    if (dims[0] * dims[1] * dims[2] != ranks) {
      throw std::invalid_argument(describe(dims) + " makes " +
                                  std::to_string(dims[0] * dims[1] * dims[2]) +
                                  " ranks, but the job has " + std::to_string(ranks));
    }
  } else {
    int chosen[kAxes] = {0, 0, 0};
    MPI_Dims_create(ranks, kAxes, chosen);
    dims = {chosen[0], chosen[1], chosen[2]};
  }
  for (int axis = 0; axis < kAxes; ++axis) {
    if (dims[axis] > grid.interior(axis)) {
      throw std::invalid_argument(
          describe(dims) + " puts " + std::to_string(dims[axis]) + " ranks along " +
          kAxisNames[axis] + ", which has only " + std::to_string(grid.interior(axis)) +
          " interior planes; give ranks: [px, py, pz] with at most that many along " +
          kAxisNames[axis]);
    }
  }
  return dims;
}

Decomposition decompose(const GlobalGrid& grid, const Extents& dims, int rank) {
  Decomposition d;
  d.dims = dims;
  // Row-major: the last axis varies fastest with the rank.
  d.coords[2] = rank % dims[2];
  d.coords[1] = (rank / dims[2]) % dims[1];
  d.coords[0] = rank / (dims[2] * dims[1]);
  for (int axis = 0; axis < kAxes; ++axis) {
    const std::int64_t n = grid.interior(axis);
    const std::int64_t base = n / dims[axis];
    const std::int64_t extra = n % dims[axis];  // the first `extra` blocks get one more point
    const std::int64_t c = d.coords[axis];
    d.owned[axis] = base + (c < extra ? 1 : 0);
    d.first[axis] = 1 + c * base + (c < extra ? c : extra);
    for (int side = 0; side < 2; ++side) {
      Extents other = d.coords;
      other[axis] += side == 0 ? -1 : 1;
      d.neighbours[axis][side] =
          other[axis] < 0 || other[axis] >= dims[axis]
              ? -1
              : static_cast<int>((other[0] * dims[1] + other[1]) * dims[2] + other[2]);
    }
  }
  return d;
}

}  // namespace kmini::himeno
