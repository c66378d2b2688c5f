// The himeno app's variants: a row each, naming the solver the variant makes (its gosa reduction
// and the execution space of its arrays), which `kmini list`, the runner and the report all read.
#pragma once

#include <memory>

#include <Kokkos_Core.hpp>

#include "core/host_backends.hpp"
#include "core/variant.hpp"
#include "himeno/gosa.hpp"
#include "himeno/gosa_policies.hpp"
#include "himeno/solver.hpp"
#include "reducers/atomics.hpp"

namespace kmini::himeno {

// Where the device variants run.
using Device = Kokkos::DefaultExecutionSpace;

// How a variant makes its solver: the gosa reduction and the arrays' execution space.
template <class T>
struct HimenoSolver {
  std::unique_ptr<Solver<T>> (*make)(const SolverSetup&);
  bool needs_team = false;  // not applicable to the mdrange sweep
};

// Weight 1: every variant moves the byte model's arrays.
template <class T>
const VariantTable<HimenoSolver<T>>& variant_table() {
  using reducers::PlainAtomic;
  using reducers::WarpMatchAtomic;
  static const VariantTable<HimenoSolver<T>> rows{
      {"kokkos_reduce",
       "gosa by parallel_reduce over the sweep (a tree)",
       1.0,
       on_device(),
       {make_solver<T, Device, TreeReduction<T, Device>>}},
      {"plain_atomic",
       "one atomic_add per point into gosa: pattern (2)",
       1.0,
       on_device(),
       {make_solver<T, Device,
                    AtomicReduction<T, Device, AtomicGosa<PlainAtomic, Device::memory_space>>>}},
      {"warp_aggregated",
       "one warp-aggregated atomic per point (match): pattern (1)",
       1.0,
       on_device(),
       {make_solver<
           T, Device,
           AtomicReduction<T, Device, AtomicGosa<WarpMatchAtomic, Device::memory_space>>>}},
      {"block_aggregated",
       "one atomic per point and team, through team scratch (the seed's Fig. 4)",
       1.0,
       on_device(),
       {make_solver<T, Device, AtomicReduction<T, Device, BlockGosa<Device>>>, true}},
      {"host_serial",
       "each point's ss^2 to a device buffer, copied to the host and summed by one thread: "
       "pattern (3)",
       1.0,
       on_device().needing(HostBackend::serial).with_buffer(),
       {make_solver<T, Device, BufferedReduction<T, Device, SerialSpace>>}},
      {"host_openmp",
       "the same, summed by the host's OpenMP threads: pattern (4)",
       1.0,
       on_device().needing(HostBackend::openmp).with_buffer(),
       {make_solver<T, Device, BufferedReduction<T, Device, OpenMPSpace>>}},
      {"cpu_serial",
       "the whole iteration on the host, one thread, the original's loops: pattern (5)",
       1.0,
       on_host().needing(HostBackend::serial).as_baseline(),
       {make_solver<T, SerialSpace, HostLoops<T, SerialSpace>>}},
      {"cpu_openmp",
       "the whole iteration on the host's OpenMP threads (i, j shared): pattern (6)",
       1.0,
       on_host().needing(HostBackend::openmp),
       {make_solver<T, OpenMPSpace, HostLoops<T, OpenMPSpace>>}},
  };
  return rows;
}

}  // namespace kmini::himeno
