// The reduction strategies of seed 003 ("Reduction operations in Data Parallel C++"), as Kokkos
// functors: the sum of N values of type T, accumulated in double.
#pragma once

#include <cstdint>

#include <Kokkos_Core.hpp>

namespace kmini::reducers {

using Index = std::int64_t;

// One global atomic per element: the seed's reductionAtomics1. `Method` is PlainAtomic or
// WarpMatchAtomic (reduce/atomics.hpp).
template <class T, class Method>
struct AtomicPerElement {
  Kokkos::View<const T*> values;
  Kokkos::View<double> sum;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const {
    Method::add(sum.data(), static_cast<double>(values(i)));
  }
};

// Work item w sums the contiguous chunk [w * batch, (w + 1) * batch) and adds it with one atomic:
// the seed's reductionAtomics2. Neighbouring work items read addresses `batch` apart, so a warp's
// loads do not coalesce.
template <class T>
struct ContiguousChunks {
  Kokkos::View<const T*> values;
  Kokkos::View<double> sum;
  Index batch;
  KOKKOS_INLINE_FUNCTION void operator()(Index w) const {
    const Index n = static_cast<Index>(values.extent(0));
    const Index begin = w * batch;
    const Index end = begin + batch < n ? begin + batch : n;
    double partial = 0.0;
    for (Index i = begin; i < end; ++i)
      partial += static_cast<double>(values(i));
    Kokkos::atomic_add(sum.data(), partial);
  }
};

// The same work items, each taking every `stride`-th element from its own index: neighbouring
// work items read neighbouring addresses, so a warp's loads coalesce. Four partial sums keep four
// loads in flight per thread. The final atomic is added the way `Method` adds: with one atomic per
// work item on one address the atomics serialise, at a cost docs/performance-notes.md (reduce)
// gives, and warp aggregation cuts them 32-fold.
template <class T, class Method>
struct StridedChunks {
  Kokkos::View<const T*> values;
  Kokkos::View<double> sum;
  Index stride;
  KOKKOS_INLINE_FUNCTION void operator()(Index w) const {
    const Index n = static_cast<Index>(values.extent(0));
    double p0 = 0.0, p1 = 0.0, p2 = 0.0, p3 = 0.0;
    Index i = w;
    for (; i + 3 * stride < n; i += 4 * stride) {
      p0 += static_cast<double>(values(i));
      p1 += static_cast<double>(values(i + stride));
      p2 += static_cast<double>(values(i + 2 * stride));
      p3 += static_cast<double>(values(i + 3 * stride));
    }
    for (; i < n; i += stride)
      p0 += static_cast<double>(values(i));
    Method::add(sum.data(), (p0 + p1) + (p2 + p3));
  }
};

// Kokkos' parallel_reduce, a tree; on any execution space whose memory holds `Values`.
template <class Values>
struct SumTerms {
  Values values;
  KOKKOS_INLINE_FUNCTION void operator()(Index i, double& partial) const {
    partial += static_cast<double>(values(i));
  }
};

}  // namespace kmini::reducers
