// The two-electron part G = J - K/2 of the Fock matrix, built from the integrals of the planned
// quartets by one of the update variants. This is where the hf app spends its time.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>

#include "hf/g_kernels.hpp"
#include "hf/molecular_basis.hpp"
#include "hf/quartet_plan.hpp"
#include "hf/shell_pairs.hpp"

namespace kmini::hf {

using DeviceMemory = Kokkos::DefaultExecutionSpace::memory_space;

enum class GUpdate {
  atomic,           // one thread per quartet, plain atomics into G
  warp_aggregated,  // the same through the reducers' warp-aggregated atomics
  kernel_split,     // integrals to a buffer, then a gather per G block: no atomics
  host_update,      // integrals on the device, G assembled on the host's threads
  cpu               // everything on the host's threads
};

class GBuilder {
 public:
  // `batch_bytes` bounds the integral buffer of kernel_split and host_update.
  GBuilder(const MolecularBasis& basis, const std::vector<std::array<int, 2>>& pair_shells,
           const ShellPairs<Kokkos::HostSpace>& pairs, const QuartetPlan& plan, double batch_bytes);
  ~GBuilder();

  // This rank's part of G from `density` (both full symmetric matrices on the device),
  // symmetrised; the caller sums it over ranks.
  void build(GUpdate update, const Matrix<DeviceMemory>& density, const Matrix<DeviceMemory>& g);

  // Per build, on this rank.
  double quartets() const { return quartets_; }
  double integrals() const { return integrals_; }
  // The largest number of integrals one buffered batch holds.
  double batch_capacity() const { return batch_capacity_; }

 private:
  template <class Memory>
  struct Tables;

  template <class Memory>
  Tables<Memory> make_tables() const;
  void build_on_device(GUpdate update, const Matrix<DeviceMemory>& density,
                       const Matrix<DeviceMemory>& g);
  void build_split(const Matrix<DeviceMemory>& density, const Matrix<DeviceMemory>& g);
  void build_host_update(const Matrix<DeviceMemory>& density, const Matrix<DeviceMemory>& g);
  void build_cpu(const Matrix<DeviceMemory>& density, const Matrix<DeviceMemory>& g);
  // kernel_split's first kernel on quartets [first, first + count) of a class, into the buffer
  // (grown to fit); the number of integrals written.
  template <class Class>
  std::size_t compute_batch(std::size_t class_index, std::int64_t first, std::int64_t count);
  // Consecutive bra ranges of each class whose integrals fit the buffer.
  std::vector<std::array<int, 2>> batches(const ClassPlan& plan) const;

  const MolecularBasis& basis_;
  std::vector<std::array<int, 2>> pair_shells_;
  ShellPairs<Kokkos::HostSpace> host_pairs_;
  QuartetPlan plan_;
  double batch_bytes_;
  double quartets_ = 0.0, integrals_ = 0.0, batch_capacity_ = 0.0;
  std::unique_ptr<Tables<DeviceMemory>> device_;
  std::unique_ptr<Tables<Kokkos::HostSpace>> host_;  // made when a host variant first runs
  Kokkos::View<double*, DeviceMemory> buffer_;
};

}  // namespace kmini::hf
