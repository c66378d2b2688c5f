// Whether this build has the host backends that host-side variants run on: an empty string when
// it does, else the reason a variant gives for not being applicable.
#pragma once

#include <string>

#include <Kokkos_Core.hpp>

namespace kmini {

// The host backends' execution spaces, where this build has them; elsewhere a stand-in that the
// variants using it never run on, since *_backend_missing() makes them not applicable.
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

std::string serial_backend_missing();
std::string openmp_backend_missing();

}  // namespace kmini
