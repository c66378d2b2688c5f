// The host backends that host-side variants run on, where this build has them. A variant that
// needs one declares it in its traits (core/variant.hpp); the runner reports it not applicable
// where this build lacks it.
#pragma once

#include <string>

#include <Kokkos_Core.hpp>

#include "core/variant.hpp"

namespace kmini {

// The host backends' execution spaces, where this build has them; elsewhere a stand-in that the
// variants using it never run on, since they are not applicable there.
#if defined(KOKKOS_ENABLE_SERIAL)
using SerialSpace = Kokkos::Serial;
#else
using SerialSpace = Kokkos::DefaultHostExecutionSpace;
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
using OpenMPSpace = Kokkos::OpenMP;
#else
using OpenMPSpace = Kokkos::DefaultHostExecutionSpace;
#endif

template <HostBackend Backend>
struct HostSpaceOf;
template <>
struct HostSpaceOf<HostBackend::serial> {
  using type = SerialSpace;
};
template <>
struct HostSpaceOf<HostBackend::openmp> {
  using type = OpenMPSpace;
};
template <HostBackend Backend>
using HostSpace = typename HostSpaceOf<Backend>::type;

// A host variant's loop over [0, n) on its backend.
template <HostBackend Backend, class Index>
Kokkos::RangePolicy<HostSpace<Backend>, Kokkos::IndexType<Index>> host_range(Index n) {
  return Kokkos::RangePolicy<HostSpace<Backend>, Kokkos::IndexType<Index>>(0, n);
}

// "serial", "openmp": how kernel names call a backend ("reduce::host_serial").
const char* backend_word(HostBackend backend);

// Why a variant needing `backend` cannot run in this build, or empty when it can.
std::string missing_backend(HostBackend backend);

std::string openmp_backend_missing();

}  // namespace kmini
