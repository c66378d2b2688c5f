// A pack: 16 bytes of consecutive points of a row (4 floats or 2 doubles), which a CUDA thread
// loads or stores with one vector instruction. Its address must be 16-byte aligned
// (padded_array.hpp aligns the rows).
//
// load_pack_streaming is for data each sweep reads once (the coefficients): on CUDA it loads with
// the evict-first hint (__ldcs), so that the coefficient streams do not push p's planes, which the
// sweep reads three times, out of L2, which shortened the largest size's sweep
// (docs/performance-notes.md, himeno). Elsewhere it is a plain load.
#pragma once

#include <cstring>

#include <Kokkos_Core.hpp>

namespace kmini::himeno {

template <class T>
struct alignas(16) Pack {
  static constexpr int size = 16 / sizeof(T);
  T value[size];
};

namespace Impl {
#if defined(__CUDA_ARCH__)
template <class T>
struct CudaVector;
template <>
struct CudaVector<float> {
  using type = float4;
};
template <>
struct CudaVector<double> {
  using type = double2;
};
#endif
}  // namespace Impl

template <class T>
KOKKOS_FORCEINLINE_FUNCTION Pack<T> load_pack(const T* address) {
  Pack<T> pack;
#if defined(__CUDA_ARCH__)
  using Vector = typename Impl::CudaVector<T>::type;
  const Vector vector = *reinterpret_cast<const Vector*>(address);
  memcpy(&pack, &vector, sizeof pack);
#else
  std::memcpy(&pack, address, sizeof pack);
#endif
  return pack;
}

template <class T>
KOKKOS_FORCEINLINE_FUNCTION Pack<T> load_pack_streaming(const T* address) {
#if defined(__CUDA_ARCH__)
  using Vector = typename Impl::CudaVector<T>::type;
  const Vector vector = __ldcs(reinterpret_cast<const Vector*>(address));
  Pack<T> pack;
  memcpy(&pack, &vector, sizeof pack);
  return pack;
#else
  return load_pack(address);
#endif
}

template <class T>
KOKKOS_FORCEINLINE_FUNCTION void store_pack(T* address, const Pack<T>& pack) {
#if defined(__CUDA_ARCH__)
  using Vector = typename Impl::CudaVector<T>::type;
  Vector vector;
  memcpy(&vector, &pack, sizeof pack);
  *reinterpret_cast<Vector*>(address) = vector;
#else
  std::memcpy(address, &pack, sizeof pack);
#endif
}

}  // namespace kmini::himeno
