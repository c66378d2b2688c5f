// The warp intrinsics the aggregation algorithms use, for CUDA devices, and the atomic that
// finally reaches memory. The host warp emulator in tests/ implements the same interface.
#pragma once

#include <cstdint>

#include <Kokkos_Core.hpp>

namespace kmini::reducers::Impl {

#if defined(__CUDA_ARCH__)
struct CudaWarp {
  // Kokkos' RangePolicy puts the iteration index in threadIdx.y (blockDim.x is 1), so
  // threadIdx.x & 31 is not the lane; the %laneid register always is.
  __device__ int lane() const {
    int lane_id;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane_id));
    return lane_id;
  }
  __device__ unsigned active_mask() const { return __activemask(); }
  __device__ unsigned match_any(unsigned mask, std::uint64_t key) const {
    return __match_any_sync(mask, static_cast<unsigned long long>(key));
  }
  template <class T>
  __device__ T shuffle(unsigned mask, T value, int source_lane) const {
    return __shfl_sync(mask, value, source_lane);
  }
  template <class T>
  __device__ T atomic_fetch_add(T* address, T value) const {
    return Kokkos::atomic_fetch_add(address, value);
  }
};
#endif

}  // namespace kmini::reducers::Impl
