// The times a bridge samples: t_0 (where the value x_0 is known) and t_1 < ... < t_N after it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kmini::bridge {

struct TimeGrid {
  double t0 = 0.0;
  std::vector<double> times;  // t_1 .. t_N

  int steps() const { return static_cast<int>(times.size()); }
  // t_i for i = 0 .. N.
  double at(int i) const { return i == 0 ? t0 : times[static_cast<std::size_t>(i) - 1]; }
};

// N equal steps from t0 to t_N = t_end.
TimeGrid uniform_grid(double t0, double t_end, int steps);

// Why the grid is not a valid bridge grid (no times, a time not after its predecessor, t_0
// included), naming the first offending entry; empty when it is valid.
std::string time_grid_problem(const TimeGrid& grid);

}  // namespace kmini::bridge
