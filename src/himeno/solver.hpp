// A rank's Jacobi iteration for one gosa variant: its arrays, halo exchange, sweep, update and
// gosa reduction, driven the way the original drives them (sweep, then copy-back, every iteration
// reducing gosa, over all ranks).
//
// The variant's part is a Gosa policy: how it launches the sweep and how it gets the sum back.
//
//   TreeReduction        parallel_reduce over the sweep
//   AtomicReduction      one atomic per point, plain (pattern 2) or warp-aggregated (pattern 1),
//                        or one per point and team through team scratch (needs a team sweep)
//   BufferedReduction    each point's term to a device buffer, copied to the host and summed there
//                        by one thread or by OpenMP (patterns 3 and 4)
//   HostLoops            the whole iteration on the host, one thread or OpenMP (patterns 5, 6)
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include "core/progress.hpp"
#include "core/timing.hpp"
#include "himeno/fields.hpp"
#include "himeno/gosa.hpp"
#include "himeno/grid.hpp"
#include "himeno/halo_exchange.hpp"
#include "himeno/initial_state.hpp"
#include "himeno/packed_sweep.hpp"
#include "himeno/side_instance.hpp"
#include "himeno/sweeps.hpp"
#include "himeno/temporal_sweep.hpp"

namespace kmini::himeno {

enum class SweepKind { mdrange, marching, shared, packed, temporal };

// The sweep and its shapes, as the input gives them: the defaults are the parameters'
// (himeno_app.cpp), and nothing here assumes one.
struct SweepChoice {
  SweepKind kind;
  Extents mdrange_tile;
  MarchingShape marching;
  MarchingShape packed;  // tj x tk threads of a pack each, over `planes` planes
  TemporalShape temporal;

