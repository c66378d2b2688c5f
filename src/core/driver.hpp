// The kmini commands: run, check, list, --help, --version. main() hands over to kmini_main.
#pragma once

#include "core/registry.hpp"

namespace kmini {

// Returns the process exit status (see ExitCode).
int kmini_main(int argc, char** argv, const AppRegistry& registry);

}  // namespace kmini
