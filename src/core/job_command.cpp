#include "core/job_command.hpp"

#include <iostream>
#include <vector>

#include "core/error.hpp"
#include "core/session.hpp"

namespace kmini {

std::string command_phrase(const std::string& subcommand) {
  return "runs `kmini " + subcommand + "`";
}

std::string refusal_phrase(const std::string& why) {
  return "refused to start: " + why;
}

void agree_on_command(const Comm& world, const std::string& phrase) {
  if (world.size() == 1) return;
  const std::vector<std::string> phrases = world.all_gather(phrase);
  for (std::size_t rank = 1; rank < phrases.size(); ++rank) {
    if (phrases[rank] == phrases[0]) continue;
    if (!world.is_root()) throw RefusedOnAnotherRank();
    throw InputError("rank " + std::to_string(rank) + " " + phrases[rank] + ", and rank 0 " +
                     phrases[0] + ": every rank of an MPI job must run the same kmini command");
  }
}

int as_rank_of_job(int& argc, char**& argv, const std::string& phrase,
                   const std::function<int()>& command) {
  MpiSession mpi(argc, argv);
  const Comm world = Comm::world();
  try {
    agree_on_command(world, phrase);
  } catch (const InputError& e) {
    std::cerr << "kmini: error: " << e.what() << std::endl;
    return static_cast<int>(ExitCode::bad_input);
  } catch (const RefusedOnAnotherRank&) {
    return static_cast<int>(ExitCode::bad_input);
  }
  return command();
}

}  // namespace kmini
