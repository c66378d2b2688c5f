// What the MPI launcher (Open MPI, PMIx, MPICH, MVAPICH, Slurm) told this process through its
// environment, for the commands that never start MPI (the command line's checks, `kmini check`).
#pragma once

namespace kmini {

// Whether the launcher made this process rank 0, or no launcher started it.
bool first_rank_or_alone();

// The number of processes the launcher started, or 1 without one.
int launched_processes();

}  // namespace kmini
