// The sum over ranks of each rank's part of G. The parts are symmetric (GBuilder symmetrises
// them), so only their lower triangles travel, through the host and MPI_Allreduce: half the
// bytes of the whole matrices, and the same sums element by element.
#pragma once

#include <Kokkos_Core.hpp>

#include "core/comm.hpp"
#include "hf/g_build.hpp"

namespace kmini::hf {

class SymmetricRankSum {
 public:
  // g, symmetric on every rank, becomes the sum of every rank's g (collective).
  void operator()(const Comm& comm, const Matrix<DeviceMemory>& g);

 private:
  Kokkos::View<double*, DeviceMemory> packed_;
  Kokkos::View<double*, DeviceMemory>::host_mirror_type host_;
};

}  // namespace kmini::hf
