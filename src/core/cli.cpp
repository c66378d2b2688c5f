#include "core/cli.hpp"

#include <charconv>
#include <map>
#include <string>

#include "core/error.hpp"
#include "core/text.hpp"

namespace kmini {

std::string help_text() {
  return R"(kmini: a Kokkos mini-application of GPU benchmarks and algorithm variants

usage:
  kmini run FILE [--set APP.KEY=VALUE]... [--report PATH] [--format yaml|json]
                 [--ceiling-elements N] [--dry-run]
  kmini check FILE [--set APP.KEY=VALUE]...
  kmini list [APP] [--markdown]
  kmini --help | --version

commands:
  run     run every run of FILE (one run, or a suite with 'runs:'), print a table per run,
          and write the report (default: kmini-<input>-<date>-<time>.yaml here)
  check   validate FILE and the overrides without running anything
  list    the apps, their parameters (type, default, range, doc) and their variants;
          --markdown writes the same as the input reference

options:
  --set APP.KEY=VALUE     override a parameter of every run of APP (repeatable);
                          VALUE is YAML: 5, float, [1, 10, 100]
  --report PATH           where the report goes; written whole or not at all
  --format yaml|json      the report's format (default yaml)
  --ceiling-elements N    array length of the copy-bandwidth probe run at start;
                          0 skips it (no % of ceiling is reported then)
  --dry-run               print each run's memory need per rank and its estimated work
                          (bytes, flop, items over all ranks), check that it fits the
                          device, and stop: nothing runs and no report is written
  --kokkos-...            passed to Kokkos unchanged (--kokkos-help lists them)

Under mpirun each rank takes GPU (local rank mod visible GPUs); rank 0 prints and writes.

exit status:
  0  everything ran and validated     3  a result failed validation
  2  bad input or usage               4  runtime failure (memory, MPI, device)
)";
}

namespace {

class ArgReader {
 public:
  explicit ArgReader(const std::vector<std::string>& args) : args_(args) {}
  bool done() const { return next_ >= args_.size(); }
  const std::string& take() { return args_[next_++]; }

  // The value of `--flag VALUE` or `--flag=VALUE`; `arg` is the flag as taken.
  std::string value_of(const std::string& arg, const std::string& flag) {
    if (arg.size() > flag.size() && arg[flag.size()] == '=') return arg.substr(flag.size() + 1);
    if (done()) throw InputError(flag + " needs a value (see kmini --help)");
    return take();
  }

 private:
  const std::vector<std::string>& args_;
  std::size_t next_ = 0;
};

constexpr std::int64_t kMaxCeilingElements = 1000000000000;

bool is_flag(const std::string& arg, const std::string& flag) {
  return arg == flag || arg.rfind(flag + "=", 0) == 0;
}

std::int64_t parse_count(const std::string& text, const std::string& flag) {
  std::int64_t value = -1;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size() || value < 0) {
    throw InputError(flag + ": expected a non-negative integer, found " + quoted(text));
  }
  return value;
}

// Kokkos reads its numeric flags with std::stoi, whose exception would end the run as a failure
// (exit 4, "stoi") instead of naming the flag: those are checked here, the others pass as given.
void check_kokkos_flag(const std::string& arg) {
  struct Numeric {
    const char* flag;
    std::int64_t least;
    bool pair;  // "N" or "N,M"
  };
  static const Numeric numeric[] = {
      {"--kokkos-threads", 1, false},    {"--kokkos-num-threads", 1, false},
      {"--kokkos-numa", 1, false},       {"--kokkos-device-id", 0, false},
      {"--kokkos-num-devices", 1, true}, {"--kokkos-ndevices", 1, true}};
  for (const Numeric& n : numeric) {
    const std::string prefix = std::string(n.flag) + "=";
    if (arg.rfind(prefix, 0) != 0) continue;
    const std::string value = arg.substr(prefix.size());
    const std::string expected = std::string(n.flag) + ": expected a whole number of at least " +
                                 std::to_string(n.least) + (n.pair ? " (or two, 'N,M')" : "") +
                                 ", found " + quoted(value);
    const char* at = value.data();
    const char* end = value.data() + value.size();
    for (int part = 0; part < (n.pair ? 2 : 1); ++part) {
      std::int64_t number = -1;
      const auto result = std::from_chars(at, end, number);
      if (result.ec != std::errc() || number < n.least || number > 1000000)
        throw InputError(expected);
      at = result.ptr;
      if (at == end) return;
      if (*at != ',' || !n.pair || part == 1) throw InputError(expected);
      ++at;
    }
    throw InputError(expected);
  }
}

