// The starting values of every array, as a function of the global grid point, so that a rank's
// device arrays and the host reference are filled from the same definition without one copying
// the other.
//
//   original  the original's initmt: a = (1, 1, 1, 1/6), b = 0, c = 1, bnd = 1, wrk1 = 0 and
//             p = i^2 / (imax-1)^2 at every point of the computational grid.
//   random    hashed values in every array. The original's b = 0 and its p, constant in j and k,
//             make the b-terms vanish, so a wrong edge or corner in the halo exchange would go
//             unnoticed; random values make every one of the 19 points count. The coefficients
//             are drawn so that the sweep stays a contraction (a3 scales s0 below 1).
#pragma once

#include <cstdint>

#include <Kokkos_Core.hpp>

namespace kmini::himeno {

// The coefficient arrays, in the original's order: a[0..3], b[0..2], c[0..2], bnd, wrk1.
enum Coefficient : int { kA0, kA1, kA2, kA3, kB0, kB1, kB2, kC0, kC1, kC2, kBnd, kWrk1 };
constexpr int kCoefficients = 12;

enum class InitialState { original, random };

struct InitialValues {
  InitialState state = InitialState::original;
  std::uint64_t seed = 0;
  std::int64_t imax = 0;  // computational points along i, for p's original profile

  // Uniform in [0, 1), a function of the seed, the array and the point alone.
  KOKKOS_INLINE_FUNCTION double uniform(int array, std::int64_t i, std::int64_t j,
                                        std::int64_t k) const {
    // splitmix64 of the point's coordinates (each below 2^20 for every size kmini accepts).
    std::uint64_t z = seed ^ (static_cast<std::uint64_t>(array) << 60) ^
                      (static_cast<std::uint64_t>(i) << 40) ^
                      (static_cast<std::uint64_t>(j) << 20) ^ static_cast<std::uint64_t>(k);
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return static_cast<double>(z >> 40) * (1.0 / 16777216.0);  // 24 bits: exact in float
  }

  template <class T>
  KOKKOS_INLINE_FUNCTION T coefficient(int array, std::int64_t i, std::int64_t j,
                                       std::int64_t k) const {
    if (state == InitialState::original) {
      switch (array) {
        case kA3:
          return static_cast<T>(1.0 / 6.0);
        case kB0:
        case kB1:
        case kB2:
        case kWrk1:
          return T(0);
        default:
          return T(1);  // a0..a2, c0..c2, bnd
      }
    }
    switch (array) {
      case kB0:
      case kB1:
      case kB2:
        return static_cast<T>(0.2 * uniform(array, i, j, k) - 0.1);
      case kBnd:
        return static_cast<T>(0.5 + 0.5 * uniform(array, i, j, k));
      case kWrk1:
        return static_cast<T>(1.0e-3 * uniform(array, i, j, k));
      case kA3: {
        // Every term of s0 is at most its coefficient times max |p| (a b-term four times), so
        // this a3 keeps |s0 a3| below 0.95 max |p|.
        double weight = 0.0;
        for (int c = kA0; c <= kA2; ++c)
          weight += static_cast<double>(coefficient<T>(c, i, j, k));
        for (int c = kC0; c <= kC2; ++c)
          weight += static_cast<double>(coefficient<T>(c, i, j, k));
        for (int b = kB0; b <= kB2; ++b) {
          const double v = static_cast<double>(coefficient<T>(b, i, j, k));
          weight += 4.0 * (v < 0 ? -v : v);
        }
        return static_cast<T>(0.95 / weight);
      }
      default:
        return static_cast<T>(0.5 + uniform(array, i, j, k));  // a0..a2, c0..c2
    }
  }

  template <class T>
  KOKKOS_INLINE_FUNCTION T pressure(std::int64_t i, std::int64_t j, std::int64_t k) const {
    if (state == InitialState::original) {
      // As the original: an int product, converted, divided in the working precision.
      return static_cast<T>(i * i) / static_cast<T>((imax - 1) * (imax - 1));
    }
    return static_cast<T>(uniform(kCoefficients, i, j, k));
  }
};

}  // namespace kmini::himeno
