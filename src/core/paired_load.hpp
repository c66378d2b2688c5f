// Sixteen neighbouring bytes read in one load on a GPU, where a kernel's loads, not its
// arithmetic, are what it waits on: the compiler does not merge neighbouring 4- or 8-byte loads
// into one unless it can prove their alignment, and mostly it cannot. On the host, ordinary reads.
#pragma once

#include <Kokkos_Core.hpp>

namespace kmini {

// out[k] = at[k] for the 16 / sizeof(T) elements from `at`, which must be 16-byte aligned.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION void load_16_bytes(const T* at, T (&out)[16 / sizeof(T)]) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(T) == 8) {
    const double2 both = *reinterpret_cast<const double2*>(at);
    out[0] = both.x;
    out[1] = both.y;
  } else if constexpr (sizeof(T) == 4) {
    const float4 four = *reinterpret_cast<const float4*>(at);
    out[0] = four.x;
    out[1] = four.y;
    out[2] = four.z;
    out[3] = four.w;
  } else
#endif
  {
    for (int k = 0; k < static_cast<int>(16 / sizeof(T)); ++k)
      out[k] = at[k];
  }
}

// first = at[0], second = at[1]; `at` must be 16-byte aligned.
KOKKOS_FORCEINLINE_FUNCTION void load_two(const double* at, double& first, double& second) {
  double both[2];
  load_16_bytes(at, both);
  first = both[0];
  second = both[1];
}

}  // namespace kmini
