#include "core/session.hpp"

#include <Kokkos_Core.hpp>
#include <utility>

#include "core/device.hpp"
#include "core/error.hpp"
#include "core/kokkos_flags.hpp"

namespace kmini {

MpiSession::MpiSession(int& argc, char**& argv) {
  int provided = 0;
  // Funneled: only the thread that calls MPI is the main one; OpenMP threads never call it.
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    throw RuntimeFailure("MPI_Init_thread failed");
  }
  // Errors come back as codes, so that Comm can turn them into exceptions with a message.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

MpiSession::~MpiSession() {
  MPI_Finalize();
}

NodeRanks ranks_on_node(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  NodeRanks out;
  MPI_Comm_rank(node, &out.rank);
  MPI_Comm_size(node, &out.size);
  MPI_Comm_free(&node);
  return out;
}

bool all_on_one_node(MPI_Comm comm) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  return ranks_on_node(comm).size == size;
}

NodePlacement place_on_node(const Comm& world) {
  NodePlacement placement;
  if (world.handle() != MPI_COMM_NULL) {
    const NodeRanks node = ranks_on_node(world.handle());
    placement.local_rank = node.rank;
    placement.local_size = node.size;
  }
  placement.visible_gpus = visible_gpu_count();
  if (placement.visible_gpus > 0) {
    placement.device_id = placement.local_rank % placement.visible_gpus;
  }
  return placement;
}

namespace {

bool chooses_device(const std::string& arg) {
  for (const char* flag : {"--kokkos-device-id", "--kokkos-num-devices", "--kokkos-ndevices",
                           "--kokkos-map-device-id-by"}) {
    if (arg.rfind(flag, 0) == 0) return true;
  }
  return false;
}

}  // namespace

KokkosSession::KokkosSession(std::vector<std::string> kokkos_args, const NodePlacement& placement) {
  bool user_chose = false;
  for (const auto& arg : kokkos_args)
    user_chose = user_chose || chooses_device(arg);
  if (!user_chose && placement.device_id >= 0) {
    kokkos_args.push_back("--kokkos-device-id=" + std::to_string(placement.device_id));
  }
  // Kokkos reads flags from argc/argv in every version from 3.4 to 5; it keeps no pointer.
  std::vector<std::string> storage{"kmini"};
  for (std::string& arg : respelled_for_kokkos(kokkos_args, KOKKOS_VERSION))
    storage.push_back(std::move(arg));
  std::vector<char*> argv;
  for (auto& s : storage)
    argv.push_back(s.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(storage.size());
  Kokkos::initialize(argc, argv.data());
}

KokkosSession::~KokkosSession() {
  Kokkos::finalize();
}

}  // namespace kmini
