// The sum of the ranks' triangles of G over CUDA IPC (hf/fock/triangle_slices.hpp), its slices and
// kernels run on host memory, the ranks one after another in the order the barriers impose: every
// rank must end with each element summed in rank order, the same bits on every rank, for counts
// that the ranks do not divide and for more ranks than elements.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "hf/fock/triangle_slices.hpp"

namespace kmini::hf {
namespace {

using Host = Kokkos::DefaultHostExecutionSpace;
using HostMemory = Host::memory_space;

TEST(TriangleSlices, CoverTheTriangleOnceInRankOrder) {
  for (const std::int64_t count : {1, 2, 7, 10, 64, 1000}) {
    for (const int ranks : {1, 2, 3, 4, 5, 8, 11}) {
      SCOPED_TRACE(std::to_string(count) + " elements, " + std::to_string(ranks) + " ranks");
      const TriangleSlices slices{count, ranks};
      EXPECT_EQ(slices.begin(0), 0);
      EXPECT_EQ(slices.end(ranks - 1), count);
      for (int r = 0; r < ranks; ++r) {
        EXPECT_LE(slices.begin(r), slices.end(r));
        for (std::int64_t e = slices.begin(r); e < slices.end(r); ++e)
          EXPECT_EQ(slices.owner(e), r);
      }
    }
  }
}

TEST(TriangleSlices, EveryRankGetsTheSumInRankOrder) {
  std::mt19937_64 rng(20261127);
  // Magnitudes over many decades, so that another order of the terms rounds differently.
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-30, 30);
  for (const std::int64_t count : {1, 3, 10, 1000}) {
    for (const int ranks : {2, 3, 4, 7}) {
      SCOPED_TRACE(std::to_string(count) + " elements, " + std::to_string(ranks) + " ranks");
      std::vector<Kokkos::View<double*, HostMemory>> triangles;
      Kokkos::View<std::uintptr_t*, HostMemory> addresses("addresses", ranks);
      for (int q = 0; q < ranks; ++q) {
        triangles.emplace_back("triangle", count);
        for (std::int64_t e = 0; e < count; ++e)
          triangles[q](e) = std::ldexp(mantissa(rng), exponent(rng));
        addresses(q) = reinterpret_cast<std::uintptr_t>(triangles[q].data());
      }
      std::vector<double> expected(count);
      for (std::int64_t e = 0; e < count; ++e) {
        double sum = triangles[0](e);
        for (int q = 1; q < ranks; ++q)
          sum += triangles[q](e);
        expected[e] = sum;
      }
      const TriangleSlices slices{count, ranks};
      for (int r = 0; r < ranks; ++r)
        sum_own_slice(Host(), TriangleAddresses<HostMemory>(addresses), slices, r);
      Host().fence();
      // Every rank gathers alike, after every slice is summed.
      Kokkos::View<double*, HostMemory> out("out", count);
      gather_slices(Host(), TriangleAddresses<HostMemory>(addresses), slices, out);
      Host().fence();
      for (std::int64_t e = 0; e < count; ++e)
        ASSERT_EQ(out(e), expected[e]) << "element " << e;
    }
  }
}

}  // namespace
}  // namespace kmini::hf
