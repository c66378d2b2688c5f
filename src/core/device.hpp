// What this rank runs on: the GPU it was given, or the host.
#pragma once

#include <string>

namespace kmini {

class Comm;

struct DeviceInfo {
  std::string execution_space;  // Kokkos' default execution space: "Cuda", "OpenMP", ...
  std::string name;             // "NVIDIA H100 80GB HBM3", or the CPU's model name
  int id = -1;                  // GPU ordinal on this node; -1 on host backends
  std::string uuid;             // identifies the physical GPU across processes
  std::string pci_bus_id;       // "0000:19:00.0"
  double memory_bytes = 0.0;    // total device (or host) memory
  int concurrency = 0;          // Kokkos' concurrency of the default execution space
  // A GPU's streaming multiprocessors and the shared memory each holds; 0 on hosts.
  int multiprocessors = 0;
  double shared_bytes_per_multiprocessor = 0.0;
  // The memory's datasheet bandwidth, 2 x memory clock x bus width as the driver reports them
  // (HBM and GDDR move two words per clock); 0 where unknown (host backends).
  double memory_peak_gbps = 0.0;
  bool is_gpu() const { return id >= 0; }
};

// GPUs this process can see (CUDA_VISIBLE_DEVICES applies); 0 on builds without CUDA.
int visible_gpu_count();

// The device Kokkos runs on; call after Kokkos is initialised.
DeviceInfo describe_device();

// Memory free right now, and whether an address-space limit (ulimit -v, RLIMIT_AS) rather than
// the memory itself bounds it, so that a refusal names the bound the user can change.
struct FreeMemory {
  double bytes = 0.0;
  bool address_space_bound = false;
};

// Where the default execution space allocates.
FreeMemory free_device_memory();

// The host's memory available right now (MemAvailable), or what RLIMIT_AS leaves if less.
FreeMemory free_host_memory();

// Whether the default execution space allocates in the host's memory (a build without a GPU
// backend): its device and host needs then draw on the same memory.
bool device_memory_is_host();

// The job's datasheet memory bandwidth: the sum of memory_peak_gbps over the distinct GPUs its
// ranks use (ranks sharing a GPU count it once); 0 where a rank's is unknown. Collective.
double job_memory_peak_gbps(const Comm& comm, const DeviceInfo& device);

// This machine's name.
std::string host_name();

}  // namespace kmini
