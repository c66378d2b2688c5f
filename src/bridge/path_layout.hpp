// Where component c of point `step` of path `path` lives in a normals or output array.
// time_major puts consecutive paths next to each other, so a warp's threads (one path each) touch
// one contiguous segment per step; path_major keeps each path contiguous, so they touch addresses
// a whole path apart (seed 002's uncoalesced pattern).
#pragma once

#include <cstdint>

#include <Kokkos_Core.hpp>

namespace kmini::bridge {

struct PathLayout {
  std::int64_t paths = 0;
  int steps = 0;
  int dim = 1;
  bool time_major = true;

  KOKKOS_INLINE_FUNCTION std::int64_t index(std::int64_t path, int step, int c) const {
    return time_major ? (std::int64_t(step) * dim + c) * paths + path
                      : (path * steps + step) * dim + c;
  }
  KOKKOS_INLINE_FUNCTION std::int64_t size() const { return paths * steps * dim; }

  // The path, step and component stored at `index`: the inverse of index().
  KOKKOS_INLINE_FUNCTION void locate(std::int64_t at, std::int64_t& path, int& step, int& c) const {
    if (time_major) {
      path = at % paths;
      const std::int64_t rest = at / paths;
      step = int(rest / dim);
      c = int(rest % dim);
    } else {
      c = int(at % dim);
      const std::int64_t rest = at / dim;
      step = int(rest % steps);
      path = rest / steps;
    }
  }
};

}  // namespace kmini::bridge
