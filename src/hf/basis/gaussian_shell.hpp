// The types the hf integral code and its host entry points share: a contracted shell at a
// centre, and a point charge.
#pragma once

#include <array>
#include <vector>

namespace kmini::hf {

// One contracted shell at a centre, with the file's (unnormalised) contraction coefficients.
struct GaussianShell {
  int l = 0;  // 0 (s) or 1 (p)
  std::array<double, 3> center{};
  std::vector<double> exponents;
  std::vector<double> coefficients;
};

struct PointCharge {
  double charge = 0.0;
  std::array<double, 3> center{};
};

}  // namespace kmini::hf