CliOptions::Command parse_command(const std::string& word) {
  if (word == "run") return CliOptions::Command::run;
  if (word == "check") return CliOptions::Command::check;
  if (word == "list") return CliOptions::Command::list;
  if (word == "help") return CliOptions::Command::help;
  const std::vector<std::string> commands{"run", "check", "list", "help"};
  std::string message = "unknown command " + quoted(word);
  const std::string guess = closest_match(word, commands);
  if (!guess.empty()) message += " (did you mean " + quoted(guess) + "?)";
  throw InputError(message + "; allowed: run, check, list, --help, --version");
}

}  // namespace

CliOptions parse_command_line(const std::vector<std::string>& args) {
  CliOptions options;
  std::vector<std::string> positional;
  bool have_command = false;
  ArgReader reader(args);
  auto require = [&](bool allowed, const std::string& flag) {
    if (!allowed) throw InputError(flag + " does not apply to this command (see kmini --help)");
  };
  // An option that takes one value, given twice: the later one silently won.
  std::map<std::string, std::string> given;
  auto once = [&](const std::string& flag, const std::string& value, const std::string& why) {
    const auto [earlier, first] = given.emplace(flag, value);
    if (!first) {
      throw InputError(flag + " given twice (" + quoted(earlier->second) + " and " + quoted(value) +
                       "); " + why);
    }
  };
  using Command = CliOptions::Command;
  while (!reader.done()) {
    const std::string arg = reader.take();
    if (arg.rfind("--kokkos-", 0) == 0) {
      check_kokkos_flag(arg);
      options.kokkos_args.push_back(arg);
    } else if (arg == "--help" || arg == "-h") {
      return CliOptions{};
    } else if (arg == "--version") {
      options.command = Command::version;
      return options;
    } else if (is_flag(arg, "--set")) {
      options.overrides.push_back(reader.value_of(arg, "--set"));
    } else if (is_flag(arg, "--report")) {
      const std::string path = reader.value_of(arg, "--report");
      if (path.empty()) throw InputError("--report needs a file name");
      once("--report", path, "a run writes one report");
      options.report_path = path;
    } else if (is_flag(arg, "--format")) {
      const std::string format = reader.value_of(arg, "--format");
      once("--format", format, "a run writes one report");
      if (format == "yaml") {
        options.format = ReportFormat::yaml;
      } else if (format == "json") {
        options.format = ReportFormat::json;
      } else {
        throw InputError("--format: expected yaml or json, found " + quoted(format));
      }
    } else if (is_flag(arg, "--ceiling-elements")) {
      const std::string value = reader.value_of(arg, "--ceiling-elements");
      once("--ceiling-elements", value, "a run measures one probe");
      options.ceiling_elements = parse_count(value, "--ceiling-elements");
      // The probe is a stream run, whose arrays hold at most 10^12 elements; past that its own
      // check would name "bandwidth probe", not the option.
      if (options.ceiling_elements > kMaxCeilingElements) {
        throw InputError("--ceiling-elements: expected an integer in [0, " +
                         std::to_string(kMaxCeilingElements) + "] (0 skips the probe), found " +
                         quoted(value));
      }
    } else if (arg == "--dry-run") {
      options.dry_run = true;
    } else if (arg == "--markdown") {
      options.markdown = true;
    } else if (arg.size() > 1 && arg[0] == '-') {
      throw InputError("unknown option " + quoted(arg) + " (see kmini --help)");
    } else if (!have_command) {
      options.command = parse_command(arg);
      have_command = true;
    } else {
      positional.push_back(arg);
    }
  }
  if (!have_command) throw InputError("no command given; try kmini --help");

  const bool runs_input = options.command == Command::run || options.command == Command::check;
  require(runs_input || options.overrides.empty(), "--set");
  require(options.command == Command::run || options.report_path.empty(), "--report");
  require(options.command == Command::run || options.ceiling_elements < 0, "--ceiling-elements");
  require(options.command == Command::list || !options.markdown, "--markdown");
  require(options.command == Command::run || !options.dry_run, "--dry-run");

  switch (options.command) {
    case Command::run:
    case Command::check:
      if (positional.empty()) throw InputError("missing the input FILE (see kmini --help)");
      if (positional.size() > 1) {
        throw InputError("one input FILE expected, found " + std::to_string(positional.size()) +
                         " (" + join_words(positional, ", ") + "); a suite lists several runs");
      }
      options.input = positional.front();
      break;
    case Command::list:
      if (positional.size() > 1) throw InputError("kmini list takes at most one APP");
      if (!positional.empty()) options.list_app = positional.front();
      break;
    case Command::help:
    case Command::version:
      if (!positional.empty()) {
        throw InputError("unexpected argument " + quoted(positional.front()));
      }
      break;
  }
  return options;
}

}  // namespace kmini
