// Running the kmini binary built beside the tests; CMake compiles its path in.
#pragma once

#include <cstdlib>
#include <string>
#include <vector>

#include "support/process.hpp"

namespace kmini::testing {

inline std::string kmini_binary() {
  return KMINI_BINARY;
}
inline std::string test_input(const std::string& name) {
  return std::string(KMINI_TEST_INPUTS) + "/" + name;
}

// The environment kmini runs in under the tests, set once (a user's own settings win).
inline void prepare_environment() {
  // mpirun refuses root without these, and CI runs as root.
  setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
  setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
  // Kokkos' OpenMP backend warns at every start without it.
  setenv("OMP_PROC_BIND", "false", 0);
  // In sanitizer builds: Open MPI's allocations at MPI_Init are not ours to fix.
  setenv("LSAN_OPTIONS", "suppressions=" KMINI_LSAN_SUPPRESSIONS ":print_suppressions=0", 0);
}

// kmini ARGS..., its exit status and output.
inline ProcessResult kmini(std::vector<std::string> args, const std::string& working_dir = "") {
  prepare_environment();
  args.insert(args.begin(), kmini_binary());
  return run_process(args, working_dir);
}

}  // namespace kmini::testing
