// Assertions shared by the tests.
#pragma once

#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "core/error.hpp"

#define EXPECT_CONTAINS(haystack, needle) \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)

namespace kmini::testing {

// A value-parameterised test's name from its parameter, a word ("float", "himeno"). The test
// executables list without gtest's "# GetParam() = ..." comments (tests/CMakeLists.txt,
// NO_PRETTY_VALUES): a test name with spaces loses its time in ctest's cost data, so that it ran
// last, however long.
struct ParamIsName {
  template <class Param>
  std::string operator()(const ::testing::TestParamInfo<Param>& info) const {
    return std::string(info.param);
  }
};

// The message of the InputError `action` throws; a test failure if it throws none.
template <class Action>
std::string input_error_of(Action&& action) {
  try {
    action();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an InputError";
  return "";
}

// The digest of the Kokkos patches as reports and --version give it: 16 lowercase hex digits
// (scripts/setup.sh's patch_digest()), or "none" for a Kokkos that setup.sh did not build.
inline bool is_kokkos_patches_digest(const std::string& digest) {
  return std::regex_match(digest, std::regex("[0-9a-f]{16}|none"));
}

}  // namespace kmini::testing
