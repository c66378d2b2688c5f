// The input every rank of a job reads, agreed: each rank loads it itself (a molecule or basis
// file may be node-local), and all must succeed on the same bytes and overrides.
#pragma once

#include "core/cli.hpp"
#include "core/comm.hpp"
#include "core/config.hpp"
#include "core/registry.hpp"

namespace kmini {

// A failure on any rank, or ranks that read different inputs or were given different
// options, end every rank with exit 2 and one message (rank 0 throws InputError, the others
// RefusedOnAnotherRank), where the job hung with every rank busy or ran different problems.
Input load_agreed_input(const CliOptions& options, const AppRegistry& registry, const Comm& world);

}  // namespace kmini
