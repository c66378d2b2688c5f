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

  // The same with updates[i] for the quartets of class i (of the plan's classes), so that each
  // class can take the update that suits it; with `class_seconds`, each class's time, fenced.
  void build_by_class(const std::vector<GUpdate>& updates, const Matrix<DeviceMemory>& density,
                      const Matrix<DeviceMemory>& g, std::vector<double>* class_seconds = nullptr);

  // The plan's classes, whose order build_by_class's vectors follow.
  const QuartetPlan& plan() const { return plan_; }

  // Per build, on this rank.
  double quartets() const { return quartets_; }
  double integrals() const { return integrals_; }
  // The largest number of integrals one buffered batch holds.
  double batch_capacity() const { return batch_capacity_; }

 private:
  template <class Memory>
  struct Tables;

  struct HostPart;

  template <class Memory>
  Tables<Memory> make_tables() const;
  // Class i's contributions to G, by one update each.
  template <class Class, class Add>
  void scatter_class(std::size_t i, const Matrix<DeviceMemory>& density,
                     const Matrix<DeviceMemory>& g);
  template <class Class>
  void split_class(std::size_t i, const Matrix<DeviceMemory>& density,
                   const Matrix<DeviceMemory>& g);
  template <class Class>
  void host_class(GUpdate update, std::size_t i, HostPart& host);
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
