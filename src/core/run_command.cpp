#include "core/run_command.hpp"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>

#include "core/agreed_input.hpp"
#include "core/atomic_file.hpp"
#include "core/ceiling.hpp"
#include "core/comm.hpp"
#include "core/config.hpp"
#include "core/device.hpp"
#include "core/dry_run.hpp"
#include "core/error.hpp"
#include "core/finished_results.hpp"
#include "core/headline.hpp"
#include "core/input_file.hpp"
#include "core/interrupt.hpp"
#include "core/job_command.hpp"
#include "core/last_resort.hpp"
#include "core/progress.hpp"
#include "core/report.hpp"
#include "core/results_table.hpp"
#include "core/runner.hpp"
#include "core/session.hpp"
#include "core/standard_output.hpp"
#include "core/text.hpp"

namespace kmini {

namespace {

// The report's path as the command line gave it (or the default name), which is what is printed,
// and resolved at the start, which is where it is written.
struct ReportPath {
  std::string given;
  std::string absolute;
};

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
  for (const auto& [ceiling, kind] : ceilings.kinds) {
    out << ceiling_name(ceiling) << " ceiling: " << format_significant(kind.gbps, 4) << " GB/s";
    if (ceilings.datasheet_gbps > 0.0)
      out << " (" << format_significant(100.0 * kind.gbps / ceilings.datasheet_gbps, 3)
          << "% of the datasheet's " << format_significant(ceilings.datasheet_gbps, 4) << ")";
    out << ", set by " << kind.set_by << "; from";
    for (const auto& probe : kind.probes) {
      out << " " << probe.variant << " " << format_significant(probe.gbps, 4) << " GB/s ("
          << (probe.validation.passed() ? "PASS" : "FAIL") << ")";
    }
    out << "\n";
  }
  out << "(" << ceilings.elements << " " << ceilings.unit << ", best of " << ceilings.repetitions
      << ")\n\n";
}

void print_raised_ceilings(std::ostream& out, const Ceilings& ceilings) {
  for (const auto& [ceiling, kind] : ceilings.kinds) {
    if (kind.raised_by.empty()) continue;
    out << ceiling_name(ceiling) << " ceiling: raised to " << format_significant(kind.gbps, 4)
        << " GB/s by " << kind.raised_by << ", past the probe's "
        << format_significant(kind.probed_gbps, 4)
        << " GB/s; the report quotes every result against it\n";
  }
}

int exit_status(const Summary& summary) {
  if (summary.interrupted != 0) return 128 + summary.interrupted;  // as the signal's own exit
  if (summary.run_errors > 0) return static_cast<int>(ExitCode::runtime_failure);
  if (!summary.valid()) return static_cast<int>(ExitCode::validation_failed);
  return static_cast<int>(ExitCode::ok);
}

}  // namespace

namespace {

// `kmini run`'s phases, in the order they come: load, check, probe, run, report. Each is short
// and named, as HPCG's are; the session objects (MPI, Kokkos) stay with run_command.
class RunCommand {
 public:
  RunCommand(const CliOptions& options, const AppRegistry& registry, const Comm& world,
             std::ostream& out, const std::string& command_line)
      : options_(options),
        registry_(registry),
        world_(world),
        out_(out),
        command_line_(command_line),
        input_(load_agreed_input(options, registry, world)) {}

  // Memory and work, nothing run or written.
  int dry_run() const {
    KokkosSession kokkos(options_.kokkos_args, place_on_node(world_));
    print_dry_run(out_, input_, world_);
    const DeviceInfo device = describe_device();
    const Runner runner(world_, device, {});
    for (const auto& run : input_.runs)
      runner.check_memory(run);
    // The probe that starts a run is gated as the run will gate it.
    const std::int64_t probe = ceiling_elements(device);
    check_ceiling_memory(registry_, runner, probe);
    out_ << "every point fits the device's free memory"
         << (probe > 0 ? ", and so does the bandwidth probe" : "") << "\n";
    return static_cast<int>(ExitCode::ok);
  }

