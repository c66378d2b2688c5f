// core/host_copy.hpp: a device array's host copy in slices, a signal looked for before each.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdint>
#include <cstdlib>

#include <Kokkos_Core.hpp>

#include "core/host_copy.hpp"
#include "core/interrupt.hpp"

namespace kmini {
namespace {

using HostArray = Kokkos::View<double*, Kokkos::HostSpace>;

// Two slices and a tail of five, each element its own index plus one, on the default device.
Kokkos::View<double*> numbered_source() {
  const std::int64_t n = 2 * interrupt::kItemsBetweenSignalChecks + 5;
  Kokkos::View<double*> source("source", n);
  Kokkos::parallel_for(
      "numbered", Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>(0, n),
      KOKKOS_LAMBDA(std::int64_t i) { source(i) = 1.0 + static_cast<double>(i); });
  Kokkos::fence();
  return source;
}

template <class HostView>
std::int64_t elements_out_of_place(const HostView& copy) {
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(copy.extent(0)); ++i)
    wrong += copy(i) != 1.0 + static_cast<double>(i);
  return wrong;
}

TEST(HostCopy, EverySliceAndTheTailArriveInPlace) {
  const auto source = numbered_source();
  // Into a host view of its own, so that the slices are copied on a host backend too.
  HostArray copy("copy", source.extent(0));
  copy_until_signal(copy, source);
  EXPECT_EQ(elements_out_of_place(copy), 0);
  EXPECT_EQ(elements_out_of_place(host_copy_until_signal(source)), 0);
}

TEST(HostCopyDeathTest, ASignalBeforeTheFirstSliceCopiesNothing) {
  ::testing::GTEST_FLAG(death_test_style) = "threadsafe";  // a child of its own: no threads forked
  EXPECT_EXIT(
      {
        const auto source = numbered_source();
        HostArray copy("copy", source.extent(0));
        interrupt::install();
        std::raise(SIGTERM);
        copy_until_signal(copy, source);
        const bool untouched =
            elements_out_of_place(copy) == static_cast<std::int64_t>(copy.extent(0));
        std::_Exit(untouched ? 7 : 8);  // no atexit: Kokkos stays up
      },
      ::testing::ExitedWithCode(7), "");
}

}  // namespace
}  // namespace kmini
