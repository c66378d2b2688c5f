#include "core/cuda_ipc.hpp"

#include <stdexcept>
#include <string>

#include <Kokkos_Core.hpp>

#include "core/error.hpp"
#if defined(KOKKOS_ENABLE_CUDA)
#include <cstring>

#include <cuda_runtime_api.h>
#endif

namespace kmini {

#if defined(KOKKOS_ENABLE_CUDA)

namespace {

void check(cudaError_t error, const char* what) {
  if (error != cudaSuccess) {
    cudaGetLastError();  // clear it, so that the next CUDA call does not report it again
    throw RuntimeFailure(std::string("CUDA IPC: ") + what + ": " + cudaGetErrorString(error));
  }
}

}  // namespace

static_assert(sizeof(cudaIpcMemHandle_t) == sizeof(IpcHandle::bytes), "cudaIpcMemHandle_t's size");

bool cuda_ipc_built() {
  return true;
}

SharedDeviceBuffer::SharedDeviceBuffer(std::size_t bytes) {
  check(cudaMalloc(&data_, bytes), "cudaMalloc of a buffer other ranks map");
}

SharedDeviceBuffer::~SharedDeviceBuffer() {
  cudaFree(data_);
}

IpcHandle SharedDeviceBuffer::handle() const {
  cudaIpcMemHandle_t handle;
  check(cudaIpcGetMemHandle(&handle, data_), "cudaIpcGetMemHandle");
  IpcHandle out;
  std::memcpy(out.bytes.data(), &handle, sizeof(handle));
  return out;
}

MappedDeviceBuffer::MappedDeviceBuffer(const IpcHandle& handle) {
  cudaIpcMemHandle_t cuda_handle;
  std::memcpy(&cuda_handle, handle.bytes.data(), sizeof(cuda_handle));
  check(cudaIpcOpenMemHandle(&data_, cuda_handle, cudaIpcMemLazyEnablePeerAccess),
        "cudaIpcOpenMemHandle of another rank's buffer");
}

MappedDeviceBuffer::~MappedDeviceBuffer() {
  cudaIpcCloseMemHandle(data_);
}

#else

namespace {

[[noreturn]] void no_cuda() {
  throw std::logic_error("CUDA IPC needs the CUDA backend, which this build lacks");
}

}  // namespace

bool cuda_ipc_built() {
  return false;
}
SharedDeviceBuffer::SharedDeviceBuffer(std::size_t) {
  no_cuda();
}
SharedDeviceBuffer::~SharedDeviceBuffer() = default;
IpcHandle SharedDeviceBuffer::handle() const {
  no_cuda();
}
MappedDeviceBuffer::MappedDeviceBuffer(const IpcHandle&) {
  no_cuda();
}
MappedDeviceBuffer::~MappedDeviceBuffer() = default;

#endif

}  // namespace kmini
