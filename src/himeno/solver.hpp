// A rank's Jacobi iteration for one gosa variant: its arrays, halo exchange, sweep, update and
// gosa reduction, driven the way the original drives them (sweep, then copy-back, every iteration
// reducing gosa, over all ranks).
//
// The variant's part is a Gosa policy (gosa_policies.hpp): how it launches the sweep and how it
// gets the sum back. The sweeps it may choose, and their launches, are in sweep_launch.hpp.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <utility>

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include "core/interrupt.hpp"
#include "core/progress.hpp"
#include "core/timing.hpp"
#include "himeno/fields.hpp"
#include "himeno/gosa_policies.hpp"
#include "himeno/grid.hpp"
#include "himeno/halo_exchange.hpp"
#include "himeno/initial_state.hpp"
#include "himeno/side_instance.hpp"
#include "himeno/sweep_launch.hpp"
#include "himeno/sweeps.hpp"

namespace kmini::himeno {

// What every solver of a point is made from, all of it from the input.
struct SolverSetup {
  GlobalGrid grid;
  Decomposition decomposition;
  InitialValues initial;
  double omega;
  SweepChoice sweep;
  bool swap;  // pointer swap instead of the copy-back
  bool device_pointers;
  HaloTransport transport;
  bool overlap_halo;  // exchange the faces along i while sweeping the planes between them
  MPI_Comm comm;
};

template <class T>
using HostArray = Kokkos::View<T***, Kokkos::LayoutRight, Kokkos::HostSpace>;

// Where one rank's host time went in its latest iterate(): all of it, and the parts spent in the
// halo exchange's calls and in the allreduce of gosa. The allreduce returns when the slowest
// rank arrives, so busy() = total - allreduce is what a rank did itself; its spread over the
// ranks is the load imbalance.
struct PhaseSeconds {
  std::int64_t iterations = 0;
  double total = 0.0;
  double exchange = 0.0;
  double allreduce = 0.0;
  double busy() const { return total - allreduce; }
};

template <class T>
class Solver {
 public:
  virtual ~Solver() = default;
  // Fills the arrays with their initial values; with `coefficients` false only p and wrk2.
  virtual void initialize(bool coefficients) = 0;
  // n Jacobi iterations; the last one's gosa over all ranks.
  virtual double iterate(std::int64_t n) = 0;
  // This rank's p over its block and one layer on each side (a deeper halo's outer planes left
  // out).
  virtual HostArray<T> pressure_on_host() const = 0;
  // Threads per team of the team sweeps (shared, marching) as launched; 0 where none ran.
  virtual int team_size() const { return 0; }
  // Iterations a launch of its sweep advances: a temporal pass's steps, else 1.
  virtual int steps() const = 0;
  // Whether the exchange of the faces along i ran beside the sweep, on a second execution space
  // instance.
  virtual bool halo_overlapped() const { return false; }
  // Whether the faces travelled over CUDA IPC.
  virtual bool halo_cuda_ipc() const { return false; }
  // The gosa of each iteration of the latest iterate()'s last launch (over all ranks): a temporal
  // pass's steps, or one.
  virtual StepGosa last_launch() const = 0;
  // The latest iterate()'s phases; zero where the solver exchanges nothing.
  virtual PhaseSeconds phase_seconds() const { return {}; }
};

template <class T, class ExecutionSpace, class Gosa>
class SolverOn final : public Solver<T> {
 public:
  using Memory = typename ExecutionSpace::memory_space;

  explicit SolverOn(const SolverSetup& setup)
      : setup_(setup),
        sweep_(Gosa::kIgnoresSweep ? setup.sweep.single() : setup.sweep),
        fields_(setup.decomposition.local_dims(), halo_layers(sweep_, setup.decomposition.dims)),
        halo_(setup.decomposition, setup.comm, setup.device_pointers, setup.transport,
              fields_.halo_i),
        gosa_(setup.decomposition.owned) {
    // The copy-back's planes along i: the owned ones, and the halo's on a side with a neighbour
    // (on a side without, both arrays hold the same boundary).
    const Decomposition& d = setup.decomposition;
    const int layers = fields_.halo_i;
    copied_planes_[0] = d.neighbours[0][0] >= 0 ? 0 : layers;
    copied_planes_[1] =
        layers - 1 + static_cast<int>(d.owned[0]) + (d.neighbours[0][1] >= 0 ? layers : 0);
  }

  void initialize(bool coefficients) override {
    Extents origin;
    for (int axis = 0; axis < kAxes; ++axis)
      origin[axis] = setup_.decomposition.first[axis] - (axis == 0 ? fields_.halo_i : 1);
    InitializeFields<T, ExecutionSpace>::run(fields_, setup_.initial, origin, coefficients);
    Kokkos::fence();
  }

