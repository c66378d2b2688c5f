// The kmini command that every rank of an MPI job runs. A rank started with another command (an
// MPMD line that gives rank 1 `kmini check`, a typo in one rank's options, a bad KMINI_DATA_DIR
// on one node) never called MPI_Init, and the ranks that did waited for it for ever. Every rank
// that a launcher started now joins MPI and this first collective, and a job whose ranks
// disagree ends on every rank with exit 2 and one message.
#pragma once

#include <exception>
#include <functional>
#include <string>

#include "core/comm.hpp"

namespace kmini {

// Every rank but the one that has said why leaves with exit 2 and nothing more.
struct RefusedOnAnotherRank : std::exception {
  const char* what() const noexcept override { return "refused on another rank"; }
};

// What a rank was started to do, in words that follow "rank 1 ": "runs `kmini check`", or
// "refused to start: <why>" (its command line, or KMINI_DATA_DIR).
std::string command_phrase(const std::string& subcommand);
std::string refusal_phrase(const std::string& why);

// The first collective of every rank: returns when every rank was started to do the same;
// otherwise throws InputError on rank 0, naming the first rank that differs and what each does,
// and RefusedOnAnotherRank on the others.
void agree_on_command(const Comm& world, const std::string& phrase);

// A rank of a job of several processes that does not run `kmini run` (which joins MPI itself):
// joins MPI, agrees on the command, then returns `command()`'s exit status; 2 if the ranks
// disagree.
int as_rank_of_job(int& argc, char**& argv, const std::string& phrase,
                   const std::function<int()>& command);

}  // namespace kmini