  // Where the report goes, agreed by every rank and checked writable before anything runs.
  ReportPath agree_on_report_path() const {
    const std::string path =
        world_.broadcast(options_.report_path.empty() ? default_report_path(input_, options_.format)
                                                      : options_.report_path);
    // Resolved now: a working folder removed during the run leaves a relative name meaningless,
    // where the absolute one still fails into write_report_somewhere's fallback folders.
    std::error_code unresolved;
    const std::filesystem::path absolute = std::filesystem::absolute(path, unresolved);
    const ReportPath report{path, unresolved ? path : absolute.string()};
    root_check(world_, [&] {
      check_writable_path(path, "--report");
      for (const OutputFile& output : output_files(input_)) {
        if (writes_collide(path, output.path)) {
          throw InputError("--report " + quoted(path) + ": is the file " + output.key_path + " (" +
                           output.mark.str() +
                           ") writes: the report would replace it; name another file");
        }
      }
    });
    return report;
  }

  // Inside the Kokkos session: everything that holds Kokkos memory lives in here.
  int measure_and_report(const NodePlacement& placement, const ReportPath& report_path) const {
    const DeviceInfo device = describe_device();
    print_header(out_, world_, device, placement, input_);
    // Collective, so made here, where every rank is, for the last resort's report too.
    const Tree meta = meta_section(world_, device, placement, command_line_, input_);
    FinishedResults finished;
    // Rank 0 writes the report; the other ranks end when the launcher ends the job.
    std::optional<LastResort> last_resort;
    if (world_.is_root()) {
      last_resort.emplace([this, &meta, &finished, &report_path](int signal) {
        write_what_finished(meta, finished.copy(), signal, report_path);
      });
    }
    const Runner probe_runner(world_, device, {});
    for (const auto& run : input_.runs)
      probe_runner.check_memory(run);
    // A file or pipe buffers stdout in blocks: the header goes out before the probe and the
    // runs, so that one watching the output (or a run killed early) sees what runs where.
    out_.flush();
    const Ceilings probed = measure_start_ceilings(probe_runner, device);
    finished.set_ceilings(probed);
    print_ceilings(out_, probed);

    const std::vector<RunResult> results =
        run_all(Runner(world_, device, probed.by_kind(), probed.datasheet_gbps), finished);
    const Ending ending = end_of(meta, probed, results);
    print_raised_ceilings(out_, ending.ceilings);
    if (last_resort) last_resort->finish();
    const std::string written = write_report(ending.report, report_path);
    print_headlines(out_, ending.headlines, ending.summary.reference_device);
    out_ << ending.summary.line() << "\n"
         << "report: " << (written.empty() ? "none (see the error above)" : written) << "\n";
    // A report sent elsewhere, or a lost stdout, is a runtime failure; a signal's status, which
    // says the run was cut short, outranks it, as it outranks every other.
    const bool report_elsewhere = written != report_path.given;
    const bool lost_stdout = stdout_failed(written);
    const int status = final_status(results, ending.summary);
    return report_elsewhere || lost_stdout
               ? std::max(status, static_cast<int>(ExitCode::runtime_failure))
               : status;
  }

 private:
  // The report and what is printed with it, from the runs' results: the ceilings raised to the
  // results past them, the headlines, the summary. `signal`, where not 0, is one that stopped
  // the runs (the last resort's).
  struct Ending {
    Ceilings ceilings;
    std::vector<Headline> headlines;
    Summary summary;
    Tree report;
  };
  Ending end_of(const Tree& meta, Ceilings ceilings, std::vector<RunResult> results,
                int signal = 0) const {
    raise_ceilings_to_results(ceilings, results);
    Ending ending;
    ending.headlines = find_headlines(results, input_.reference);
    ending.summary = summary_of(results, ceilings, ending.headlines);
    if (signal != 0) ending.summary.interrupted = signal;
    ending.report = report_of(meta, ceilings, results, ending.headlines, ending.summary);
    ending.ceilings = std::move(ceilings);
    return ending;
  }

  // The last resort's ending (core/last_resort.hpp), on its own thread: the report of what had
  // finished when `signal` found no safe point in time, and its summary on stderr (standard
  // output is the run's thread's).
  void write_what_finished(const Tree& meta, FinishedResults::Copy finished, int signal,
                           const ReportPath& path) const {
    if (!finished.ceilings) {
      finished.ceilings.emplace();
      finished.ceilings->reason = probe_stopped_reason(signal);
    }
    if (finished.running) finished.runs.back().interrupted = signal;
    const Ending ending = end_of(meta, *finished.ceilings, std::move(finished.runs), signal);
    const std::string written = write_report(ending.report, path);
    std::cerr << "\nkmini: " << interrupt::name(signal) << " found no safe point within "
              << LastResort::kSeconds << " s (inside one launch or library call): stopped there\n"
              << ending.summary.line() << "\n"
              << "report: " << (written.empty() ? "none (see the error above)" : written)
              << std::endl;
  }

