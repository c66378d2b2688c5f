// Errors that end a kmini invocation, each with its exit code (docs/report.md lists them).
#pragma once

#include <stdexcept>
#include <string>

namespace kmini {

enum class ExitCode : int {
  ok = 0,
  bad_input = 2,          // usage, configuration, a size that does not fit the device
  validation_failed = 3,  // everything ran, but at least one result did not validate
  runtime_failure = 4,    // out of memory, MPI, device, anything unexpected
};

// Bad usage or bad input: the message is one line naming what is wrong. Exit 2.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Something broke while running (allocation, device, MPI). Exit 4.
class RuntimeFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace kmini
