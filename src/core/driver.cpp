#include "core/driver.hpp"

#include <cstdlib>
#include <iostream>
#include <string>

#include "core/build_info.hpp"
#include "core/cli.hpp"
#include "core/data_files.hpp"
#include "core/error.hpp"
#include "core/launcher.hpp"
#include "core/list_command.hpp"
#include "core/run_command.hpp"

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

}  // namespace

int kmini_main(int argc, char** argv, const AppRegistry& registry) {
  const std::string command_line = joined_command_line(argc, argv);
  try {
    const CliOptions options = parse_command_line(std::vector<std::string>(argv + 1, argv + argc));
    // A KMINI_DATA_DIR that names no folder is refused before anything runs, not at the first
    // run that needs a data file, which may come late in a suite or not at all.
    if (options.command != CliOptions::Command::help) data_search_path();
    switch (options.command) {
      case CliOptions::Command::help:
        std::cout << help_text();
        return 0;
      case CliOptions::Command::version:
        std::cout << version_text();
        return 0;
      case CliOptions::Command::list:
        list_apps(registry, options.list_app, options.markdown, std::cout);
        return 0;
      case CliOptions::Command::check:
        return check_command(options, registry);
      case CliOptions::Command::run:
        return run_command(options, registry, argc, argv, command_line);
    }
  } catch (const InputError& e) {
    if (first_rank_or_alone()) std::cerr << "kmini: error: " << e.what() << std::endl;
    return static_cast<int>(ExitCode::bad_input);
  } catch (const std::exception& e) {
    std::cerr << "kmini: runtime failure: " << e.what() << std::endl;
    return static_cast<int>(ExitCode::runtime_failure);
  }
  return static_cast<int>(ExitCode::runtime_failure);
}

}  // namespace kmini
