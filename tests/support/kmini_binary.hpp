// Running the kmini binary built beside the tests (support/test_paths.hpp says where it is).
#pragma once

#include <cstdlib>
#include <string>
#include <vector>

#include "support/process.hpp"
#include "support/test_paths.hpp"

namespace kmini::testing {

// The environment kmini runs in under the tests, set once (a user's own settings win).
inline void prepare_environment() {
  // mpirun refuses root without these, and CI runs as root.
  setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
  setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
  // Kokkos' OpenMP backend warns at every start without it.
  setenv("OMP_PROC_BIND", "false", 0);
  // In sanitizer builds, kmini keeps AddressSanitizer and UBSan but not the leak check: Open
  // MPI's components allocate at MPI_Init and are unloaded by exit, so their leaks can be
  // neither fixed here nor suppressed by name. The in-process tests keep the leak check.
  setenv("ASAN_OPTIONS", "detect_leaks=0", 0);
}

// kmini ARGS..., its exit status and output.
inline ProcessResult kmini(std::vector<std::string> args, const std::string& working_dir = "") {
  prepare_environment();
  args.insert(args.begin(), kmini_binary());
  return run_process(args, working_dir);
}

}  // namespace kmini::testing
