// kmini under mpirun on this machine, for the tests labelled mpi (support/test_paths.hpp says
// which launcher CMake found).
#pragma once

#include <string>
#include <vector>

#include "support/kmini_binary.hpp"

namespace kmini::testing {

// `ranks` ranks sharing this machine's cores, each with `threads` Kokkos threads (0: Kokkos'
// default). With `limit_seconds`, timeout stops mpirun, which ends its ranks (-k kills it if it
// lingers), so that a hang fails with status 124 instead of holding CI.
inline ProcessResult mpirun(int ranks, std::vector<std::string> kmini_args, int threads = 0,
                            int limit_seconds = 0) {
  std::vector<std::string> args;
  if (limit_seconds > 0) args = {"timeout", "-k", "5", std::to_string(limit_seconds)};
  args.insert(args.end(),
              {mpiexec(), "-n", std::to_string(ranks), "--oversubscribe", kmini_binary()});
  args.insert(args.end(), kmini_args.begin(), kmini_args.end());
  if (threads > 0) args.push_back("--kokkos-threads=" + std::to_string(threads));
  prepare_environment();
  return run_process(args);
}

// One process per entry of `per_rank`, each with its own kmini arguments (mpirun's MPMD form),
// ended after `limit_seconds`.
inline ProcessResult mpirun_each(const std::vector<std::vector<std::string>>& per_rank,
                                 int limit_seconds) {
  std::vector<std::string> args = {
      "timeout", "-k", "5", std::to_string(limit_seconds), mpiexec(), "--oversubscribe"};
  for (std::size_t r = 0; r < per_rank.size(); ++r) {
    if (r > 0) args.push_back(":");
    args.insert(args.end(), {"-n", "1", kmini_binary()});
    args.insert(args.end(), per_rank[r].begin(), per_rank[r].end());
  }
  prepare_environment();
  return run_process(args);
}

}  // namespace kmini::testing
