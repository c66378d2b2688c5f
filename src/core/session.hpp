// The lifetimes around every run: MPI first, then Kokkos on the GPU this rank is given; Kokkos
// is finalised before MPI.
#pragma once

#include <string>
#include <vector>

#include "core/comm.hpp"

namespace kmini {

class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

// A rank's index among the ranks of `comm` that share its node, and how many do (collective).
struct NodeRanks {
  int rank = 0;
  int size = 1;
};
NodeRanks ranks_on_node(MPI_Comm comm);

// Whether every rank of `comm` runs on this node (collective).
bool all_on_one_node(MPI_Comm comm);

// Where a rank sits on its node, and which GPU it takes: local rank modulo visible GPUs.
struct NodePlacement {
  int local_rank = 0;
  int local_size = 1;
  int visible_gpus = 0;
  int device_id = -1;  // -1 without GPUs
};
NodePlacement place_on_node(const Comm& world);

class KokkosSession {
 public:
  // `kokkos_args` are the --kokkos-... flags from the command line; unless they choose a device
  // themselves, the rank's device from `placement` is passed on.
  KokkosSession(std::vector<std::string> kokkos_args, const NodePlacement& placement);
  ~KokkosSession();
  KokkosSession(const KokkosSession&) = delete;
  KokkosSession& operator=(const KokkosSession&) = delete;
};

}  // namespace kmini
