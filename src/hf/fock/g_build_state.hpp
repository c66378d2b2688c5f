// What GBuilder's translation units share: g_build.cpp, and g_build_classes_*.cpp, which compile
// the quartet classes' kernels (g_build_class.hpp). The tables a build reads, the state of one
// build, and where they live.
#pragma once

#include <Kokkos_ScatterView.hpp>
#include <cstdint>
#include <memory>
#include <vector>

#include "hf/fock/g_build.hpp"
#include "hf/fock/g_kernels.hpp"
#include "hf/integrals/boys.hpp"
#include "hf/integrals/shell_pairs.hpp"
#include "hf/screening/class_data.hpp"
#include "hf/screening/quartet_screen.hpp"

namespace kmini::hf {

namespace Impl {
using Device = Kokkos::DefaultExecutionSpace;
using Host = Kokkos::HostSpace;
}  // namespace Impl

template <class Memory>
struct GBuilder::Tables {
  ShellPairs<Memory> pairs;
  BoysTable<Memory> boys;
  ShellData<Memory> shells;
  // Per class; their per-build views are the plan's, or cuts[i]'s under density screening.
  std::vector<ClassData<Memory>> classes;
  std::vector<ClassCut<Memory>> cuts;
  Kokkos::View<double**, Kokkos::LayoutRight, Memory> shell_density;
  QuartetScreen<Memory> screen;
  // A chunk's kept quartets and their numbers (ListKept), grown to the largest chunk.
  KeptList<Memory> kept_list;
  Kokkos::View<int[2], Memory> kept_count;
  // Per class, the candidates of its next launch: timed in this space alone, so that the host's
  // slow chunks (cpu) do not shrink the device's.
  std::vector<TimedChunks> chunks;
  // Per class, what follows a batch's store in this space, timed apart from the chunks above:
  // kernel_split's gather (G blocks a launch; the device's tables), host_update's additions
  // (buffered quartets a launch; the host's tables).
  std::vector<TimedChunks> gather_chunks, buffered_chunks;
};

// The host's side of a build where some classes are host_update or cpu: the density copied over
// once, a G private to each host thread (added into the device's G at the end), and the host
// tables set to this build's screen and prefixes.
struct GBuilder::HostBuild {
  Matrix<Kokkos::HostSpace> density;
  Matrix<Kokkos::HostSpace> g;
  decltype(Kokkos::Experimental::create_scatter_view(
      std::declval<Matrix<Kokkos::HostSpace>>())) scatter;
};

struct GBuilder::Build {
  Matrix<DeviceMemory> density, g;
  std::vector<std::int64_t> candidates;                 // per class, this rank's share
  std::vector<std::int64_t> totals;                     // per class, every rank's
  std::vector<std::vector<std::int64_t>> host_offsets;  // per class, copied when needed
  std::unique_ptr<HostBuild> host;
};

// A warm-up's density and the G it adds into, which is thrown away.
struct GBuilder::WarmUp {
  Matrix<DeviceMemory> density, g;
};

}  // namespace kmini::hf
