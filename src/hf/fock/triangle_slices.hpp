// The sum of every rank's packed triangle of G where each rank can read the others' (CUDA IPC,
// symmetric_rank_sum.hpp): rank r sums slice r of every rank's triangle, in rank order, into its
// own triangle, and then every rank gathers each slice from the rank that summed it. Each element
// is summed once, by one rank, so every rank ends with the same bits.
//
// `triangles` holds each rank's triangle as an address in this process (its own, and the others'
// as mapped here), so that the same kernels run on host memory in the tests.
#pragma once

#include <cstdint>

#include <Kokkos_Core.hpp>

namespace kmini::hf {

// A triangle of `count` elements split into `ranks` slices of equal length, the last shorter.
struct TriangleSlices {
  std::int64_t count = 0;
  int ranks = 1;

  KOKKOS_INLINE_FUNCTION std::int64_t length() const { return (count + ranks - 1) / ranks; }
  KOKKOS_INLINE_FUNCTION std::int64_t begin(int rank) const {
    const std::int64_t at = length() * rank;
    return at < count ? at : count;
  }
  KOKKOS_INLINE_FUNCTION std::int64_t end(int rank) const { return begin(rank + 1); }
  KOKKOS_INLINE_FUNCTION int owner(std::int64_t element) const {
    return static_cast<int>(element / length());
  }
};

template <class Memory>
using TriangleAddresses = Kokkos::View<const std::uintptr_t*, Memory>;

// Slice `rank` of every triangle summed in rank order into triangle `rank`'s own slice. Only
// rank `rank` reads that slice of its own triangle, so the sum may overwrite it.
template <class Exec>
void sum_own_slice(const Exec& space,
                   const TriangleAddresses<typename Exec::memory_space>& triangles,
                   const TriangleSlices& slices, int rank) {
  const int ranks = slices.ranks;
  Kokkos::parallel_for(
      "hf::sum_own_slice",
      Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(space, slices.begin(rank),
                                                                 slices.end(rank)),
      KOKKOS_LAMBDA(const std::int64_t e) {
        double sum = reinterpret_cast<const double*>(triangles(0))[e];
        for (int q = 1; q < ranks; ++q)
          sum += reinterpret_cast<const double*>(triangles(q))[e];
        reinterpret_cast<double*>(triangles(rank))[e] = sum;
      });
}

// Every slice copied from the triangle of the rank that summed it into `out`.
template <class Exec>
void gather_slices(const Exec& space,
                   const TriangleAddresses<typename Exec::memory_space>& triangles,
                   const TriangleSlices& slices,
                   const Kokkos::View<double*, typename Exec::memory_space>& out) {
  Kokkos::parallel_for(
      "hf::gather_slices",
      Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(space, 0, slices.count),
      KOKKOS_LAMBDA(const std::int64_t e) {
        out(e) = reinterpret_cast<const double*>(triangles(slices.owner(e)))[e];
      });
}

}  // namespace kmini::hf
