// main() for test programs whose tests run Kokkos code: GoogleTest inside a Kokkos scope, so that
// views made by the tests (and static ones in the code under test) are freed before finalize.
#include <gtest/gtest.h>

#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

bool tests_running = false;

// A library that ends the process from inside a test (reference BLAS's xerbla stops with status
// 0 on an illegal argument) would otherwise pass it: ctest sees only the exit status.
void fail_if_a_test_exited() {
  if (!tests_running) return;
  std::fputs("test program: the process exited during a test, which therefore failed\n", stderr);
  std::fflush(stderr);
  _exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  std::atexit(fail_if_a_test_exited);
  // ctest discovers the tests from this listing: anything Kokkos prints on initialising (its
  // OpenMP binding warnings) would be read as more tests, so the listing runs without it.
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--gtest_list_tests") == 0) {
      ::testing::InitGoogleTest(&argc, argv);
      return RUN_ALL_TESTS();
    }
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  tests_running = true;
  const int status = RUN_ALL_TESTS();
  tests_running = false;
  return status;
}
