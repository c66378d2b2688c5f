#include "core/host_backends.hpp"

#include <Kokkos_Core.hpp>

namespace kmini {

const char* backend_word(HostBackend backend) {
  switch (backend) {
    case HostBackend::none:
      return "";
    case HostBackend::serial:
      return "serial";
    case HostBackend::openmp:
      return "openmp";
  }
  return "";
}

std::string missing_backend(HostBackend backend) {
  switch (backend) {
    case HostBackend::none:
      return "";
    case HostBackend::serial:
#if defined(KOKKOS_ENABLE_SERIAL)
      return "";
#else
      return "this build has no Kokkos Serial backend";
#endif
    case HostBackend::openmp:
#if defined(KOKKOS_ENABLE_OPENMP)
      return "";
#else
      return "this build has no Kokkos OpenMP backend";
#endif
  }
  return "";
}

std::string openmp_backend_missing() {
  return missing_backend(HostBackend::openmp);
}

}  // namespace kmini
