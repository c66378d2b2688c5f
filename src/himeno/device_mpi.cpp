#include "himeno/device_mpi.hpp"

#include <mpi.h>
#include <Kokkos_Core.hpp>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

namespace kmini::himeno {

std::string device_pointers_unsupported() {
  using Memory = Kokkos::DefaultExecutionSpace::memory_space;
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible) return "";
#if defined(MPIX_CUDA_AWARE_SUPPORT)
  // Compiled against an MPI that knows the question; the library at run time answers it.
  if (MPIX_Query_cuda_support() == 1) return "";
  return "this MPI library is not CUDA-aware (MPIX_Query_cuda_support() is 0); use "
         "gpu_aware_mpi: false to stage halos through the host";
#else
  return "this MPI library cannot say whether it is CUDA-aware; use gpu_aware_mpi: false to "
         "stage halos through the host";
#endif
}

}  // namespace kmini::himeno
