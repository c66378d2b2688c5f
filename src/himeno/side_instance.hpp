// A second instance of an execution space, for work that may run beside the default instance's:
// the overlapped halo exchange sweeps and sends the boundary planes on it while the default
// instance sweeps the rest.
//
// On CUDA it is a stream of its own, created non-blocking: Kokkos 3.4's default instance runs on
// the legacy default stream, which would otherwise wait for every other stream's work and they for
// it. The host backends run their kernels to completion one after another, so there it is the
// default instance, and the two parts run in turn (`concurrent` is false, and the report says so).
#pragma once

#include <stdexcept>
#include <string>

#include <Kokkos_Core.hpp>

namespace kmini::himeno {

template <class ExecutionSpace>
class SideInstance {
 public:
  static constexpr bool concurrent = false;
  ExecutionSpace space() const { return ExecutionSpace(); }
};

#if defined(KOKKOS_ENABLE_CUDA)
template <>
class SideInstance<Kokkos::Cuda> {
 public:
  static constexpr bool concurrent = true;
  SideInstance() : space_(stream_.handle) {}
  SideInstance(const SideInstance&) = delete;
  SideInstance& operator=(const SideInstance&) = delete;
  Kokkos::Cuda space() const { return space_; }

 private:
  // Declared before the instance, so that it outlives it: the instance's last copy finalizes on
  // the stream.
  struct Stream {
    cudaStream_t handle = nullptr;
    Stream() {
      const cudaError_t error = cudaStreamCreateWithFlags(&handle, cudaStreamNonBlocking);
      if (error != cudaSuccess) {
        throw std::runtime_error(std::string("himeno: cannot create a CUDA stream: ") +
                                 cudaGetErrorString(error));
      }
    }
    ~Stream() { cudaStreamDestroy(handle); }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
  };
  Stream stream_;
  Kokkos::Cuda space_;
};
#endif

}  // namespace kmini::himeno