  // The iterations one launch advances.
  int steps() const { return kind == SweepKind::temporal ? temporal.steps : 1; }
  // The sweep that finishes a run whose iterations are not a multiple of steps(): the packed one.
  SweepChoice single() const {
    SweepChoice one = *this;
    if (kind == SweepKind::temporal) one.kind = SweepKind::packed;
    return one;
  }
};

// The arrays' layers along i (Fields::halo_i) for `sweep` on ranks split `dims`: a temporal pass's
// steps where the ranks split i (temporal_sweep.hpp), else one.
inline int halo_layers(const SweepChoice& sweep, const Extents& dims) {
  return sweep.kind == SweepKind::temporal && dims[0] > 1 ? sweep.steps() : 1;
}

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

// What collect() brings back: the gosa of each iteration the launches since begin() advanced (one,
// or a temporal pass's steps), in order.
struct StepGosa {
  std::array<double, kMaxTimeSteps> value{};
  int steps = 1;
  double last() const { return value[steps - 1]; }
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

// A team sweep's policy: its own Policy where it declares one (launch bounds), else the plain one.
template <class Sweep, class ExecutionSpace, class = void>
struct TeamPolicyOf {
  using type = Kokkos::TeamPolicy<ExecutionSpace>;
};
template <class Sweep, class ExecutionSpace>
struct TeamPolicyOf<Sweep, ExecutionSpace, std::void_t<typename Sweep::Policy>> {
  using type = typename Sweep::Policy;
};

// Launches a team sweep with a team of the tile's thread count, or as many as the backend takes
// (host backends take few; the sweep then gives each thread several columns). Returns the team
// size.
template <class ExecutionSpace, class Sweep, class Result>
int launch_teams(const ExecutionSpace& space, const char* name, const Sweep& sweep,
                 const MarchingShape& shape, std::size_t sweep_scratch, const Result& result) {
  using Sink = decltype(sweep.sink);
  using Policy = typename TeamPolicyOf<Sweep, ExecutionSpace>::type;
  const int columns = shape.tj * shape.tk;
  std::size_t scratch = sweep_scratch;
  if constexpr (Sink::needs_team) scratch += Sink::scratch_bytes(columns);
  const auto with_scratch = [&](Policy policy) {
    if (scratch > 0) policy.set_scratch_size(0, Kokkos::PerTeam(static_cast<int>(scratch)));
    return policy;
  };
  const auto probe = with_scratch(Policy(space, sweep.league_size(), 1));
  int team = columns;
  if constexpr (Sink::reduces) {
    team = std::min(team, probe.team_size_max(sweep, Kokkos::ParallelReduceTag()));
    Kokkos::parallel_reduce(name, with_scratch(Policy(space, sweep.league_size(), team)), sweep,
                            result);
  } else {
    team = std::min(team, probe.team_size_max(sweep, Kokkos::ParallelForTag()));
    Kokkos::parallel_for(name, with_scratch(Policy(space, sweep.league_size(), team)), sweep);
  }
  return team;
}

// Launches a temporal pass (choice.kind == temporal) on `arrays` with `sink`, on `space`; a
// reducing sink's sums go to `result` (a device StepSums). Returns the team size.
template <class T, class ExecutionSpace, class Sink, class Result>
int launch_temporal(const ExecutionSpace& space,
                    const SweepArrays<T, typename ExecutionSpace::memory_space>& arrays,
                    const SweepChoice& choice, const Sink& sink, const Result& result) {
  static_assert(Sink::has_steps, "a temporal pass adds each of its iterations' gosa apart");
  const TemporalShape& shape = choice.temporal;
  const MarchingShape team{shape.planes, shape.tj, shape.tk, false};
  if (arrays.reach_low > 0 || arrays.reach_high > 0) {
    using Sweep = TemporalSweep<T, ExecutionSpace, Sink, true>;
    return launch_teams(space, "himeno::jacobi_temporal", Sweep(arrays, sink, shape), team,
                        Sweep::scratch_bytes(shape), result);
  }
  using Sweep = TemporalSweep<T, ExecutionSpace, Sink, false>;
  return launch_teams(space, "himeno::jacobi_temporal", Sweep(arrays, sink, shape), team,
                      Sweep::scratch_bytes(shape), result);
}

// Launches the chosen single sweep on `arrays` with `sink`, on `space`; a reducing sink's sum
// goes to `result` (a device scalar). Returns the team sweeps' team size, or 0.
template <class T, class ExecutionSpace, class Sink, class Result>
int launch_sweep(const ExecutionSpace& space,
                 const SweepArrays<T, typename ExecutionSpace::memory_space>& arrays,
                 const SweepChoice& choice, const Sink& sink, const Result& result) {
  if (choice.kind == SweepKind::temporal) {
    throw std::logic_error("himeno: launch_sweep was given a temporal pass");
  }
  if constexpr (!Sink::needs_team) {
    if (choice.kind == SweepKind::mdrange) {
      using Policy = Kokkos::MDRangePolicy<ExecutionSpace, Kokkos::Rank<3>>;
      const Policy policy(space, {arrays.i_first, 1, 1},
                          {arrays.i_end(), arrays.nj + 1, arrays.nk + 1},
                          {choice.mdrange_tile[0], choice.mdrange_tile[1], choice.mdrange_tile[2]});
      const MDRangeSweep<T, ExecutionSpace, Sink> sweep{arrays, sink};
      if constexpr (Sink::reduces) {
        Kokkos::parallel_reduce("himeno::jacobi_mdrange", policy, sweep, result);
      } else {
        Kokkos::parallel_for("himeno::jacobi_mdrange", policy, sweep);
      }
      return 0;
    }
  } else if (choice.kind == SweepKind::mdrange) {
    throw std::logic_error("himeno: a sink that needs a team was given the mdrange sweep");
  }
  if (choice.kind == SweepKind::packed) {
    return launch_teams(space, "himeno::jacobi_packed",
                        PackedSweep<T, ExecutionSpace, Sink>(arrays, sink, choice.packed),
                        choice.packed, 0, result);
  }
  if (choice.kind == SweepKind::shared) {
    using Sweep = SharedSweep<T, ExecutionSpace, Sink>;
    return launch_teams(space, "himeno::jacobi_shared", Sweep(arrays, sink, choice.marching),
                        choice.marching, Sweep::scratch_bytes(choice.marching), result);
  }
  return launch_teams(space, "himeno::jacobi_marching",
                      MarchingSweep<T, ExecutionSpace, Sink>(arrays, sink, choice.marching),
                      choice.marching, 0, result);
}

// A gosa policy reduces the sweeps of an iteration: begin() before them, launch() for each (up to
// kSweepParts: the overlapped halo exchange sweeps an iteration's planes in three parts, on two
// execution space instances), and collect() to bring their sum to the host.
//
// Where the sweeps reduce on the device (kReadBackEveryIteration false), a single rank collects
// after the last iteration only: the sweeps still reduce gosa every iteration, but the host waits
// for it once, since the wait and the next launch cost a share of every iteration
// (docs/performance-notes.md, himeno). Over MPI the ranks add their gosa every iteration, as the
// original does.
constexpr int kSweepParts = 3;

template <class T, class ExecutionSpace>
struct TreeReduction {
  using Memory = typename ExecutionSpace::memory_space;
  static constexpr bool kReadBackEveryIteration = false;
  static constexpr bool kIgnoresSweep = false;
  // A scalar per part: each parallel_reduce writes its own, whichever instance runs it. A temporal
  // pass, one launch, writes its iterations' sums.
  Kokkos::View<double[kSweepParts], Memory> parts{"himeno::gosa_parts"};
  typename decltype(parts)::host_mirror_type host_parts = Kokkos::create_mirror_view(parts);
  Kokkos::View<StepSums, Memory> pass{"himeno::gosa_pass"};
  typename decltype(pass)::host_mirror_type host_pass = Kokkos::create_mirror_view(pass);
  int launched = 0;
  int steps = 1;

