// The standard normal numbers a bridge consumes: counter-based pseudo-random (Philox4x32-10) or
// Sobol points, each mapped through the inverse normal CDF. A number depends only on the
// path's global index and its coordinate, so every rank, layout and backend draws the same
// numbers for the same path, and ranks' streams never overlap.
#pragma once

#include <cmath>
#include <cstdint>

#include <Kokkos_Core.hpp>

#include "bridge/sobol.hpp"

namespace kmini::bridge {

// Random123's Philox4x32 with 10 rounds (Salmon et al., SC'11): four 32-bit words from a
// 128-bit counter and a 64-bit key.
struct Philox4x32 {
  std::uint32_t word[4];
};

KOKKOS_INLINE_FUNCTION Philox4x32 philox4x32_10(Philox4x32 counter, std::uint32_t key0,
                                                std::uint32_t key1) {
  constexpr std::uint32_t kMultiplier0 = 0xD2511F53u, kMultiplier1 = 0xCD9E8D57u;
  constexpr std::uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;
  std::uint32_t* c = counter.word;
  for (int round = 0; round < 10; ++round) {
    const std::uint64_t product0 = std::uint64_t(kMultiplier0) * c[0];
    const std::uint64_t product1 = std::uint64_t(kMultiplier1) * c[2];
    const std::uint32_t hi0 = std::uint32_t(product0 >> 32), lo0 = std::uint32_t(product0);
    const std::uint32_t hi1 = std::uint32_t(product1 >> 32), lo1 = std::uint32_t(product1);
    const std::uint32_t c1 = c[1], c3 = c[3];
    c[0] = hi1 ^ c1 ^ key0;
    c[1] = lo1;
    c[2] = hi0 ^ c3 ^ key1;
    c[3] = lo0;
    key0 += kWeyl0;
    key1 += kWeyl1;
  }
  return counter;
}

// Phi^-1(u) for u in (0, 1), to a few units in the last place of a double: Abramowitz and Stegun
// 26.2.23 (error below 4.5e-4) refined by two Halley steps on Phi(x) - p, which triple the
// correct digits each. Works in the lower half, p = min(u, 1 - u); the residual comes from erfc
// in the tail, where it keeps full relative accuracy, and from erf and the exact p - 1/2 near the
// median, where Phi(x) - p cancels.
KOKKOS_INLINE_FUNCTION double inverse_normal_cdf(double u) {
  const double p = u < 0.5 ? u : 1.0 - u;  // exact for u > 0.5 (Sterbenz)
  if (p == 0.5) return 0.0;
  const bool central = p > 0.25;  // then p - 0.5 is exact (Sterbenz)
  const double t = sqrt(-2.0 * log(p));
  double x = -(t - (2.515517 + t * (0.802853 + t * 0.010328)) /
                       (1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308))));
  constexpr double kSqrtTwoPi = 2.5066282746310002;
  constexpr double kInverseSqrtTwo = 0.70710678118654752;
  for (int step = 0; step < 2; ++step) {
    const double residual =
        central ? 0.5 * erf(x * kInverseSqrtTwo) - (p - 0.5) : 0.5 * erfc(-x * kInverseSqrtTwo) - p;
    const double ratio = residual * kSqrtTwoPi * exp(0.5 * x * x);
    x -= ratio / (1.0 + 0.5 * x * ratio);
  }
  return u < 0.5 ? x : -x;
}

// Where the normals come from: the generator, and its data for Sobol points in `Memory`.
template <class Memory>
struct NormalSource {
  bool sobol = false;
  std::uint64_t seed = 0;
  // Sobol direction numbers, kSobolBits per dimension; dimension j drives coordinate j.
  Kokkos::View<const std::uint32_t*, Memory> directions;

  // The normal for coordinate `coordinate` (the k-th point's c-th component is k d + c) of path
  // `path` (its index over all ranks).
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t path, int coordinate) const {
    double u;
    if (sobol) {
      // Point 0 is the origin, which has no normal; path i takes point i + 1, whose
      // coordinates lie in (0, 1) for every index below 2^32.
      const std::uint32_t x = sobol_coordinate(&directions(std::size_t(coordinate) * kSobolBits),
                                               std::uint64_t(path) + 1);
      u = double(x) * 0x1p-32;
    } else {
      const Philox4x32 r =
          philox4x32_10(Philox4x32{{std::uint32_t(path), std::uint32_t(std::uint64_t(path) >> 32),
                                    std::uint32_t(coordinate), 0u}},
                        std::uint32_t(seed), std::uint32_t(seed >> 32));
      const std::uint64_t bits = ((std::uint64_t(r.word[0]) << 32) | r.word[1]) >> 11;
      u = (double(bits) + 0.5) * 0x1p-53;  // in (0, 1)
    }
    return inverse_normal_cdf(u);
  }
};

}  // namespace kmini::bridge
