#include "himeno/himeno_app.hpp"

#include "core/precision.hpp"
#include "himeno/gosa.hpp"
#include "himeno/grid.hpp"
#include "himeno/himeno_case.hpp"
#include "himeno/himeno_estimates.hpp"
#include "himeno/himeno_params.hpp"
#include "himeno/himeno_variants.hpp"

namespace kmini::himeno {

AppSpec app_spec() {
  const HimenoChoices& words = choices();
  AppSpec app;
  app.name = "himeno";
  app.doc =
      "the Himeno benchmark: Jacobi sweeps of a 19-point Poisson stencil with the residual gosa "
      "reduced the seeds' ways (patterns (1)-(6), tree, block), over an MPI decomposition";
  app.params = {
      ParamSpec::choice("size", "M", size_names(),
                        "the original's sizes, array dimensions (MIMAX, MJMAX, MKMAX): XS 33x33x65 "
                        ".. XL 513x513x1025")
          .sweepable(),
      ParamSpec::integer_list("grid", {}, "[mimax, mjmax, mkmax]: array dimensions instead of size")
          .optional()
          .items(3, 3)
          .range(static_cast<double>(kMinArrayDim), 1048576),
      ParamSpec::integer("iterations", 0,
                         "a fixed number of Jacobi iterations per repetition; unset: the "
                         "original's measurement (3 rehearsal iterations, then target_seconds)")
          .optional()
          .range(1, 1.0e9)
          .sweepable(),
      ParamSpec::real("target_seconds", 60.0,
                      "the original's measurement: iterations that fill this many seconds, "
                      "as estimated from the rehearsal")
          .range(1.0e-6, 1.0e6),
      precision_param(Precision::float32,
                      "working precision (the original's is float); gosa sums in double"),
      words.sweep
          .param(SweepKind::packed,
                 "packed: a thread per 16 bytes of consecutive k points (4 floats, 2 "
                 "doubles) with vector loads, teams of tj x tk threads on one plane, p "
                 "through the cache; temporal: time_steps iterations a pass over memory, "
                 "packed teams marching along i with each iteration a plane behind the one "
                 "before, the later iterations' planes in team scratch (not the classic "
                 "benchmark: see docs/procurement.md, run rules); shared: teams of tj x "
                 "tk threads marching along i, "
                 "p's planes staged in team scratch; marching: the same reading p through "
                 "the cache; mdrange: one point per MDRangePolicy index. The cpu_* "
                 "variants use the original's loops")
          .sweepable(),
      words.update
          .param(Update::copy_back,
                 "copy_back: p = wrk2 after each sweep, as the original; swap: exchange "
                 "the two arrays (wrk2 starts as a copy of p, boundary included)")
          .sweepable(),
      ParamSpec::integer_list("mdrange_tile", {1, 4, 64},
                              "[ti, tj, tk] tile of the mdrange sweep; on CUDA the thread block, "
                              "threadIdx.x along i")
          .items(3, 3)
          .range(1, 1024),
      ParamSpec::integer_list("marching_block", {64, 4, 64},
                              "[planes, tj, tk]: a team's tile of tj x tk threads and how many "
                              "i planes it marches through at most (the runs split the planes "
                              "evenly)")
          .items(3, 3)
          .range(1, 1024),
      ParamSpec::integer_list("packed_block", {85, 8, 32},
                              "[planes, tj, tk]: the packed sweep's team of tj rows of tk "
                              "threads, each thread one pack along k in each of at most `planes` "
                              "planes (the runs split the planes evenly); 85 suits sizes L and XL "
                              "on 132 SMs, smaller grids want fewer")
          .items(3, 3)
          .range(1, 1024),
      ParamSpec::integer("time_steps", 2,
                         "temporal: Jacobi iterations a pass over memory; a run whose iterations "
                         "are not a multiple finishes with single (packed) sweeps")
          .range(2, kMaxTimeSteps)
          .sweepable(),
      ParamSpec::integer_list("temporal_block", {64, 16, 16},
                              "[planes, tj, tk]: the temporal sweep's team of tj rows of tk "
                              "threads, each thread a pack along k (as packed), which owns the "
                              "(tj - 2 (time_steps - 1)) x (tk - 2 (time_steps - 1)) rows and "
                              "packs at its centre over at most `planes` planes (the runs split "
                              "the planes evenly); its team scratch holds (time_steps - 1) x 3 "
                              "planes of its tj x tk packs")
          .items(3, 3)
          .range(1, 1024),
      ParamSpec::boolean("sync_planes", false,
                         "marching: a team barrier after each plane (seed 001's __syncthreads "
                         "cache tuning)"),
      ParamSpec::integer_list(
          "ranks", {},
          "[px, py, pz] ranks along i, j, k; unset: MPI_Dims_create's choice, or "
          "with sweep: temporal all along i (its halo is deep along i only)")
          .optional()
          .items(3, 3)
          .range(1, 1048576),
      ParamSpec::boolean("gpu_aware_mpi", false,
                         "hand MPI device pointers for the halo exchange (needs a CUDA-aware "
                         "MPI); false: stage halos through the host"),
      words.halo_transport
          .param(HaloTransport::automatic,
                 "how the faces travel between ranks: mpi (host-staged, or device pointers "
                 "with gpu_aware_mpi); cuda_ipc: each rank copies its faces into its "
                 "neighbours' GPU buffers, MPI only signalling (CUDA, every rank on one node); "
                 "auto: cuda_ipc where it can be had without gpu_aware_mpi, else mpi (the "
                 "report's halo_cuda_ipc says which)")
          .sweepable(),
      words.halo_exchange
          .param(HaloTiming::overlapped,
                 "overlapped: where the ranks split i, sweep the two planes sent along i "
                 "first and send them while the planes between are swept (on CUDA on a "
                 "second stream; host backends take turns, and the report's "
                 "halo_overlapped says which); after_sweep: exchange after the whole sweep")
          .sweepable(),
      words.validate.param(Replay::automatic,
                           "full: replay the whole run serially on the host and compare; first: "
                           "compare the first 3 iterations; auto: full up to 1e9 point updates"),
      words.initial.param(InitialState::original,
                          "original: the original's initmt; random: hashed values in every array, "
                          "so that every stencil term counts (for tests)"),
      ParamSpec::integer("seed", 1, "seed of the random initial values").range(0, 1.0e18),
  };
  app.variants = variant_table<float>().specs();
  app.byte_model =
      "per interior point and sweep, arrays of the working precision read or written once: "
      "12 coefficient arrays and p read, wrk2 written (14), plus wrk2 read and p written by the "
      "copy-back (16); p's neighbours come from cache. A temporal pass of time_steps iterations "
      "moves them once";
  app.fom = FigureOfMerit{"mflops", "MFLOPS", FigureOfMerit::Quantity::flops, 1.0e6};
  app.ceiling = Ceiling::copy;
  app.default_repetitions = 1;
  app.default_warmup = 0;
  app.default_variants = {"kokkos_reduce"};
  app.check = check;
  app.device_bytes = device_bytes;
  app.host_bytes = host_bytes;
  app.estimate_work = estimate_work;
  app.setup = setup_in_precision<HimenoCase>;
  return app;
}

}  // namespace kmini::himeno