  explicit TreeReduction(const Extents&) {}
  void begin() { launched = 0; }
  int launch(const ExecutionSpace& space, const SweepArrays<T, Memory>& arrays,
             const SweepChoice& choice) {
    if (launched == kSweepParts) throw std::logic_error("himeno: more sweeps than gosa parts");
    steps = choice.steps();
    if (choice.kind == SweepKind::temporal) {
      ++launched;
      return launch_temporal<T>(space, arrays, choice, TreeGosa{}, pass);
    }
    return launch_sweep<T>(space, arrays, choice, TreeGosa{}, Kokkos::subview(parts, launched++));
  }
  StepGosa collect() {
    StepGosa sums;
    sums.steps = steps;
    if (steps > 1) {
      Kokkos::deep_copy(host_pass, pass);
      for (int step = 0; step < steps; ++step)
        sums.value[step] = host_pass().value[step];
      return sums;
    }
    Kokkos::deep_copy(host_parts, parts);
    for (int part = 0; part < launched; ++part)
      sums.value[0] += host_parts(part);
    return sums;
  }
};

// Atomics into a device scalar per iteration, zeroed before the iteration's sweeps; Sink says how
// (AtomicGosa with a method, or BlockGosa).
template <class T, class ExecutionSpace, class Sink>
struct AtomicReduction {
  using Memory = typename ExecutionSpace::memory_space;
  static constexpr bool kReadBackEveryIteration = false;
  static constexpr bool kIgnoresSweep = false;
  Kokkos::View<double*, Memory> gosa{"himeno::gosa", kMaxTimeSteps};
  typename decltype(gosa)::host_mirror_type host_gosa = Kokkos::create_mirror_view(gosa);
  int steps = 1;

