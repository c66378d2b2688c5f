// Two neighbouring doubles read in one 16-byte load on a GPU, where a kernel's loads, not its
// arithmetic, are what it waits on: the compiler does not merge two 8-byte loads into one unless
// it can prove their alignment, and mostly it cannot. On the host, two ordinary reads.
#pragma once

#include <Kokkos_Core.hpp>

namespace kmini {

// first = at[0], second = at[1]; `at` must be 16-byte aligned.
KOKKOS_FORCEINLINE_FUNCTION void load_two(const double* at, double& first, double& second) {
#if defined(__CUDA_ARCH__)
  const double2 both = *reinterpret_cast<const double2*>(at);
  first = both.x;
  second = both.y;
#else
  first = at[0];
  second = at[1];
#endif
}

}  // namespace kmini
