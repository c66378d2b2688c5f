#include "bridge/bridge_model.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace kmini::bridge {

std::string cholesky_factor(const std::vector<std::vector<double>>& sigma,
                            std::vector<double>& factor) {
  const std::size_t d = sigma.size();
  for (const auto& row : sigma) {
    if (row.size() != d) {
      return "is not square: " + std::to_string(d) + " rows of " + std::to_string(row.size()) +
             " numbers";
    }
  }
  double largest = 0.0;
  for (const auto& row : sigma)
    for (const double v : row)
      largest = std::max(largest, std::fabs(v));
  for (std::size_t i = 0; i < d; ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (std::fabs(sigma[i][j] - sigma[j][i]) > 1e-12 * largest) {
        std::ostringstream out;
        out.precision(17);
        out << "is not symmetric: entry [" << i << "][" << j << "] = " << sigma[i][j] << " but ["
            << j << "][" << i << "] = " << sigma[j][i];
        return out.str();
      }
    }
  }
  factor.assign(d * d, 0.0);
  for (std::size_t j = 0; j < d; ++j) {
    double pivot = sigma[j][j];
    for (std::size_t k = 0; k < j; ++k)
      pivot -= factor[j * d + k] * factor[j * d + k];
    // A pivot lost to cancellation counts as zero: the matrix is singular to working precision.
    if (!(pivot > 1e-14 * largest)) {
      return "is not positive definite: its leading " + std::to_string(j + 1) + "x" +
             std::to_string(j + 1) + " minor is not positive";
    }
    factor[j * d + j] = std::sqrt(pivot);
    for (std::size_t i = j + 1; i < d; ++i) {
      double v = sigma[i][j];
      for (std::size_t k = 0; k < j; ++k)
        v -= factor[i * d + k] * factor[j * d + k];
      factor[i * d + j] = v / factor[j * d + j];
    }
  }
  return "";
}

std::vector<double> reference_path(const BridgeModel& model, const double* normals) {
  const int n = model.grid.steps();
  const int d = model.dim;
  std::vector<double> x(static_cast<std::size_t>(n + 1) * d, 0.0);  // X(t_0) .. X(t_N)
  std::vector<bool> known(static_cast<std::size_t>(n) + 1, false);
  known[0] = true;
  for (int c = 0; c < d; ++c)
    x[static_cast<std::size_t>(c)] = model.x0[static_cast<std::size_t>(c)];
  for (int k = 0; k < n; ++k) {
    const int p = model.order[static_cast<std::size_t>(k)];
    int left = p - 1;
    while (!known[static_cast<std::size_t>(left)])
      --left;
    int right = p + 1;
    while (right <= n && !known[static_cast<std::size_t>(right)])
      ++right;
    const double t = model.grid.at(p), tl = model.grid.at(left);
    for (int c = 0; c < d; ++c) {
      double cz = 0.0;
      for (int j = 0; j < d; ++j)
        cz += model.factor[static_cast<std::size_t>(c * d + j)] *
              normals[static_cast<std::size_t>(k * d + j)];
      const double xl = x[static_cast<std::size_t>(left * d + c)];
      double value;
      if (right <= n) {
        const double tr = model.grid.at(right);
        const double xr = x[static_cast<std::size_t>(right * d + c)];
        // Ratios of steps first: a product of a step and a value underflows for tiny steps.
        const double to_right = (t - tl) / (tr - tl);
        value = (1.0 - to_right) * xl + to_right * xr + std::sqrt(to_right * (tr - t)) * cz;
      } else {
        value = xl + std::sqrt(t - tl) * cz;
      }
      x[static_cast<std::size_t>(p * d + c)] = value;
    }
    known[static_cast<std::size_t>(p)] = true;
  }
  return std::vector<double>(x.begin() + d, x.end());
}

std::vector<double> increments_of(const BridgeModel& model, const std::vector<double>& path) {
  const int n = model.grid.steps();
  const int d = model.dim;
  std::vector<double> out(path.size());
  for (int i = 1; i <= n; ++i) {
    const double dt = model.grid.at(i) - model.grid.at(i - 1);
    for (int c = 0; c < d; ++c) {
      const double before = i == 1 ? model.x0[static_cast<std::size_t>(c)]
                                   : path[static_cast<std::size_t>((i - 2) * d + c)];
      out[static_cast<std::size_t>((i - 1) * d + c)] =
          (path[static_cast<std::size_t>((i - 1) * d + c)] - before) / dt;
    }
  }
  return out;
}

}  // namespace kmini::bridge
