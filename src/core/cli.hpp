// The command line: kmini run|check|list|--help|--version, with Kokkos' own flags passed through.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kmini {

enum class ReportFormat { yaml, json };

struct CliOptions {
  enum class Command { run, check, list, help, version };
  Command command = Command::help;
  std::string input;                   // run, check
  std::vector<std::string> overrides;  // --set app.key=value
  std::string report_path;             // run: --report; empty: a default name
  ReportFormat format = ReportFormat::yaml;
  std::int64_t ceiling_elements = -1;    // run: -1 chooses by device, 0 skips the probe
  bool dry_run = false;                  // run: estimate, do not run
  std::string list_app;                  // list: one app only
  bool markdown = false;                 // list: the input reference as Markdown
  std::vector<std::string> kokkos_args;  // --kokkos-..., passed to Kokkos unchanged
};

// Throws InputError on bad usage.
CliOptions parse_command_line(const std::vector<std::string>& args);

std::string help_text();

}  // namespace kmini
