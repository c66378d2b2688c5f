#include "core/agreed_input.hpp"

#include <iostream>
#include <optional>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/job_command.hpp"
#include "core/run_command.hpp"

namespace kmini {

namespace {

std::vector<Override> parse_overrides(const CliOptions& options) {
  std::vector<Override> overrides;
  for (const auto& text : options.overrides)
    overrides.push_back(parse_override(text));
  return overrides;
}

}  // namespace

Input load_agreed_input(const CliOptions& options, const AppRegistry& registry, const Comm& world) {
  std::optional<Input> input;
  std::string problem;
  try {
    input.emplace(load_input(options.input, parse_overrides(options), registry));
  } catch (const InputError& e) {
    problem = e.what();
  }
  if (world.size() == 1) {
    if (!input) throw InputError(problem);
    return std::move(*input);
  }
  const auto first = [&](bool mine) {
    return static_cast<int>(world.min(mine ? world.rank() : world.size()));
  };
  if (const int failed = first(!input); failed < world.size()) {
    if (world.rank() == failed) {
      if (failed == 0) throw InputError(problem);
      std::cerr << "kmini: error: rank " << failed << ": " << problem << std::endl;
    }
    throw RefusedOnAnotherRank();
  }
  const auto agree = [&](const std::string& mine, const std::string& problem) {
    if (const int differs = first(world.broadcast(mine) != mine); differs < world.size()) {
      if (world.is_root()) throw InputError("rank " + std::to_string(differs) + " " + problem);
      throw RefusedOnAnotherRank();
    }
  };
  std::uint64_t digest = read_files_digest();
  for (const std::string& text : options.overrides)
    digest = fnv1a(text + '\n', digest);
  agree(std::to_string(digest),
        "read a different input from rank 0's: the input file, its --set overrides and every "
        "file it names must be the same on every rank");
  // Options that decide what every rank does next: ranks that differ in them left each other
  // waiting in different collectives (exit 4, MPI_ERR_TRUNCATE, or a hang). --report and
  // --format are rank 0's alone, which writes the report.
  agree(std::to_string(options.dry_run) + " " + std::to_string(options.ceiling_elements),
        "was given other options than rank 0: --dry-run and --ceiling-elements must be the same "
        "on every rank");
  return std::move(*input);
}

// In a launched job every rank checks the input it reads, and the ranks agree on it as `kmini
// run`'s do, so that the job answers once: rank 0 prints, a rank whose input fails or differs
// ends every rank with exit 2 and one message.
int check_command(const CliOptions& options, const AppRegistry& registry) {
  const Comm world = Comm::world();
  try {
    const Input input = load_agreed_input(options, registry, world);
    std::size_t points = 0;
    for (const auto& run : input.runs)
      points += run.points().size();
    if (world.is_root())
      std::cout << input.path << ": OK, " << input.runs.size() << " run(s), " << points
                << " point(s)\n";
    return static_cast<int>(ExitCode::ok);
  } catch (const RefusedOnAnotherRank&) {
    return static_cast<int>(ExitCode::bad_input);
  }
}

}  // namespace kmini