  // Each launch sweeps p into wrk2 (one iteration, or a temporal pass's steps), fills wrk2's
  // halo layers from the neighbours, and makes wrk2 the next p. (p's halo layers start filled:
  // initialize() sets every local point, halo included, from the global point it stands for.)
  // A temporal run whose count is not a multiple of its steps finishes with single sweeps.
  double iterate(std::int64_t n) override {
    double gosa = 0.0;
    const T omega = static_cast<T>(setup_.omega);
    const ExecutionSpace space;
    const SweepChoice single_sweep = sweep_.single();
    phases_ = PhaseSeconds{};
    phases_.iterations = n;
    const Clock::time_point start = Clock::now();
    std::int64_t passes = 0;
    for (std::int64_t iteration = 0; iteration < n;) {
      const SweepChoice& choice = n - iteration >= sweep_.steps() ? sweep_ : single_sweep;
      gosa_.begin();
      const SweepArrays<T, Memory> arrays = sweep_arrays(omega);
      if (overlaps_halo() && choice.steps() == 1) {
        sweep_beside_first_exchange(space, arrays, choice);
        timed(phases_.exchange, [&] { halo_.exchange(space, fields_.wrk2.view, 1); });
      } else {
        const int team = gosa_.launch(space, arrays, choice);
        // The report's team size is the input's sweep's, not a temporal run's closing sweeps'.
        if (&choice == &sweep_ || iteration == 0) team_size_ = team;
        timed(phases_.exchange, [&] { halo_.exchange(space, fields_.wrk2.view); });
      }
      if (setup_.swap) {
        std::swap(fields_.p, fields_.wrk2);
      } else {
        copy_back<ExecutionSpace>(fields_.p, fields_.wrk2, copied_planes_[0], copied_planes_[1]);
      }
      iteration += choice.steps();
      const bool single = setup_.decomposition.single();
      if (Gosa::kReadBackEveryIteration || !single || iteration == n) {
        StepGosa sums = gosa_.collect();
        if (!single) {
          timed(phases_.allreduce, [&] {
            MPI_Allreduce(MPI_IN_PLACE, sums.value.data(), sums.steps, MPI_DOUBLE, MPI_SUM,
                          setup_.comm);
          });
        }
        gosa = sums.last();
        last_launch_ = sums;
      }
      progress::step("iteration", iteration, n);
      // A safe point for a signal: every pass alone, every 16th on several ranks (a collective).
      if (single || ++passes % 16 == 0) interrupt::stop_if_requested(Comm(setup_.comm));
    }
    Kokkos::fence();
    phases_.total = seconds_since(start);
    return gosa;
  }

  HostArray<T> pressure_on_host() const override {
    const HostArray<T> whole = fields_.p.window_on_host("himeno::p_on_host");
    const int extra = fields_.halo_i - 1;
    if (extra == 0) return whole;
    // The block and one layer, as a one-layer halo holds them.
    const auto planes = static_cast<int>(whole.extent(0)) - 2 * extra;
    HostArray<T> block("himeno::p_on_host", planes, whole.extent(1), whole.extent(2));
    Kokkos::deep_copy(block, Kokkos::subview(whole, std::make_pair(extra, extra + planes),
                                             Kokkos::ALL, Kokkos::ALL));
    return block;
  }

  int team_size() const override { return team_size_; }
  int steps() const override { return sweep_.steps(); }
  StepGosa last_launch() const override { return last_launch_; }
  bool halo_overlapped() const override {
    return overlaps_halo() && SideInstance<ExecutionSpace>::concurrent;
  }
  bool halo_cuda_ipc() const override { return halo_.cuda_ipc(); }
  PhaseSeconds phase_seconds() const override { return phases_; }

 private:
  // Runs `call`, adding its host time to `sum`.
  template <class Call>
  static void timed(double& sum, const Call& call) {
    const Clock::time_point start = Clock::now();
    call();
    sum += seconds_since(start);
  }

  // A temporal pass sends its faces after the whole pass, and its closing single sweeps do the same
  // with its deeper halo.
  bool overlaps_halo() const {
    return setup_.overlap_halo && halo_.splits(0) && fields_.halo_i == 1;
  }

  // The arrays as every sweep takes them; a temporal pass also updates the halo's planes but the
  // outermost, on each side with a neighbour.
  SweepArrays<T, Memory> sweep_arrays(T omega) const {
    SweepArrays<T, Memory> arrays(fields_, omega);
    const auto& neighbours = setup_.decomposition.neighbours[0];
    arrays.reach_low = neighbours[0] >= 0 ? fields_.halo_i - 1 : 0;
    arrays.reach_high = neighbours[1] >= 0 ? fields_.halo_i - 1 : 0;
    return arrays;
  }

  // The planes whose faces go to the neighbours along i (1 and ni) are swept first, on the side
  // instance, and their faces sent from there while the default instance sweeps the planes
  // between them. The faces along j and k span those planes too, so they wait for the whole sweep.
  void sweep_beside_first_exchange(const ExecutionSpace& space,
                                   const SweepArrays<T, Memory>& arrays,
                                   const SweepChoice& choice) {
    const int ni = arrays.ni;
    const ExecutionSpace side = side_.space();
    space.fence();  // the last update of p, on `space`, before the side instance reads it
    team_size_ = gosa_.launch(side, arrays.planes(1, 1), choice);
    if (ni > 1) gosa_.launch(side, arrays.planes(ni, 1), choice);
    halo_.pack(side, fields_.wrk2.view, 0);
    if (ni > 2) gosa_.launch(space, arrays.planes(2, ni - 2), choice);
    timed(phases_.exchange, [&] { halo_.transfer(side, fields_.wrk2.view, 0); });
  }

  SolverSetup setup_;
  SweepChoice sweep_;  // the input's, or the single sweep where the variant has its own loops
  Fields<T, Memory> fields_;
  HaloExchange<T, ExecutionSpace> halo_;
  SideInstance<ExecutionSpace> side_;
  Gosa gosa_;
  int copied_planes_[2] = {1, 1};  // first and last
  int team_size_ = 0;
  StepGosa last_launch_;
  PhaseSeconds phases_;
};

template <class T, class ExecutionSpace, class Gosa>
std::unique_ptr<Solver<T>> make_solver(const SolverSetup& setup) {
  return std::make_unique<SolverOn<T, ExecutionSpace, Gosa>>(setup);
}

}  // namespace kmini::himeno
