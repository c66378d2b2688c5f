// A bridge problem as the user states it: the times, the construction order, the start value
// and the covariance factor C (C C^T = Sigma), independent of how paths are generated.
#pragma once

#include <string>
#include <vector>

#include "bridge/construction_order.hpp"
#include "bridge/time_grid.hpp"

namespace kmini::bridge {

struct BridgeModel {
  TimeGrid grid;
  Order order;
  int dim = 1;
  std::vector<double> x0;      // d values
  std::vector<double> factor;  // C, d x d, row-major
};

// The lower-triangular Cholesky factor of `sigma` (d x d, row-major) into `factor`, or why there
// is none: not square, not symmetric (naming the first asymmetric pair), or not positive
// definite (naming the leading minor that fails).
std::string cholesky_factor(const std::vector<std::vector<double>>& sigma,
                            std::vector<double>& factor);

// The plain reference: one path built in the user's order straight from equation (5), in
// double, each point's nearest known neighbours found by scanning. normals[k d + c] is component
// c of the k-th normal, which builds the k-th point of the order. Returns X(t_1) .. X(t_N), the d
// components of each point together.
std::vector<double> reference_path(const BridgeModel& model, const double* normals);

// The scaled increments (X(t_i) - X(t_{i-1})) / (t_i - t_{i-1}), i = 1..N, of a reference path,
// with X(t_0) = x0.
std::vector<double> increments_of(const BridgeModel& model, const std::vector<double>& path);

}  // namespace kmini::bridge
