#include "core/driver.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string>

#include "core/build_info.hpp"
#include "core/cli.hpp"
#include "core/data_files.hpp"
#include "core/error.hpp"
#include "core/job_command.hpp"
#include "core/launcher.hpp"
#include "core/list_command.hpp"
#include "core/run_command.hpp"
#include "core/standard_output.hpp"

namespace kmini {

namespace {

std::string version_text() {
  const BuildInfo& b = build_info();
  return "kmini " + b.version + " (" + b.git_revision + "), " + b.preset + " " + b.build_type +
         ", Kokkos " + b.kokkos_version + " (patches " + b.kokkos_patches + ") [" +
         b.kokkos_backends + "], " + b.compiler + "\ndata: " + data_folder_in_use() + "\n";
}

std::string joined_command_line(int argc, char** argv) {
  std::string text;
  for (int i = 0; i < argc; ++i)
    text += (i ? " " : "") + std::string(argv[i]);
  return text;
}

const char* subcommand_word(CliOptions::Command command) {
  switch (command) {
    case CliOptions::Command::run:
      return "run";
    case CliOptions::Command::check:
      return "check";
    case CliOptions::Command::list:
      return "list";
    case CliOptions::Command::help:
      return "--help";
    case CliOptions::Command::version:
      return "--version";
  }
  return "?";
}

int print_refusal(const std::string& why) {
  if (first_rank_or_alone()) std::cerr << "kmini: error: " << why << std::endl;
  return static_cast<int>(ExitCode::bad_input);
}

// A command whose whole answer is what it prints (help, version, list, check, a dry run): where
// standard output could not take it (a full disk, a closed descriptor), the answer is lost, and
// the exit status says so (a real run checks its own, pointing at its report).
int with_output_written(int status) {
  const std::string why = standard_output_lost(std::cout);
  if (why.empty()) return status;
  std::cerr << "kmini: standard output could not be written (" << why << "): the answer is lost"
            << std::endl;
  return std::max(status, static_cast<int>(ExitCode::runtime_failure));
}

int dispatch(const CliOptions& options, const AppRegistry& registry, int& argc, char**& argv,
             const std::string& command_line) {
  try {
    switch (options.command) {
      case CliOptions::Command::help:
        std::cout << help_text();
        return with_output_written(0);
      case CliOptions::Command::version:
        std::cout << version_text();
        return with_output_written(0);
      case CliOptions::Command::list:
        list_apps(registry, options.list_app, options.markdown, std::cout);
        return with_output_written(0);
      case CliOptions::Command::check:
        return with_output_written(check_command(options, registry));
      case CliOptions::Command::run: {
        const int status = run_command(options, registry, argc, argv, command_line);
        return options.dry_run ? with_output_written(status) : status;
      }
    }
  } catch (const InputError& e) {
    return print_refusal(e.what());
  } catch (const std::exception& e) {
    std::cerr << "kmini: runtime failure: " << e.what() << std::endl;
    return static_cast<int>(ExitCode::runtime_failure);
  }
  return static_cast<int>(ExitCode::runtime_failure);
}

}  // namespace

int kmini_main(int argc, char** argv, const AppRegistry& registry) {
  const std::string command_line = joined_command_line(argc, argv);
  CliOptions options;
  std::string refused;
  try {
    options = parse_command_line(std::vector<std::string>(argv + 1, argv + argc));
    // A KMINI_DATA_DIR that names no folder is refused before anything runs, not at the first
    // run that needs a data file, which may come late in a suite or not at all.
    if (options.command != CliOptions::Command::help) data_search_path();
  } catch (const InputError& e) {
    refused = e.what();
  }
  // Under a launcher every rank joins MPI, so that a rank refused or started to do something
  // else leaves no rank of `kmini run` waiting for it (run_command joins MPI itself).
  if (launched_processes() > 1 &&
      (!refused.empty() || options.command != CliOptions::Command::run)) {
    try {
      return as_rank_of_job(argc, argv,
                            refused.empty() ? command_phrase(subcommand_word(options.command))
                                            : refusal_phrase(refused),
                            [&] {
                              return refused.empty()
                                         ? dispatch(options, registry, argc, argv, command_line)
                                         : print_refusal(refused);
                            });
    } catch (const std::exception& e) {
      std::cerr << "kmini: runtime failure: " << e.what() << std::endl;
      return static_cast<int>(ExitCode::runtime_failure);
    }
  }
  if (!refused.empty()) return print_refusal(refused);
  return dispatch(options, registry, argc, argv, command_line);
}

}  // namespace kmini
