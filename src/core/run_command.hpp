// `kmini check` and `kmini run`.
#pragma once

#include <string>

#include "core/cli.hpp"
#include "core/registry.hpp"

namespace kmini {

// Loads and checks the input and overrides; prints a one-line verdict. Exit status 0 or throws.
int check_command(const CliOptions& options, const AppRegistry& registry);

// The whole run: MPI, input, Kokkos, memory checks, ceiling probe, runs, report.
int run_command(const CliOptions& options, const AppRegistry& registry, int& argc, char**& argv,
                const std::string& command_line);

}  // namespace kmini
