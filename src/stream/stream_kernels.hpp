// BabelStream's kernels over three Views, in any precision, and two more for the ceilings (fill,
// read). The element-wise ones all write c, so one poison-and-check scheme validates each of them
// alone; dot and read reduce into a double, read on the device.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include <Kokkos_Core.hpp>

#include "core/paired_load.hpp"
#include "reducers/atomics.hpp"

namespace kmini::stream {

// BabelStream's scalar.
inline constexpr double kScalar = 0.4;

// Initial values that differ from element to element (so an indexing error shows) and whose
// products are exact in float: a in [1, 2), b in (1, 2].
template <class T>
KOKKOS_INLINE_FUNCTION T initial_a(std::int64_t i) {
  return T(1) + static_cast<T>(i % 1024) / T(1024);
}
template <class T>
KOKKOS_INLINE_FUNCTION T initial_b(std::int64_t i) {
  return T(2) - static_cast<T>(i % 509) / T(512);
}

template <class T>
struct StreamArrays {
  Kokkos::View<T*> a;
  Kokkos::View<T*> b;
  Kokkos::View<T*> c;
  T scalar = static_cast<T>(kScalar);
  double dot = 0.0;                                   // the last dot product, or read's sum
  Kokkos::View<double> sum_on_device{"stream::sum"};  // read's atomics add into it
};

// The element-wise operations: c = op(a, b, scalar).
struct Copy {
  template <class T>
  KOKKOS_INLINE_FUNCTION static T apply(T a, T /*b*/, T /*s*/) {
    return a;
  }
};
struct Mul {
  template <class T>
  KOKKOS_INLINE_FUNCTION static T apply(T a, T /*b*/, T s) {
    return s * a;
  }
};
struct Add {
  template <class T>
  KOKKOS_INLINE_FUNCTION static T apply(T a, T b, T /*s*/) {
    return a + b;
  }
};
struct Triad {
  template <class T>
  KOKKOS_INLINE_FUNCTION static T apply(T a, T b, T s) {
    return a + s * b;
  }
};

// c = scalar: writes only, the write half of what the memory can do (a copy ceiling probe).
struct Fill {
  template <class T>
  KOKKOS_INLINE_FUNCTION static T apply(T /*a*/, T /*b*/, T s) {
    return s;
  }
};

template <class T, class Op>
struct ElementwiseFunctor {
  Kokkos::View<const T*> a;
  Kokkos::View<const T*> b;
  Kokkos::View<T*> c;
  T scalar;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    c(i) = Op::template apply<T>(a(i), b(i), scalar);
  }
};

template <class T>
struct DotFunctor {
  Kokkos::View<const T*> a;
  Kokkos::View<const T*> b;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, double& sum) const {
    sum += static_cast<double>(a(i) * b(i));
  }
};

// The sum of a, read the way a read-bandwidth ceiling must be: every work item strides through a
// in 16-byte pieces with kInFlight of them loaded before any is added, and adds its share with a
// warp-aggregated atomic, as the reduce app's chunk_strided_warp does (a Kokkos parallel_reduce
// read slower on the H100: docs/performance-notes.md, stream). The other reads of kmini (dot,
// the reduce app's variants) are bounded by this, so no read reports more than 100% of it.
template <class T>
struct ReadFunctor {
  static constexpr int kPerPiece = 16 / sizeof(T);
  static constexpr int kInFlight = 4;
  Kokkos::View<const T*> a;
  Kokkos::View<double> sum;
  std::int64_t items = 1;  // the work items, each a strided share of the pieces

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t item) const {
    const std::int64_t n = static_cast<std::int64_t>(a.extent(0)), pieces = n / kPerPiece;
    double partial = 0.0;
    std::int64_t piece = item;
    for (; piece + (kInFlight - 1) * items < pieces; piece += kInFlight * items) {
      T values[kInFlight][kPerPiece];
      for (int k = 0; k < kInFlight; ++k)
        load_16_bytes(a.data() + (piece + k * items) * kPerPiece, values[k]);
      for (int k = 0; k < kInFlight; ++k)
        for (int j = 0; j < kPerPiece; ++j)
          partial += static_cast<double>(values[k][j]);
    }
    for (; piece < pieces; piece += items) {
      T values[kPerPiece];
      load_16_bytes(a.data() + piece * kPerPiece, values);
      for (int j = 0; j < kPerPiece; ++j)
        partial += static_cast<double>(values[j]);
    }
    if (item == 0)
      for (std::int64_t i = pieces * kPerPiece; i < n; ++i)
        partial += static_cast<double>(a(i));
    reducers::WarpMatchAtomic::add(sum.data(), partial);
  }
};

template <class T>
struct InitFunctor {
  Kokkos::View<T*> a;
  Kokkos::View<T*> b;
  Kokkos::View<T*> c;
  T poison;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    a(i) = initial_a<T>(i);
    b(i) = initial_b<T>(i);
    c(i) = poison;
  }
};

inline Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>> range_of(std::int64_t n) {
  return Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>(0, n);
}

template <class T, class Op>
void launch_elementwise(StreamArrays<T>& arrays, const std::string& name) {
  Kokkos::parallel_for(name, range_of(static_cast<std::int64_t>(arrays.c.extent(0))),
                       ElementwiseFunctor<T, Op>{arrays.a, arrays.b, arrays.c, arrays.scalar});
}

// c = a through Kokkos::deep_copy: the backend's own device-to-device copy (cudaMemcpy on CUDA,
// a parallel memcpy on hosts), the fastest copy this build can do without writing a kernel.
template <class T>
void launch_deep_copy(StreamArrays<T>& arrays, const std::string& /*name*/) {
  Kokkos::deep_copy(arrays.c, arrays.a);
}

template <class T>
void launch_dot(StreamArrays<T>& arrays, const std::string& name) {
  double sum = 0.0;
  Kokkos::parallel_reduce(name, range_of(static_cast<std::int64_t>(arrays.a.extent(0))),
                          DotFunctor<T>{arrays.a, arrays.b}, sum);
  arrays.dot = sum;
}

// One wave of work items: as many as the backend runs threads at once. The sum stays on the
// device, where check_read reads it: copying one double back is no part of a read bandwidth.
template <class T>
void launch_read(StreamArrays<T>& arrays, const std::string& name) {
  const std::int64_t items =
      std::max<std::int64_t>(1, Kokkos::DefaultExecutionSpace().concurrency());
  Kokkos::deep_copy(Kokkos::DefaultExecutionSpace(), arrays.sum_on_device, 0.0);
  Kokkos::parallel_for(name, range_of(items),
                       ReadFunctor<T>{arrays.a, arrays.sum_on_device, items});
}

template <class T>
void initialize(StreamArrays<T>& arrays) {
  // Poison the outputs: an element a kernel fails to write stays NaN and fails validation.
  Kokkos::parallel_for(
      "stream::init", range_of(static_cast<std::int64_t>(arrays.a.extent(0))),
      InitFunctor<T>{arrays.a, arrays.b, arrays.c, std::numeric_limits<T>::quiet_NaN()});
  arrays.dot = std::numeric_limits<double>::quiet_NaN();
}

}  // namespace kmini::stream
