#include "himeno/himeno_params.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>

#include "core/cuda_ipc.hpp"
#include "core/launcher.hpp"
#include "core/precision.hpp"
#include "himeno/gosa.hpp"
#include "himeno/himeno_variants.hpp"
#include "himeno/temporal_sweep.hpp"

namespace kmini::himeno {

const HimenoChoices& choices() {
  static const HimenoChoices words;
  return words;
}

bool swaps(const Params& params) {
  return choices().update.of(params) == Update::swap;
}

GlobalGrid grid_of(const Params& params) {
  if (params.has("grid")) {
    const auto& g = params.integers("grid");
    return GlobalGrid{{g[0], g[1], g[2]}};
  }
  for (const auto& size : named_sizes()) {
    if (params.string("size") == size.name) return GlobalGrid{size.array_dims};
  }
  throw std::logic_error("himeno: unknown size " + params.string("size"));
}

Extents dims_of(const Params& params, const GlobalGrid& grid, int ranks) {
  std::vector<std::int64_t> requested;
  if (params.has("ranks")) {
    requested = params.integers("ranks");
  } else if (choices().sweep.of(params) == SweepKind::temporal) {
    requested = {ranks, 1, 1};
  }
  try {
    return choose_dims(grid, ranks, requested);
  } catch (const std::invalid_argument& e) {
    params.reject(params.given("ranks") ? "ranks" : (params.has("grid") ? "grid" : "size"),
                  std::string("cannot split the grid over the ranks: ") + e.what());
  }
}

SweepChoice sweep_of(const Params& params) {
  SweepChoice choice;
  choice.kind = choices().sweep.of(params);
  const auto& tile = params.integers("mdrange_tile");
  choice.mdrange_tile = {tile[0], tile[1], tile[2]};
  const auto& block = params.integers("marching_block");
  choice.marching.planes = static_cast<int>(block[0]);
  choice.marching.tj = static_cast<int>(block[1]);
  choice.marching.tk = static_cast<int>(block[2]);
  choice.marching.sync_planes = params.boolean("sync_planes");
  const auto& packed = params.integers("packed_block");
  choice.packed = MarchingShape{static_cast<int>(packed[0]), static_cast<int>(packed[1]),
                                static_cast<int>(packed[2]), false};
  const auto& temporal = params.integers("temporal_block");
  choice.temporal =
      TemporalShape{static_cast<int>(temporal[0]), static_cast<int>(temporal[1]),
                    static_cast<int>(temporal[2]), static_cast<int>(params.integer("time_steps"))};
  return choice;
}

namespace {

bool temporal(const Params& params) {
  return choices().sweep.of(params) == SweepKind::temporal;
}

}  // namespace

void check_halo_transport(const Params& params, int ranks) {
  if (choices().halo_transport.of(params) != HaloTransport::cuda_ipc) return;
  if (ranks > 1 && params.boolean("gpu_aware_mpi")) {
    params.reject("halo_transport",
                  "cuda_ipc copies the faces itself, and gpu_aware_mpi: true "
                  "hands them to MPI; choose one");
  }
  // On one rank too, where no halo is exchanged: the input would fail on more, and `kmini
  // check` on a laptop should say so.
  if (!cuda_ipc_built()) {
    params.reject("halo_transport",
                  "cuda_ipc needs the CUDA backend, which this build lacks; use auto or mpi");
  }
}

void check(const Params& params) {
  if (params.given("size") && params.given("grid")) {
    params.reject("grid", "give either size or grid, not both");
  }
  // Given ranks must make the job's process count, as the run will find; `kmini check` knows
  // that count only from the launcher (1 without one). Unset, MPI_Dims_create fits any count.
  if (params.given("ranks")) {
    const int processes = launched_processes();
    try {
      choose_dims(grid_of(params), processes, params.integers("ranks"));
    } catch (const std::invalid_argument& e) {
      params.reject("ranks", std::string("cannot split the grid over the ranks: ") + e.what() +
                                 (processes == 1 ? " (kmini check counts the processes its "
                                                   "launcher started: check as you will run, "
                                                   "e.g. mpirun -np N kmini check)"
                                                 : ""));
    }
  }
  // The processes the launcher started: check said OK to what the run then refused.
  check_halo_transport(params, launched_processes());
  if (params.given("iterations") && params.given("target_seconds")) {
    params.reject("target_seconds",
                  "give either iterations (a fixed count) or target_seconds (the original's "
                  "measurement), not both");
  }
  const auto& tile = params.integers("mdrange_tile");
  if (tile[0] * tile[1] * tile[2] > 1024) {
    params.reject("mdrange_tile",
                  "the tile is one team of threads: its product may be at most "
                  "1024, got " +
                      std::to_string(tile[0] * tile[1] * tile[2]));
  }
  if (tile[2] > 64) {
    params.reject("mdrange_tile",
                  "the third (k) extent becomes threadIdx.z on CUDA, which allows at most 64, "
                  "got " +
                      std::to_string(tile[2]));
  }
  for (const char* key : {"marching_block", "packed_block", "temporal_block"}) {
    const auto& block = params.integers(key);
    const std::int64_t threads = block[block.size() - 2] * block[block.size() - 1];
    if (threads > 1024) {
      params.reject(key, "a team is tj x tk threads, at most 1024; got " + std::to_string(threads));
    }
  }
  if (temporal(params)) {
    const TemporalShape shape = sweep_of(params).temporal;
    constexpr int most = TemporalSweep<float, Device, TreeGosa>::kMaxThreads;
    if (shape.tj * shape.tk > most) {
      params.reject("temporal_block", "a team of the temporal sweep is tj x tk threads, at most " +
                                          std::to_string(most) + " (its launch bounds); got " +
                                          std::to_string(shape.tj * shape.tk));
    }
    if (shape.owned_j() < 1 || shape.owned_k() < 1) {
      params.reject(
          "temporal_block",
          "at time_steps " + std::to_string(shape.steps) + " a team of tj x tk threads " +
              "owns (tj - " + std::to_string(2 * (shape.steps - 1)) + ") x (tk - " +
              std::to_string(2 * (shape.steps - 1)) + ") rows and packs: tj and tk must exceed " +
              std::to_string(2 * (shape.steps - 1)) + ", got [" + std::to_string(shape.planes) +
              ", " + std::to_string(shape.tj) + ", " + std::to_string(shape.tk) + "]");
    }
  }
}

std::size_t team_scratch_limit() {
  return static_cast<std::size_t>(Kokkos::TeamPolicy<Device>::scratch_size_max(0));
}

void check_team_scratch(const Params& params) {
  if (!temporal(params)) return;
  const TemporalShape shape = sweep_of(params).temporal;
  const bool single = element_bytes(params) == sizeof(float);
  const std::size_t needed = single ? TemporalSweep<float, Device, TreeGosa>::scratch_bytes(shape)
                                    : TemporalSweep<double, Device, TreeGosa>::scratch_bytes(shape);
  const std::size_t allowed = team_scratch_limit();
  if (needed > allowed) {
    params.reject("temporal_block",
                  "a team keeps (time_steps - 1) x 3 planes of tj rows of tk packs in team "
                  "scratch: " +
                      std::to_string(needed) + " bytes at time_steps " +
                      std::to_string(shape.steps) + " in " + (single ? "float" : "double") +
                      ", and this device allows " + std::to_string(allowed) +
                      "; use fewer threads a team");
  }
}

}  // namespace kmini::himeno