  explicit AtomicReduction(const Extents&) {}
  void begin() { Kokkos::deep_copy(gosa, 0.0); }
  int launch(const ExecutionSpace& space, const SweepArrays<T, Memory>& arrays,
             const SweepChoice& choice) {
    steps = choice.steps();
    const Sink sink(gosa);
    if (choice.kind == SweepKind::temporal)
      return launch_temporal<T>(space, arrays, choice, sink, gosa);
    return launch_sweep<T>(space, arrays, choice, sink, gosa);
  }
  StepGosa collect() {
    Kokkos::deep_copy(host_gosa, gosa);
    StepGosa sums;
    sums.steps = steps;
    for (int step = 0; step < steps; ++step)
      sums.value[step] = host_gosa(step);
    return sums;
  }
};

template <class T, class ExecutionSpace, class HostSpace>
struct BufferedReduction {
  using Memory = typename ExecutionSpace::memory_space;
  // Patterns (3) and (4) are about that copy and the host's sum: every launch (an iteration, or a
  // temporal pass, whose iterations' terms cross together and are summed apart).
  static constexpr bool kReadBackEveryIteration = true;
  static constexpr bool kIgnoresSweep = false;
  using Terms = Kokkos::View<T***, Kokkos::LayoutRight, Memory>;
  Extents owned;
  Terms terms;  // a block of the owned points a step (BufferedGosa)
  typename Terms::host_mirror_type host_terms;
  Kokkos::View<double, Memory> unused{"himeno::unused"};
  int steps = 1;

  explicit BufferedReduction(const Extents& owned_) : owned(owned_) { hold(1); }
  void begin() {}
  int launch(const ExecutionSpace& space, const SweepArrays<T, Memory>& arrays,
             const SweepChoice& choice) {
    steps = choice.steps();
    hold(steps);
    const BufferedGosa<T, Memory> sink{{}, terms, arrays.i_owned, static_cast<int>(owned[0])};
    if (choice.kind == SweepKind::temporal)
      return launch_temporal<T>(space, arrays, choice, sink, unused);
    return launch_sweep<T>(space, arrays, choice, sink, unused);
  }
  // Each step's block crosses and is summed on its own; a run's closing single sweeps copy the
  // first block alone.
  StepGosa collect() {
    const auto filled = std::make_pair(std::int64_t{0}, steps * owned[0]);
    Kokkos::deep_copy(Kokkos::subview(host_terms, filled, Kokkos::ALL, Kokkos::ALL),
                      Kokkos::subview(terms, filled, Kokkos::ALL, Kokkos::ALL));
    const std::size_t block = static_cast<std::size_t>(owned[0] * owned[1] * owned[2]);
    StepGosa sums;
    sums.steps = steps;
    for (int step = 0; step < steps; ++step) {
      const T* data = host_terms.data() + step * block;
      Kokkos::parallel_reduce(
          "himeno::gosa_on_host", Kokkos::RangePolicy<HostSpace>(0, block),
          [=](std::size_t n, double& partial) { partial += static_cast<double>(data[n]); },
          sums.value[step]);
    }
    return sums;
  }

 private:
  // Room for `blocks` steps' terms, allocated before the first launch that needs it (the
  // rehearsal's, untimed).
  void hold(int blocks) {
    if (terms.extent(0) >= static_cast<std::size_t>(blocks * owned[0])) return;
    terms = Terms(Kokkos::view_alloc(Kokkos::WithoutInitializing, "himeno::gosa_terms"),
                  blocks * owned[0], owned[1], owned[2]);
    host_terms = Kokkos::create_mirror_view(terms);
  }
};

// ExecutionSpace is a host space here: the arrays live on the host.
template <class T, class ExecutionSpace>
struct HostLoops {
  using Memory = typename ExecutionSpace::memory_space;
  static constexpr bool kReadBackEveryIteration = true;
  // The original's loops, one iteration at a time, whatever the sweep.
  static constexpr bool kIgnoresSweep = true;
  double result = 0.0;
  explicit HostLoops(const Extents&) {}
  void begin() { result = 0.0; }
  int launch(const ExecutionSpace& space, const SweepArrays<T, Memory>& arrays,
             const SweepChoice&) {
    double part = 0.0;
    Kokkos::parallel_reduce("himeno::jacobi_rows",
                            Kokkos::RangePolicy<ExecutionSpace>(space, 0, arrays.ni * arrays.nj),
                            RowSweep<T, ExecutionSpace>{arrays}, part);
    result += part;
    return 0;
  }
  StepGosa collect() {
    StepGosa sum;
    sum.value[0] = result;
    return sum;
  }
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
