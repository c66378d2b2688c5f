// Where the tests find the kmini binary, the checkout and their own inputs, and the Kokkos
// patches' digest this build's report must show. The values are compiled into one generated unit
// (test_paths.cpp.in) and nowhere else, so that no other test's compile command names a folder of
// this checkout: a compiler cache then serves a clone of the same revision at another path.
#pragma once

#include <string>

namespace kmini::testing {

std::string kmini_binary();     // the kmini built beside the tests
std::string source_dir();       // the checkout's root
std::string test_inputs_dir();  // tests/inputs
std::string mpiexec();          // the MPI launcher CMake found
// The report's meta.kokkos.patches for this build: the digest of the checkout's cmake/patches/
// (scripts/setup.sh's patch_digest()) when the Kokkos found has setup.sh's stamp, else "none".
std::string expected_kokkos_patches();

inline std::string test_input(const std::string& name) {
  return test_inputs_dir() + "/" + name;
}

}  // namespace kmini::testing
