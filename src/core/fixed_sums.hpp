// N sums reduced as one value: a value type of fixed size, which Kokkos reduces with warp shuffles
// where it would reduce an array through shared memory (and, in Kokkos 3.4 on CUDA, only in teams
// of a power of two threads). Kokkos value-initialises it (every sum zero) and joins two by +=;
// Kokkos 3.4 does so through volatile references, hence the volatile overloads.
#pragma once

#include <Kokkos_Core.hpp>

namespace kmini {

template <int N>
struct FixedSums {
  double value[N];

  KOKKOS_INLINE_FUNCTION FixedSums() {
    for (int i = 0; i < N; ++i)
      value[i] = 0.0;
  }
  KOKKOS_INLINE_FUNCTION FixedSums(const FixedSums& other) { copy(*this, other); }
  KOKKOS_INLINE_FUNCTION FixedSums(const volatile FixedSums& other) { copy(*this, other); }
  KOKKOS_INLINE_FUNCTION FixedSums& operator=(const FixedSums& other) {
    copy(*this, other);
    return *this;
  }
  KOKKOS_INLINE_FUNCTION void operator=(const volatile FixedSums& other) volatile {
    copy(*this, other);
  }
  KOKKOS_INLINE_FUNCTION FixedSums& operator+=(const FixedSums& other) {
    add(*this, other);
    return *this;
  }
  KOKKOS_INLINE_FUNCTION void operator+=(const volatile FixedSums& other) volatile {
    add(*this, other);
  }

 private:
  template <class To, class From>
  KOKKOS_INLINE_FUNCTION static void copy(To& to, const From& from) {
    for (int i = 0; i < N; ++i)
      to.value[i] = from.value[i];
  }
  template <class To, class From>
  KOKKOS_INLINE_FUNCTION static void add(To& to, const From& from) {
    for (int i = 0; i < N; ++i)
      to.value[i] = to.value[i] + from.value[i];
  }
};

}  // namespace kmini
