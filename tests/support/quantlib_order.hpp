// QuantLib's construction order, transcribed from its BrownianBridge::initialize
// (ql/methods/montecarlo/brownianbridge.cpp) independently of kmini's own, for tests to compare.
#pragma once

#include <cstddef>
#include <vector>

namespace kmini::testing {

// Its loop over `map` as QuantLib writes it (map[i] != 0 once point i is built), returning the
// 1-based time index of each variate's point.
inline std::vector<int> quantlib_loop(int size) {
  std::vector<std::size_t> map(static_cast<std::size_t>(size), 0);
  map[static_cast<std::size_t>(size) - 1] = 1;
  std::vector<int> bridge_index{size};
  for (std::size_t j = 0, i = 1; i < static_cast<std::size_t>(size); ++i) {
    while (map[j] != 0U)
      ++j;
    std::size_t k = j;
    while (map[k] == 0U)
      ++k;
    const std::size_t l = j + ((k - 1 - j) >> 1);
    map[l] = i;
    bridge_index.push_back(static_cast<int>(l) + 1);
    j = k + 1;
    if (j >= static_cast<std::size_t>(size)) j = 0;
  }
  return bridge_index;
}

}  // namespace kmini::testing
