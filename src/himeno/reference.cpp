#include "himeno/reference.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core/interrupt.hpp"

namespace kmini::himeno {

namespace {

// The region the reference computes: per axis, global indices [lo, hi] inclusive.
struct Region {
  std::array<std::int64_t, kAxes> lo{}, hi{}, n{};
  std::size_t index(std::int64_t i, std::int64_t j, std::int64_t k) const {
    return static_cast<std::size_t>(((i - lo[0]) * n[1] + (j - lo[1])) * n[2] + (k - lo[2]));
  }
  std::size_t size() const { return static_cast<std::size_t>(n[0] * n[1] * n[2]); }
};

// The original's coefficients are one value per array over the whole grid; no need to store
// twelve arrays of them.
template <class T>
struct ConstantCoefficients {
  std::array<T, kCoefficients> value;
  explicit ConstantCoefficients(const InitialValues& initial) {
    for (int c = 0; c < kCoefficients; ++c)
      value[c] = initial.coefficient<T>(c, 1, 1, 1);
  }
  T operator()(int c, std::int64_t, std::int64_t, std::int64_t) const { return value[c]; }
};

template <class T>
struct PointCoefficients {
  InitialValues initial;
  T operator()(int c, std::int64_t i, std::int64_t j, std::int64_t k) const {
    return initial.coefficient<T>(c, i, j, k);
  }
};

template <class T, class Coefficients>
ReferenceResult<T> iterate(const GlobalGrid& grid, const Decomposition& d,
                           const InitialValues& initial, const Coefficients& coef, double omega_in,
                           std::int64_t iterations) {
  Region r;
  for (int axis = 0; axis < kAxes; ++axis) {
    r.lo[axis] = std::max<std::int64_t>(0, d.first[axis] - 1 - iterations);
    r.hi[axis] =
        std::min<std::int64_t>(grid.points(axis) - 1, d.first[axis] + d.owned[axis] + iterations);
    r.n[axis] = r.hi[axis] - r.lo[axis] + 1;
  }
  std::vector<T> p(r.size()), wrk2(r.size());
  for (std::int64_t i = r.lo[0]; i <= r.hi[0]; ++i)
    for (std::int64_t j = r.lo[1]; j <= r.hi[1]; ++j)
      for (std::int64_t k = r.lo[2]; k <= r.hi[2]; ++k)
        p[r.index(i, j, k)] = initial.pressure<T>(i, j, k);

  // Points updated: interior of the grid, and strictly inside the region (they need neighbours).
  std::array<std::int64_t, kAxes> first{}, last{};
  for (int axis = 0; axis < kAxes; ++axis) {
    first[axis] = std::max<std::int64_t>(1, r.lo[axis] + 1);
    last[axis] = std::min<std::int64_t>(grid.points(axis) - 2, r.hi[axis] - 1);
  }
  const std::size_t si = static_cast<std::size_t>(r.n[1] * r.n[2]);
  const std::size_t sj = static_cast<std::size_t>(r.n[2]);
  const T omega = static_cast<T>(omega_in);
  const auto owns = [&](std::int64_t i, std::int64_t j, std::int64_t k) {
    return i >= d.first[0] && i < d.first[0] + d.owned[0] && j >= d.first[1] &&
           j < d.first[1] + d.owned[1] && k >= d.first[2] && k < d.first[2] + d.owned[2];
  };

  ReferenceResult<T> result;
  result.iterations = iterations;
  for (std::int64_t n = 0; n < iterations; ++n) {
    double gosa = 0.0;
    T gosa_original = T(0);
    for (std::int64_t i = first[0]; i <= last[0]; ++i) {
      // A signal leaves the replay unfinished, plane by plane (an iteration of size XL takes
      // seconds on one core): the caller's safe point follows, and nothing uses it.
      if (interrupt::received() != 0) return result;
      for (std::int64_t j = first[1]; j <= last[1]; ++j)
        for (std::int64_t k = first[2]; k <= last[2]; ++k) {
          const std::size_t x = r.index(i, j, k);
          const T s0 =
              coef(kA0, i, j, k) * p[x + si] + coef(kA1, i, j, k) * p[x + sj] +
              coef(kA2, i, j, k) * p[x + 1] +
              coef(kB0, i, j, k) *
                  (p[x + si + sj] - p[x + si - sj] - p[x - si + sj] + p[x - si - sj]) +
              coef(kB1, i, j, k) * (p[x + sj + 1] - p[x - sj + 1] - p[x + sj - 1] + p[x - sj - 1]) +
              coef(kB2, i, j, k) * (p[x + si + 1] - p[x - si + 1] - p[x + si - 1] + p[x - si - 1]) +
              coef(kC0, i, j, k) * p[x - si] + coef(kC1, i, j, k) * p[x - sj] +
              coef(kC2, i, j, k) * p[x - 1] + coef(kWrk1, i, j, k);
          const T ss = (s0 * coef(kA3, i, j, k) - p[x]) * coef(kBnd, i, j, k);
          gosa_original += ss * ss;
          if (owns(i, j, k)) gosa += static_cast<double>(ss * ss);
          wrk2[x] = p[x] + omega * ss;
        }
    }
    for (std::int64_t i = first[0]; i <= last[0]; ++i)
      for (std::int64_t j = first[1]; j <= last[1]; ++j)
        for (std::int64_t k = first[2]; k <= last[2]; ++k)
          p[r.index(i, j, k)] = wrk2[r.index(i, j, k)];
    result.gosa = gosa;
    result.gosa_each.push_back(gosa);
    result.gosa_original_order = static_cast<double>(gosa_original);
  }
  if (!d.single()) result.gosa_original_order = std::numeric_limits<double>::quiet_NaN();

  result.p.reserve(static_cast<std::size_t>(d.owned_points()));
  for (std::int64_t i = d.first[0]; i < d.first[0] + d.owned[0]; ++i)
    for (std::int64_t j = d.first[1]; j < d.first[1] + d.owned[1]; ++j)
      for (std::int64_t k = d.first[2]; k < d.first[2] + d.owned[2]; ++k)
        result.p.push_back(p[r.index(i, j, k)]);
  return result;
}

}  // namespace

template <class T>
ReferenceResult<T> serial_reference(const GlobalGrid& grid, const Decomposition& decomposition,
                                    const InitialValues& initial, double omega,
                                    std::int64_t iterations) {
  if (initial.state == InitialState::original) {
    return iterate<T>(grid, decomposition, initial, ConstantCoefficients<T>(initial), omega,
                      iterations);
  }
  return iterate<T>(grid, decomposition, initial, PointCoefficients<T>{initial}, omega, iterations);
}

template ReferenceResult<float> serial_reference<float>(const GlobalGrid&, const Decomposition&,
                                                        const InitialValues&, double, std::int64_t);
template ReferenceResult<double> serial_reference<double>(const GlobalGrid&, const Decomposition&,
                                                          const InitialValues&, double,
                                                          std::int64_t);

}  // namespace kmini::himeno
