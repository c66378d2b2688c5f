// The gosa variants' part of a rank's Jacobi iteration (solver.hpp), as Gosa policies: how each
// launches the sweep and how it gets the sum back.
//
//   TreeReduction        parallel_reduce over the sweep
//   AtomicReduction      one atomic per point, plain (pattern 2) or warp-aggregated (pattern 1),
//                        or one per point and team through team scratch (needs a team sweep)
//   BufferedReduction    each point's term to a device buffer, copied to the host and summed there
//                        by one thread or by OpenMP (patterns 3 and 4)
//   HostLoops            the whole iteration on the host, one thread or OpenMP (patterns 5, 6)
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>

#include <Kokkos_Core.hpp>

#include "himeno/gosa.hpp"
#include "himeno/grid.hpp"
#include "himeno/sweep_launch.hpp"
#include "himeno/sweeps.hpp"

namespace kmini::himeno {

// What collect() brings back: the gosa of each iteration the launches since begin() advanced (one,
// or a temporal pass's steps), in order.
struct StepGosa {
  std::array<double, kMaxTimeSteps> value{};
  int steps = 1;
  double last() const { return value[steps - 1]; }
};

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

}  // namespace kmini::himeno
