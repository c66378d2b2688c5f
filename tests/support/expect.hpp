// Assertions shared by the tests.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"

#define EXPECT_CONTAINS(haystack, needle) \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)

namespace kmini::testing {

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

}  // namespace kmini::testing