  // Whether standard output lost what was printed (a closed pipe, a full disk: SIGPIPE is
  // ignored during runs, so such writes fail instead of ending the process); says so on stderr,
  // pointing at the report, which holds every result.
  bool stdout_failed(const std::string& report) const {
    if (!world_.is_root()) return false;
    const std::string why = standard_output_lost(out_);
    if (why.empty()) return false;
    std::cerr << "kmini: standard output could not be written (" << why << "): its tables are lost"
              << (report.empty() ? std::string() : "; the report " + quoted(report) + " holds them")
              << std::endl;
    return true;
  }

  // The probe's length: --ceiling-elements, else the default for the smallest free memory.
  std::int64_t ceiling_elements(const DeviceInfo& device) const {
    return options_.ceiling_elements >= 0
               ? options_.ceiling_elements
               : static_cast<std::int64_t>(world_.min(static_cast<double>(
                     default_ceiling_elements(registry_, device, free_device_memory().bytes))));
  }

  Ceilings measure_start_ceilings(const Runner& probe_runner, const DeviceInfo& device) const {
    return measure_ceilings(registry_, probe_runner, ceiling_elements(device), world_.size(),
                            job_memory_peak_gbps(world_, device));
  }

  // Every run in turn, each point's rows printed as it ends; stops after an interrupted run.
  std::vector<RunResult> run_all(const Runner& runner, FinishedResults& finished) const {
    std::vector<RunResult> results;
    for (const auto& run : input_.runs) {
      print_run_heading(out_, run);
      out_.flush();
      finished.begin_run(run);
      results.push_back(run_one(runner, run, finished));
      finished.end_run(results.back());
      out_.flush();
      if (results.back().interrupted != 0) {
        out_ << "  stopped by " << interrupt::name(results.back().interrupted)
             << ": the report holds what finished\n\n";
        break;
      }
    }
    return results;
  }

  RunResult run_one(const Runner& runner, const RunSpec& run, FinishedResults& finished) const {
    try {
      return runner.run(
          run,
          [&](const std::vector<VariantResult>& point) {
            finished.add_point(point);
            print_point(out_, run, point);
            // A file or pipe buffers stdout in blocks: each point's rows go out when printed, so
            // that a run killed later keeps what it showed.
            out_.flush();
          },
          [&](const std::vector<VariantResult>& so_far) { finished.set_point_so_far(so_far); });
    } catch (const std::exception& e) {
      progress::clear();
      // A rank cannot leave the others waiting in a collective: with several ranks a failure
      // ends the job. Alone, the failure is recorded and the next run goes on.
      if (world_.size() > 1) {
        std::cerr << "kmini: rank " << world_.rank() << ": " << run.label()
                  << " failed: " << e.what() << std::endl;
        MPI_Abort(world_.handle(), static_cast<int>(ExitCode::runtime_failure));
      }
      RunResult failed;
      failed.spec = &run;
      failed.error = e.what();
      out_ << "  error: " << e.what() << "\n\n";
      // stderr too, where one who sends stdout elsewhere looks for errors.
      std::cerr << "kmini: error: " << run.label() << ": " << e.what() << std::endl;
      return failed;
    }
  }

  Summary summary_of(const std::vector<RunResult>& results, const Ceilings& ceilings,
                     const std::vector<Headline>& headlines) const {
    Summary summary = summarize(results);
    summary.probe_failed = ceilings.measured && !ceilings.validated();
    if (input_.reference) {
      summary.reference_device = input_.reference->device;
      summary.rating = rating_of(headlines);
    }
    summary.overrides = options_.overrides;
    return summary;
  }

  Tree report_of(const Tree& meta, const Ceilings& ceilings, const std::vector<RunResult>& results,
                 const std::vector<Headline>& headlines, const Summary& summary) const {
    Tree report = Tree::map();
    report["kmini_report"] = 1;
    report["meta"] = meta;
    report["ceilings"] = ceilings.to_tree();
    Tree runs = Tree::list();
    for (const auto& r : results)
      runs.push_back(run_section(r));
    report["runs"] = runs;
    report["summary"] = summary.to_tree();
    report["summary"]["runs"] = headlines_tree(headlines);
    if (input_.reference && !input_.reference->note.empty()) {
      report["summary"]["rating"]["reference_note"] = input_.reference->note;
    }
    return report;
  }

