// The original's point update, written once for every sweep:
//
//   s0 = a0 p(i+1,j,k) + a1 p(i,j+1,k) + a2 p(i,j,k+1)
//      + b0 (p(i+1,j+1,k) - p(i+1,j-1,k) - p(i-1,j+1,k) + p(i-1,j-1,k))
//      + b1 (p(i,j+1,k+1) - p(i,j-1,k+1) - p(i,j+1,k-1) + p(i,j-1,k-1))
//      + b2 (p(i+1,j,k+1) - p(i-1,j,k+1) - p(i+1,j,k-1) + p(i-1,j,k-1))
//      + c0 p(i-1,j,k) + c1 p(i,j-1,k) + c2 p(i,j,k-1) + wrk1
//   ss = (s0 a3 - p(i,j,k)) bnd        gosa += ss^2        wrk2 = p + omega ss
//
// in the original's order of operations. kmini compiles src/himeno without contraction into
// fused multiply-adds (CMakeLists.txt), so every backend rounds each operation as the original
// does and every sweep reproduces the serial reference bit for bit.
//
// A Point gives the stencil its values: c(coefficient) and p(di, dj, dk) for the point and its
// neighbours. Offsets are constants at every call, so after inlining a Point that keeps some
// values in registers costs no branch.
#pragma once

#include <Kokkos_Core.hpp>

#include "himeno/initial_state.hpp"

namespace kmini::himeno {

template <class Point>
KOKKOS_FORCEINLINE_FUNCTION auto residual(const Point& x) {
  const auto s0 = x.c(kA0) * x.p(1, 0, 0) + x.c(kA1) * x.p(0, 1, 0) + x.c(kA2) * x.p(0, 0, 1) +
                  x.c(kB0) * (x.p(1, 1, 0) - x.p(1, -1, 0) - x.p(-1, 1, 0) + x.p(-1, -1, 0)) +
                  x.c(kB1) * (x.p(0, 1, 1) - x.p(0, -1, 1) - x.p(0, 1, -1) + x.p(0, -1, -1)) +
                  x.c(kB2) * (x.p(1, 0, 1) - x.p(-1, 0, 1) - x.p(1, 0, -1) + x.p(-1, 0, -1)) +
                  x.c(kC0) * x.p(-1, 0, 0) + x.c(kC1) * x.p(0, -1, 0) + x.c(kC2) * x.p(0, 0, -1) +
                  x.c(kWrk1);
  return (s0 * x.c(kA3) - x.p(0, 0, 0)) * x.c(kBnd);
}

// Every value from the arrays.
template <class Coefficients, class Array>
struct ArrayPoint {
  const Coefficients& coef;
  const Array& pressure;
  int i, j, k;

  KOKKOS_FORCEINLINE_FUNCTION auto c(int which) const { return coef(which, i, j, k); }
  KOKKOS_FORCEINLINE_FUNCTION auto p(int di, int dj, int dk) const {
    return pressure(i + di, j + dj, k + dk);
  }
};

// p at (i-1, j, k), (i, j, k) and (i+1, j, k) from registers, as a sweep marching along i keeps
// them; the rest from the arrays.
template <class Coefficients, class Array, class T>
struct MarchingPoint {
  const Coefficients& coef;
  const Array& pressure;
  int i, j, k;
  T below, here, above;

  KOKKOS_FORCEINLINE_FUNCTION T c(int which) const { return coef(which, i, j, k); }
  KOKKOS_FORCEINLINE_FUNCTION T p(int di, int dj, int dk) const {
    if (dj == 0 && dk == 0) return di < 0 ? below : (di > 0 ? above : here);
    return pressure(i + di, j + dj, k + dk);
  }
};

}  // namespace kmini::himeno
