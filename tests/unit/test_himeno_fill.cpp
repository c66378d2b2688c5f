// himeno's fill of a rank's arrays (himeno/fields.hpp): in slabs of whole planes, every point from
// InitialValues as in one launch, a signal looked for before each slab.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdint>
#include <cstdlib>

#include <Kokkos_Core.hpp>

#include "core/interrupt.hpp"
#include "himeno/fields.hpp"

namespace kmini::himeno {
namespace {

using HostFields = Fields<float, Kokkos::HostSpace>;
using Fill = InitializeFields<float, Kokkos::DefaultHostExecutionSpace>;

// 21 planes of 13 x 18 points; the random state, so that every array and point differs.
const Extents kLocal = {21, 13, 18};
const Extents kOrigin = {4, 0, 7};
const InitialValues kValues{InitialState::random, 1234, 40};

// Points where an array differs from InitialValues at the global point, over every array.
std::int64_t points_off(const HostFields& fields) {
  std::int64_t off = 0;
  const auto& p = fields.p.view;
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(p.extent(0)); ++i) {
    for (std::int64_t j = 0; j < static_cast<std::int64_t>(p.extent(1)); ++j) {
      for (std::int64_t k = 0; k < static_cast<std::int64_t>(p.extent(2)); ++k) {
        const std::int64_t gi = kOrigin[0] + i, gj = kOrigin[1] + j, gk = kOrigin[2] + k;
        const float pressure = kValues.pressure<float>(gi, gj, gk);
        off += fields.p.view(i, j, k) != pressure;
        off += fields.wrk2.view(i, j, k) != pressure;
        for (int c = 0; c < kCoefficients; ++c)
          off += fields.coef.view(c, i, j, k) != kValues.coefficient<float>(c, gi, gj, gk);
      }
    }
  }
  return off;
}

TEST(HimenoFill, SlabsOfPlanesFillEveryPointAsOneLaunchDoes) {
  // One launch; then slabs of one plane (any bound under a plane), and of 4 planes with a
  // smaller last one (21 = 5 x 4 + 1).
  for (const std::int64_t points :
       {std::int64_t{1} << 30, std::int64_t{100}, std::int64_t{4 * 13 * 18 + 5}}) {
    SCOPED_TRACE(points);
    HostFields fields(kLocal);
    Fill::run(fields, kValues, kOrigin, true, points);
    Kokkos::fence();
    EXPECT_EQ(points_off(fields), 0);
  }
}

TEST(HimenoFillDeathTest, ASignalBeforeTheFirstSlabFillsNothing) {
  ::testing::GTEST_FLAG(death_test_style) = "threadsafe";  // a child of its own: no threads forked
  EXPECT_EXIT(
      {
        HostFields fields(kLocal);
        interrupt::install();
        std::raise(SIGTERM);
        Fill::run(fields, kValues, kOrigin, true, 100);
        Kokkos::fence();
        const auto& p = fields.p.view;
        bool untouched = true;
        for (std::size_t i = 0; i < p.extent(0); ++i)
          for (std::size_t j = 0; j < p.extent(1); ++j)
            for (std::size_t k = 0; k < p.extent(2); ++k)
              untouched = untouched && p(i, j, k) == 0.0f;
        std::_Exit(untouched ? 7 : 8);  // no atexit: Kokkos stays up
      },
      ::testing::ExitedWithCode(7), "");
}

}  // namespace
}  // namespace kmini::himeno
