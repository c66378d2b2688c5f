// main() for test programs whose tests run Kokkos code: GoogleTest inside a Kokkos scope, so that
// views made by the tests (and static ones in the code under test) are freed before finalize.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstring>

int main(int argc, char** argv) {
  // ctest discovers the tests from this listing: anything Kokkos prints on initialising (its
  // OpenMP binding warnings) would be read as more tests, so the listing runs without it.
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--gtest_list_tests") == 0) {
      ::testing::InitGoogleTest(&argc, argv);
      return RUN_ALL_TESTS();
    }
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  return RUN_ALL_TESTS();
}
