// Device memory that another process of the node maps, reads and writes (CUDA IPC): how himeno's
// halo exchange moves faces and hf sums G from GPU to GPU over NVLink or PCIe, with MPI only
// saying when, where the MPI library is not CUDA-aware. Builds without the CUDA backend have
// none of it: the constructors throw, and cuda_ipc_built() says so beforehand.
#pragma once

#include <array>
#include <cstddef>

namespace kmini {

// Whether this build can share device memory between processes (the CUDA backend).
bool cuda_ipc_built();

// What another process needs to map an allocation: cudaIpcMemHandle_t's bytes, sendable as they
// are.
struct IpcHandle {
  std::array<char, 64> bytes{};
};

// A device allocation of this process that others may map. cudaMalloc's own, since a handle
// stands for a whole allocation and a Kokkos View's data sits past the allocation's header.
class SharedDeviceBuffer {
 public:
  explicit SharedDeviceBuffer(std::size_t bytes);
  ~SharedDeviceBuffer();
  SharedDeviceBuffer(const SharedDeviceBuffer&) = delete;
  SharedDeviceBuffer& operator=(const SharedDeviceBuffer&) = delete;

  void* data() const { return data_; }
  IpcHandle handle() const;

 private:
  void* data_ = nullptr;
};

// Another process's SharedDeviceBuffer, mapped into this one. Throws std::runtime_error with
// CUDA's reason where the handle cannot be opened (another node, a GPU this process cannot see).
class MappedDeviceBuffer {
 public:
  explicit MappedDeviceBuffer(const IpcHandle& handle);
  ~MappedDeviceBuffer();
  MappedDeviceBuffer(const MappedDeviceBuffer&) = delete;
  MappedDeviceBuffer& operator=(const MappedDeviceBuffer&) = delete;

  void* data() const { return data_; }

 private:
  void* data_ = nullptr;
};

}  // namespace kmini
