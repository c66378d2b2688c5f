// The sum over ranks of each rank's share of G. The shares are symmetric (GBuilder symmetrises
// them), so only their lower triangles travel: half the bytes of the whole matrices. Two ways:
//   - mpi: through the host and MPI_Allreduce;
//   - cuda_ipc: each rank's triangle stays in device memory that the node's other ranks map, and
//     the GPUs sum and gather it among themselves (triangle_slices.hpp) over NVLink or PCIe, MPI
//     only saying when: three barriers a sum. CUDA builds, every rank on one node.
// Both give every rank the same sums; the order of each element's terms may differ between them.
#pragma once

#include <memory>

#include <Kokkos_Core.hpp>

#include "core/comm.hpp"
#include "hf/fock/g_build.hpp"

namespace kmini::hf {

enum class RankSumTransport { automatic, mpi, cuda_ipc };

class SymmetricRankSum {
 public:
  // automatic: cuda_ipc where it can be had, else mpi.
  explicit SymmetricRankSum(RankSumTransport transport = RankSumTransport::automatic);
  // Collective where the triangles are shared: every rank destroys its sum together.
  ~SymmetricRankSum();
  SymmetricRankSum(const SymmetricRankSum&) = delete;
  SymmetricRankSum& operator=(const SymmetricRankSum&) = delete;

  // g, symmetric on every rank, becomes the sum of every rank's g (collective). With cuda_ipc
  // asked for, throws std::runtime_error on every rank where it cannot be had.
  void operator()(const Comm& comm, const Matrix<DeviceMemory>& g);

  // Whether the sums went over CUDA IPC.
  bool cuda_ipc() const { return shared_ != nullptr; }

 private:
  struct SharedTriangles;

  // Shares this rank's triangle with the others (collective); leaves shared_ empty where auto
  // cannot have it.
  void share(const Comm& comm, std::size_t triangle);
  void sum_shared(const Comm& comm, const Kokkos::View<double*, DeviceMemory>& own);

  RankSumTransport transport_;
  bool decided_ = false;  // whether the transport has been settled (at the first sum)
  std::unique_ptr<SharedTriangles> shared_;
  Kokkos::View<double*, DeviceMemory> packed_;
  Kokkos::View<double*, DeviceMemory>::host_mirror_type host_;
};

}  // namespace kmini::hf
