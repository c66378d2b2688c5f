// Bit arithmetic on 32-lane masks, the same on host and device, shared by the warp algorithms
// and the host warp emulator that tests them.
#pragma once

#include <Kokkos_Core.hpp>

// Before a host-device template that may be instantiated with a host-only type (the tests' warp
// emulator): nvcc would otherwise warn about calling host code from host-device code, though that
// instantiation only ever runs on the host.
#if defined(__CUDACC__)
#define KMINI_HOST_DEVICE_TEMPLATE _Pragma("nv_exec_check_disable")
#else
#define KMINI_HOST_DEVICE_TEMPLATE
#endif

namespace kmini::reducers::Impl {

inline constexpr int kWarpSize = 32;

KOKKOS_INLINE_FUNCTION int popcount(unsigned mask) {
#if defined(__CUDA_ARCH__)
  return __popc(mask);
#else
  return __builtin_popcount(mask);
#endif
}

// The lowest set lane of a non-zero mask.
KOKKOS_INLINE_FUNCTION int lowest_lane(unsigned mask) {
#if defined(__CUDA_ARCH__)
  return __ffs(mask) - 1;
#else
  return __builtin_ctz(mask);
#endif
}

// Lanes below `lane`: the mask a lane uses to find its rank among its peers.
KOKKOS_INLINE_FUNCTION unsigned lanes_below(int lane) {
  return (1u << lane) - 1u;
}

// The lane holding the n-th (0-based) set bit of `mask`; n < popcount(mask).
KOKKOS_INLINE_FUNCTION int nth_lane(unsigned mask, int n) {
#if defined(__CUDA_ARCH__)
  return static_cast<int>(__fns(mask, 0, n + 1));
#else
  for (int k = 0; k < n; ++k)
    mask &= mask - 1;
  return lowest_lane(mask);
#endif
}

}  // namespace kmini::reducers::Impl
