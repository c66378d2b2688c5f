#include "core/device.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

#include "core/comm.hpp"
#include "core/error.hpp"

namespace kmini {

namespace {

// A field of /proc/meminfo in bytes (0 if unreadable).
double meminfo_bytes(const std::string& field) {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) != 0) continue;
    std::istringstream values(line.substr(field.size() + 1));
    double kib = 0.0;
    values >> kib;
    return kib * 1024.0;
  }
  return 0.0;
}

std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
  }
  return "unknown CPU";
}

#if defined(KOKKOS_ENABLE_CUDA)
void check_cuda(cudaError_t code, const char* what) {
  if (code != cudaSuccess) {
    throw RuntimeFailure(std::string(what) + " failed: " + cudaGetErrorString(code));
  }
}

std::string format_uuid(const cudaUUID_t& uuid) {
  const auto* b = reinterpret_cast<const unsigned char*>(uuid.bytes);
  char text[64];
  std::snprintf(text, sizeof(text),
                "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                b[14], b[15]);
  return text;
}
#endif

}  // namespace

int visible_gpu_count() {
#if defined(KOKKOS_ENABLE_CUDA)
  int count = 0;
  // No GPU or no driver: report none and let Kokkos' own initialisation say what is wrong.
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
#else
  return 0;
#endif
}

DeviceInfo describe_device() {
  DeviceInfo info;
  info.execution_space = Kokkos::DefaultExecutionSpace::name();
  info.concurrency = Kokkos::DefaultExecutionSpace().concurrency();
#if defined(KOKKOS_ENABLE_CUDA)
  if (std::is_same<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>::value) {
    info.id = Kokkos::Cuda().cuda_device();
    cudaDeviceProp prop;
    check_cuda(cudaGetDeviceProperties(&prop, info.id), "cudaGetDeviceProperties");
    info.name = prop.name;
    info.memory_bytes = static_cast<double>(prop.totalGlobalMem);
    info.uuid = format_uuid(prop.uuid);
    char bus[32];
    std::snprintf(bus, sizeof(bus), "%04x:%02x:%02x.0", prop.pciDomainID, prop.pciBusID,
                  prop.pciDeviceID);
    info.pci_bus_id = bus;
    info.multiprocessors = prop.multiProcessorCount;
    info.shared_bytes_per_multiprocessor = static_cast<double>(prop.sharedMemPerMultiprocessor);
    int clock_khz = 0, bus_bits = 0;
    if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, info.id) == cudaSuccess &&
        cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, info.id) ==
            cudaSuccess) {
      info.memory_peak_gbps = 2.0 * clock_khz * 1.0e3 * (bus_bits / 8.0) / 1.0e9;
    }
    cudaGetLastError();
    return info;
  }
#endif
  info.name = cpu_model_name();
  info.memory_bytes = meminfo_bytes("MemTotal");
  return info;
}

double job_memory_peak_gbps(const Comm& comm, const DeviceInfo& device) {
  std::map<std::string, double> peaks;  // by host and GPU
  bool unknown = false;
  for (const std::string& line : comm.all_gather(host_name() + "/" + device.uuid + "\t" +
                                                 std::to_string(device.memory_peak_gbps))) {
    const std::size_t tab = line.rfind('\t');
    const double peak = std::stod(line.substr(tab + 1));
    unknown = unknown || !(peak > 0.0);
    peaks[line.substr(0, tab)] = peak;
  }
  if (unknown) return 0.0;
  double total = 0.0;
  for (const auto& [gpu, peak] : peaks)
    total += peak;
  return total;
}

FreeMemory free_device_memory() {
#if defined(KOKKOS_ENABLE_CUDA)
  if (std::is_same<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>::value) {
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    check_cuda(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
    return {static_cast<double>(free_bytes), false};
  }
#endif
  return free_host_memory();
}

FreeMemory free_host_memory() {
  FreeMemory available{meminfo_bytes("MemAvailable"), false};
  // An address-space limit (ulimit -v) caps what the process may still map: the limit less what
  // it maps already (statm's first field, in pages). Without it, a run passed the gate and then
  // failed to allocate (exit 4).
  struct rlimit limit {};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    std::ifstream statm("/proc/self/statm");
    double pages = 0.0;
    statm >> pages;
    const double mapped = pages * static_cast<double>(sysconf(_SC_PAGESIZE));
    const double left = std::max(0.0, static_cast<double>(limit.rlim_cur) - mapped);
    if (left < available.bytes) available = {left, true};
  }
  return available;
}

bool device_memory_is_host() {
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                    Kokkos::DefaultExecutionSpace::memory_space>::accessible;
}

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return "unknown";
  return name;
}

}  // namespace kmini
