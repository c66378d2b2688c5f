#include "bridge/time_grid.hpp"

#include <cmath>
#include <sstream>

namespace kmini::bridge {

TimeGrid uniform_grid(double t0, double t_end, int steps) {
  TimeGrid grid;
  grid.t0 = t0;
  grid.times.resize(static_cast<std::size_t>(steps));
  for (int i = 1; i <= steps; ++i) {
    // The last time is t_end exactly, not t0 plus a rounded sum of steps.
    grid.times[static_cast<std::size_t>(i) - 1] =
        i == steps ? t_end : t0 + (t_end - t0) * static_cast<double>(i) / steps;
  }
  return grid;
}

std::string time_grid_problem(const TimeGrid& grid) {
  if (grid.times.empty()) return "there are no times after t0";
  for (int i = 1; i <= grid.steps(); ++i) {
    if (!std::isfinite(grid.at(i)) || !(grid.at(i) > grid.at(i - 1))) {
      std::ostringstream out;
      out.precision(17);
      out << "times must increase strictly from t0: t_" << i << " = " << grid.at(i)
          << " is not after " << (i == 1 ? "t0" : "t_" + std::to_string(i - 1)) << " = "
          << grid.at(i - 1);
      return out.str();
    }
  }
  return "";
}

}  // namespace kmini::bridge
