// The himeno app's parameters: the words of its choices and the values they stand for, what the
// parameters describe (the grid, its split over the ranks, the sweep), and the checks that reject
// an input before anything runs, naming the key that holds the fault.
#pragma once

#include <cstddef>

#include "core/choice.hpp"
#include "core/params.hpp"
#include "himeno/grid.hpp"
#include "himeno/halo_exchange.hpp"
#include "himeno/initial_state.hpp"
#include "himeno/sweep_launch.hpp"

namespace kmini::himeno {

enum class Update { copy_back, swap };
enum class HaloTiming { overlapped, after_sweep };
// How much of the run the serial reference replays.
enum class Replay { automatic, full, first };

// The app's words and the values they stand for.
struct HimenoChoices {
  Choice<SweepKind> sweep{"sweep",
                          {{"packed", SweepKind::packed},
                           {"temporal", SweepKind::temporal},
                           {"shared", SweepKind::shared},
                           {"marching", SweepKind::marching},
                           {"mdrange", SweepKind::mdrange}}};
  Choice<Update> update{"update", {{"copy_back", Update::copy_back}, {"swap", Update::swap}}};
  Choice<HaloTiming> halo_exchange{
      "halo_exchange",
      {{"overlapped", HaloTiming::overlapped}, {"after_sweep", HaloTiming::after_sweep}}};
  Choice<HaloTransport> halo_transport{"halo_transport",
                                       {{"auto", HaloTransport::automatic},
                                        {"mpi", HaloTransport::mpi},
                                        {"cuda_ipc", HaloTransport::cuda_ipc}}};
  Choice<Replay> validate{
      "validate", {{"auto", Replay::automatic}, {"full", Replay::full}, {"first", Replay::first}}};
  Choice<InitialState> initial{
      "initial", {{"original", InitialState::original}, {"random", InitialState::random}}};
};

const HimenoChoices& choices();

bool swaps(const Params& params);

GlobalGrid grid_of(const Params& params);

// The temporal sweep's halo is deep along i only: unless `ranks` says otherwise, its ranks split i.
Extents dims_of(const Params& params, const GlobalGrid& grid, int ranks);

SweepChoice sweep_of(const Params& params);

// Cross-parameter checks; throws InputError through Params::reject.
void check(const Params& params);

// Refuses halo_transport: cuda_ipc where `ranks` run it and it cannot be had (beside
// gpu_aware_mpi, or without CUDA): `kmini check`, from the launcher's count, and the run's memory
// gate alike.
void check_halo_transport(const Params& params, int ranks);

// Level-0 team scratch a team of the device may have, as Kokkos tells it.
std::size_t team_scratch_limit();

// A temporal team's rings of planes must fit the team scratch the device gives a team (Kokkos
// knows the limit once it runs on the device).
void check_team_scratch(const Params& params);

}  // namespace kmini::himeno
