#include "core/run_command.hpp"

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <iostream>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/ceiling.hpp"
#include "core/comm.hpp"
#include "core/config.hpp"
#include "core/device.hpp"
#include "core/dry_run.hpp"
#include "core/error.hpp"
#include "core/headline.hpp"
#include "core/interrupt.hpp"
#include "core/progress.hpp"
#include "core/report.hpp"
#include "core/results_table.hpp"
#include "core/runner.hpp"
#include "core/session.hpp"
#include "core/text.hpp"

namespace kmini {

namespace {

std::vector<Override> parse_overrides(const CliOptions& options) {
  std::vector<Override> overrides;
  for (const auto& text : options.overrides)
    overrides.push_back(parse_override(text));
  return overrides;
}

std::string default_report_path(const Input& input, ReportFormat format) {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char stamp[32];
  std::strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &local);
  const std::string extension = format == ReportFormat::json ? ".json" : ".yaml";
  const std::string stem = "kmini-" + input.name + "-" + stamp;
  std::string path = stem + extension;
  for (int n = 2; std::filesystem::exists(path); ++n) {
    path = stem + "-" + std::to_string(n) + extension;
  }
  return path;
}

// Runs `check` on the root only and makes its InputError every rank's, so that no rank goes on
// into a collective the others have left.
template <class Check>
void root_check(const Comm& comm, Check check) {
  std::string problem;
  if (comm.is_root()) {
    try {
      check();
    } catch (const InputError& e) {
      problem = e.what();
    }
  }
  problem = comm.broadcast(problem);
  if (!problem.empty()) throw InputError(problem);
}

void print_header(std::ostream& out, const Comm& comm, const DeviceInfo& device,
                  const NodePlacement& placement, const Input& input) {
  out << "kmini: " << input.runs.size() << " run(s) from " << input.path << " on " << comm.size()
      << " rank(s); rank 0: " << device.execution_space << " on " << device.name;
  if (device.is_gpu()) out << " (GPU " << device.id << " of " << placement.visible_gpus << ")";
  out << ", " << format_bytes(device.memory_bytes) << "\n";
}

void print_ceilings(std::ostream& out, const Ceilings& ceilings) {
  if (!ceilings.measured) {
    out << "ceilings: not measured, " << ceilings.reason << "\n\n";
    return;
  }
  for (const auto& [name, kind] : ceilings.kinds) {
    out << name << " ceiling: " << format_significant(kind.gbps, 4) << " GB/s, from";
    for (const auto& probe : kind.probes) {
      out << " " << probe.variant << " " << format_significant(probe.gbps, 4) << " GB/s ("
          << (probe.validation.passed() ? "PASS" : "FAIL") << ")";
    }
    out << "\n";
  }
  out << "(" << ceilings.elements << " doubles per array and rank, best of " << ceilings.repetitions
      << ")\n\n";
}

int exit_status(const Summary& summary) {
  if (summary.interrupted != 0) return 128 + summary.interrupted;  // as the signal's own exit
  if (summary.run_errors > 0) return static_cast<int>(ExitCode::runtime_failure);
  if (!summary.valid()) return static_cast<int>(ExitCode::validation_failed);
  return static_cast<int>(ExitCode::ok);
}

// Writes the report to `path`; where that fails at the end of a run (the folder gone, the disk
// full), to the same name in the working folder, else in $TMPDIR or /tmp, saying so on stderr:
// a finished run's results are never lost to its report path. Returns where it went, or ""
// where nothing could be written (said on stderr).
std::string write_report_somewhere(const std::string& path,
                                   const std::function<void(std::ostream&)>& produce) {
  std::string problem;
  try {
    write_file_atomically(path, produce);
    return path;
  } catch (const RuntimeFailure& e) {
    problem = e.what();
  }
  const std::string name = std::filesystem::path(path).filename().string();
  const char* tmpdir = std::getenv("TMPDIR");
  for (const std::string& folder :
       {std::filesystem::current_path().string(),
        std::string(tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp")}) {
    const std::string fallback = (std::filesystem::path(folder) / name).string();
    if (fallback == path) continue;
    try {
      write_file_atomically(fallback, produce);
      std::cerr << "kmini: " << problem << "; the report went to " << fallback << " instead"
                << std::endl;
      return fallback;
    } catch (const RuntimeFailure& e) {
      problem += "; " + std::string(e.what());
    }
  }
  std::cerr << "kmini: " << problem << "; no report was written" << std::endl;
  return "";
}

}  // namespace

int check_command(const CliOptions& options, const AppRegistry& registry) {
  const Input input = load_input(options.input, parse_overrides(options), registry);
  std::size_t points = 0;
  for (const auto& run : input.runs)
    points += run.points().size();
  std::cout << input.path << ": OK, " << input.runs.size() << " run(s), " << points
            << " point(s)\n";
  return static_cast<int>(ExitCode::ok);
}

int run_command(const CliOptions& options, const AppRegistry& registry, int& argc, char**& argv,
                const std::string& command_line) {
  MpiSession mpi(argc, argv);
  const Comm world = Comm::world();
  std::ostringstream discard;
  std::ostream& out = world.is_root() ? std::cout : discard;

  try {
    const Input input = load_input(options.input, parse_overrides(options), registry);
    if (options.dry_run) {
      KokkosSession kokkos(options.kokkos_args, place_on_node(world));
      print_dry_run(out, input, world);
      const DeviceInfo device = describe_device();
      const Runner runner(world, device, {});
      for (const auto& run : input.runs)
        runner.check_memory(run);
      out << "every point fits the device's free memory\n";
      return static_cast<int>(ExitCode::ok);
    }
    const std::string report_path =
        world.broadcast(options.report_path.empty() ? default_report_path(input, options.format)
                                                    : options.report_path);
    root_check(world, [&] {
      check_writable_path(report_path, "--report");
      std::error_code ec;
      if (std::filesystem::equivalent(report_path, options.input, ec)) {
        throw InputError("--report " + quoted(report_path) +
                         ": is the input file itself, which the report would replace");
      }
    });

    interrupt::install();
    const NodePlacement placement = place_on_node(world);
    KokkosSession kokkos(options.kokkos_args, placement);
    // Everything holding Kokkos memory lives in this scope, inside the Kokkos session.
    {
      const DeviceInfo device = describe_device();
      print_header(out, world, device, placement, input);
      const Runner probe_runner(world, device, {});
      for (const auto& run : input.runs)
        probe_runner.check_memory(run);

      const std::int64_t probe_elements =
          options.ceiling_elements >= 0
              ? options.ceiling_elements
              : static_cast<std::int64_t>(world.min(
                    static_cast<double>(default_ceiling_elements(device, free_device_bytes()))));
      const Ceilings ceilings =
          measure_ceilings(registry, probe_runner, probe_elements, world.size());
      print_ceilings(out, ceilings);

      const Runner runner(world, device, ceilings.by_kind());
      std::vector<RunResult> results;
      for (const auto& run : input.runs) {
        print_run_heading(out, run);
        try {
          results.push_back(runner.run(run, [&](const std::vector<VariantResult>& point) {
            print_point(out, run, point);
            // A file or pipe buffers stdout in blocks: each point's rows go out when printed,
            // so that a run killed later keeps what it showed.
            out.flush();
          }));
        } catch (const std::exception& e) {
          progress::clear();
          // A rank cannot leave the others waiting in a collective: with several ranks a
          // failure ends the job. Alone, the failure is recorded and the next run goes on.
          if (world.size() > 1) {
            std::cerr << "kmini: rank " << world.rank() << ": " << run.label()
                      << " failed: " << e.what() << std::endl;
            MPI_Abort(world.handle(), static_cast<int>(ExitCode::runtime_failure));
          }
          RunResult failed;
          failed.spec = &run;
          failed.error = e.what();
          results.push_back(failed);
          out << "  error: " << e.what() << "\n\n";
        }
        out.flush();
        if (results.back().interrupted != 0) {
          out << "  stopped by " << interrupt::name(results.back().interrupted)
              << ": the report holds what finished\n\n";
          break;
        }
      }

      Summary summary = summarize(results);
      summary.probe_failed = ceilings.measured && !ceilings.validated();
      const std::vector<Headline> headlines = find_headlines(results, input.reference);
      if (input.reference) {
        summary.reference_device = input.reference->device;
        summary.rating = rating_of(headlines);
      }
      summary.overrides = options.overrides;
      Tree report = Tree::map();
      report["kmini_report"] = 1;
      report["meta"] = meta_section(world, device, placement, command_line, input);
      report["ceilings"] = ceilings.to_tree();
      Tree runs = Tree::list();
      for (const auto& r : results)
        runs.push_back(run_section(r));
      report["runs"] = runs;
      report["summary"] = summary.to_tree();
      report["summary"]["runs"] = headlines_tree(headlines);
      if (input.reference && !input.reference->note.empty()) {
        report["summary"]["rating"]["reference_note"] = input.reference->note;
      }
      const auto produce = [&](std::ostream& file) {
        if (options.format == ReportFormat::json) {
          write_json(report, file);
        } else {
          write_yaml(report, file);
        }
      };
      std::string written = report_path;
      if (world.is_root()) written = write_report_somewhere(report_path, produce);
      print_headlines(out, headlines, summary.reference_device);
      out << summary.line() << "\n"
          << "report: " << (written.empty() ? "none (see the error above)" : written) << "\n";
      if (written != report_path) return static_cast<int>(ExitCode::runtime_failure);
      // An input that asks only for variants that cannot run here is the input's fault.
      bool refused = false;
      for (const auto& r : results) {
        const std::string problem = nothing_applicable(r);
        if (problem.empty()) continue;
        if (world.is_root()) std::cerr << "kmini: error: " << problem << std::endl;
        refused = true;
      }
      if (refused && summary.interrupted == 0 && summary.run_errors == 0)
        return static_cast<int>(ExitCode::bad_input);
      return exit_status(summary);
    }
  } catch (const InputError& e) {
    if (world.is_root()) std::cerr << "kmini: error: " << e.what() << std::endl;
    return static_cast<int>(ExitCode::bad_input);
  } catch (const std::exception& e) {
    std::cerr << "kmini: rank " << world.rank() << ": runtime failure: " << e.what() << std::endl;
    if (world.size() > 1) {
      MPI_Abort(world.handle(), static_cast<int>(ExitCode::runtime_failure));
    }
    return static_cast<int>(ExitCode::runtime_failure);
  }
}

}  // namespace kmini
