// What the integral kernels' innermost loops, which run once per primitive quartet, are built
// from: loops whose every index is a compile-time constant, and the reciprocal square root.
#pragma once

#include <cmath>
#include <type_traits>

#include <Kokkos_Core.hpp>

namespace kmini::hf {

// A function compiled once and called, not inlined into each caller (eri.hpp's looped ERI).
#if defined(__CUDACC__)
#define KMINI_HF_NOINLINE __noinline__
#elif defined(__GNUC__)
#define KMINI_HF_NOINLINE __attribute__((noinline))
#else
#define KMINI_HF_NOINLINE
#endif

#if defined(__CUDA_ARCH__)
#define KMINI_HF_UNROLL _Pragma("unroll")
#else
#define KMINI_HF_UNROLL
#endif

// The opposite, for the loops over tables in memory (eri_looped.hpp) and over the d classes'
// integrals: left to itself, nvcc unrolls their constant trip counts, and unrolled, the Fock
// updates of one (dd|dd) lane are some 8000 multiply-adds a kernel.
#if defined(__CUDA_ARCH__)
#define KMINI_HF_LOOP _Pragma("unroll 1")
#else
#define KMINI_HF_LOOP
#endif

// Before a __host__ __device__ template that the host's own integrals (integrals_host.cpp,
// one_electron.cpp) call with host lambdas, as the kernels call it with device ones: nvcc then
// checks the calls of each instantiation where it runs, instead of warning that a host lambda
// could be called from device code, which none is.
#if defined(__CUDACC__)
#define KMINI_HF_HOST_OR_DEVICE_CALLABLE _Pragma("nv_exec_check_disable")
#else
#define KMINI_HF_HOST_OR_DEVICE_CALLABLE
#endif

namespace Impl {

// f(std::integral_constant<int, I>{}) for I in [Begin, End): every index a compile-time
// constant, so that a recursion's table is scalarised into registers whatever the unroller does,
// and a division by the index is folded into a product with its reciprocal.
KMINI_HF_HOST_OR_DEVICE_CALLABLE
template <int Begin, int End, class F>
KOKKOS_FORCEINLINE_FUNCTION void static_for(const F& f) {
  if constexpr (Begin < End) {
    f(std::integral_constant<int, Begin>{});
    static_for<Begin + 1, End>(f);
  }
}

// f(i) for i in [0, N): a loop unrolled on the GPU where Unroll is true, and kept rolled where it
// is false (KMINI_HF_LOOP: a d class's block of integrals, whose unrolled Fock updates alone are
// thousands of instructions).
template <bool Unroll, int N, class F>
KOKKOS_FORCEINLINE_FUNCTION void block_for(const F& f) {
  if constexpr (Unroll) {
    KMINI_HF_UNROLL
    for (int i = 0; i < N; ++i)
      f(i);
  } else {
    KMINI_HF_LOOP
    for (int i = 0; i < N; ++i)
      f(i);
  }
}

}  // namespace Impl

// 1 / sqrt(x). On the GPU one seeded Newton sequence (within 1 ulp), where a square root and a
// division would each take their own, and an FP64 division costs about ten instructions.
KOKKOS_INLINE_FUNCTION double reciprocal_sqrt(double x) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return ::rsqrt(x);
#else
  using std::sqrt;
  return 1.0 / sqrt(x);
#endif
}

}  // namespace kmini::hf