  // Where the report went (the root writes it): the path as given where it went there, the
  // fallback's where it went elsewhere, "" where it could not be written.
  std::string write_report(const Tree& report, const ReportPath& path) const {
    if (!world_.is_root()) return path.given;
    const std::string written = write_report_somewhere(path.absolute, [&](std::ostream& file) {
      if (options_.format == ReportFormat::json) {
        write_json(report, file);
      } else {
        write_yaml(report, file);
      }
    });
    return written == path.absolute ? path.given : written;
  }

  // The summary's status, or 2 where an input asks only for variants that cannot run here: that
  // is the input's fault.
  int final_status(const std::vector<RunResult>& results, const Summary& summary) const {
    bool refused = false;
    for (const auto& r : results) {
      const std::string problem = nothing_applicable(r);
      if (problem.empty()) continue;
      if (world_.is_root()) std::cerr << "kmini: error: " << problem << std::endl;
      refused = true;
    }
    if (refused && summary.interrupted == 0 && summary.run_errors == 0)
      return static_cast<int>(ExitCode::bad_input);
    return exit_status(summary);
  }

  const CliOptions& options_;
  const AppRegistry& registry_;
  const Comm& world_;
  std::ostream& out_;
  const std::string& command_line_;
  const Input input_;
};

}  // namespace

namespace {

// The run, from MPI's start to its end; the exit status.
int run_in_sessions(const CliOptions& options, const AppRegistry& registry, int& argc, char**& argv,
                    const std::string& command_line, bool& root) {
  MpiSession mpi(argc, argv);
  const Comm world = Comm::world();
  root = world.is_root();
  std::ostringstream discard;
  std::ostream& out = world.is_root() ? std::cout : discard;
  try {
    agree_on_command(world, command_phrase("run"));
    const RunCommand command(options, registry, world, out, command_line);
    if (options.dry_run) return command.dry_run();
    const ReportPath report_path = command.agree_on_report_path();
    const NodePlacement placement = place_on_node(world);
    KokkosSession kokkos(options.kokkos_args, placement);
    return command.measure_and_report(placement, report_path);
  } catch (const InputError& e) {
    if (world.is_root()) std::cerr << "kmini: error: " << e.what() << std::endl;
    return static_cast<int>(ExitCode::bad_input);
  } catch (const RefusedOnAnotherRank&) {
    return static_cast<int>(ExitCode::bad_input);
  } catch (const std::exception& e) {
    std::cerr << "kmini: rank " << world.rank() << ": runtime failure: " << e.what() << std::endl;
    if (world.size() > 1) {
      MPI_Abort(world.handle(), static_cast<int>(ExitCode::runtime_failure));
    }
    return static_cast<int>(ExitCode::runtime_failure);
  }
}

}  // namespace

int run_command(const CliOptions& options, const AppRegistry& registry, int& argc, char**& argv,
                const std::string& command_line) {
  bool root = true;
  if (options.dry_run) return run_in_sessions(options, registry, argc, argv, command_line, root);
  // Signals are caught from the start, before MPI and the input are set up: one that came
  // during those (half a second) ended the process with no report.
  interrupt::install();
  const int status = run_in_sessions(options, registry, argc, argv, command_line, root);
  // A signal after the last run's last safe point (while the summary and the report were made,
  // a slow reader held the report's FIFO, or Kokkos and MPI finished) found every run finished
  // and the report whole: it stays as it is, but the request is not lost. From here on a signal
  // takes its default action, so that none falls between this look and the exit.
  const int late = interrupt::received_before_exit();
  // Only a run that ended whole, valid or not, is told so; other statuses say more.
  const bool whole = status == static_cast<int>(ExitCode::ok) ||
                     status == static_cast<int>(ExitCode::validation_failed);
  if (late == 0 || !whole) return status;
  if (root) {
    std::cerr << "kmini: " << interrupt::name(late)
              << " came after every run had finished: the report holds every result" << std::endl;
  }
  return 128 + late;
}

}  // namespace kmini
