// main() for test programs whose tests run Kokkos code: GoogleTest inside a Kokkos scope, so that
// views made by the tests (and static ones in the code under test) are freed before finalize.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  return RUN_ALL_TESTS();
}
