#include "core/host_backends.hpp"

#include <Kokkos_Core.hpp>

namespace kmini {

std::string serial_backend_missing() {
#if defined(KOKKOS_ENABLE_SERIAL)
  return "";
#else
  return "this build has no Kokkos Serial backend";
#endif
}

std::string openmp_backend_missing() {
#if defined(KOKKOS_ENABLE_OPENMP)
  return "";
#else
  return "this build has no Kokkos OpenMP backend";
#endif
}

}  // namespace kmini
