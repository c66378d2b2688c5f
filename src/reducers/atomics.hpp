// Drop-in replacements for Kokkos::atomic_add and Kokkos::atomic_fetch_add that aggregate the
// atomics of a warp before they reach memory (see warp_aggregation.hpp). Same signatures, same
// results: a fetch returns what the lanes would have got issuing their atomics one by one in
// lane order. For int32, int64, float and double (any type __shfl_sync and Kokkos' atomics take).
//
//   atomic_add_match / atomic_fetch_add_match     groups by __match_any_sync (sm_70 and later)
//   atomic_add_ballot / atomic_fetch_add_ballot   the seed's Fig. 5 loop over the active lanes
//
// In device code compiled for CUDA these aggregate; everywhere else (host backends, and the host
// pass of a CUDA build) they are the plain Kokkos atomic, which gives the same result.
//
// The policy structs at the end name each method for code that is generic over it.
#pragma once

#include <Kokkos_Core.hpp>

#include "reducers/cuda_warp.hpp"
#include "reducers/warp_aggregation.hpp"

namespace kmini::reducers {

template <class T>
KOKKOS_INLINE_FUNCTION T atomic_fetch_add_match(T* address, T value) {
#if defined(__CUDA_ARCH__)
  return Impl::match_fetch_add(Impl::CudaWarp{}, address, value);
#else
  return Kokkos::atomic_fetch_add(address, value);
#endif
}

template <class T>
KOKKOS_INLINE_FUNCTION void atomic_add_match(T* address, T value) {
#if defined(__CUDA_ARCH__)
  Impl::match_add(Impl::CudaWarp{}, address, value);
#else
  Kokkos::atomic_add(address, value);
#endif
}

template <class T>
KOKKOS_INLINE_FUNCTION T atomic_fetch_add_ballot(T* address, T value) {
#if defined(__CUDA_ARCH__)
  return Impl::ballot_fetch_add(Impl::CudaWarp{}, address, value);
#else
  return Kokkos::atomic_fetch_add(address, value);
#endif
}

// The ballot method has no cheaper form without the fetch: the loop is the same either way.
template <class T>
KOKKOS_INLINE_FUNCTION void atomic_add_ballot(T* address, T value) {
  atomic_fetch_add_ballot(address, value);
}

// Methods as types, for kernels templated on how they add.
struct PlainAtomic {
  static constexpr const char* name = "plain";
  template <class T>
  KOKKOS_INLINE_FUNCTION static void add(T* address, T value) {
    Kokkos::atomic_add(address, value);
  }
  template <class T>
  KOKKOS_INLINE_FUNCTION static T fetch_add(T* address, T value) {
    return Kokkos::atomic_fetch_add(address, value);
  }
};

struct WarpMatchAtomic {
  static constexpr const char* name = "match";
  template <class T>
  KOKKOS_INLINE_FUNCTION static void add(T* address, T value) {
    atomic_add_match(address, value);
  }
  template <class T>
  KOKKOS_INLINE_FUNCTION static T fetch_add(T* address, T value) {
    return atomic_fetch_add_match(address, value);
  }
};

struct WarpBallotAtomic {
  static constexpr const char* name = "ballot";
  template <class T>
  KOKKOS_INLINE_FUNCTION static void add(T* address, T value) {
    atomic_add_ballot(address, value);
  }
  template <class T>
  KOKKOS_INLINE_FUNCTION static T fetch_add(T* address, T value) {
    return atomic_fetch_add_ballot(address, value);
  }
};

}  // namespace kmini::reducers
