// One halo layer of an array (the solver's wrk2, which becomes p), refreshed from the
// neighbouring ranks after each sweep.
//
// The axes go in a fixed order, i then j then k, and each face spans the halo layers of the axes
// already done: the j faces carry the i halo, the k faces the i and j halos. So the edge values
// the b-terms read (p(i+1, j+1, k) and the like) arrive from the diagonal neighbour by way of the
// face neighbour, with no message to a diagonal. A side with no neighbour is the global boundary,
// which holds its initial values and is never overwritten.
//
// Host-staged by default: faces are packed on the device, copied to host buffers and sent from
// there. With device pointers, MPI is handed the device buffers (CUDA-aware MPI).
//
// Every copy and kernel runs on the execution space instance it is given, and every wait is for
// that instance alone, so that an axis's exchange can run while another instance sweeps.
#pragma once

#include <array>
#include <type_traits>

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include "himeno/grid.hpp"

namespace kmini::himeno {

template <class T>
MPI_Datatype mpi_type() {
  static_assert(std::is_same<T, float>::value || std::is_same<T, double>::value, "float or double");
  return std::is_same<T, float>::value ? MPI_FLOAT : MPI_DOUBLE;
}

// Copies one plane of an array (`plane` along `axis`, over a face's extents) to or from a buffer.
template <class Array, class Buffer>
struct PlaneCopy {
  Array a;
  Buffer buffer;
  int axis, plane;
  int lo_u, lo_v, extent_v;
  bool to_buffer;

  KOKKOS_INLINE_FUNCTION void operator()(int index) const {
    const int u = lo_u + index / extent_v;
    const int v = lo_v + index % extent_v;
    const int i = axis == 0 ? plane : u;
    const int j = axis == 0 ? u : (axis == 1 ? plane : v);
    const int k = axis == 2 ? plane : v;
    if (to_buffer) {
      buffer(index) = a(i, j, k);
    } else {
      a(i, j, k) = buffer(index);
    }
  }
};

// Where host-staged faces wait for MPI: page-locked memory where the device is a CUDA GPU, so
// the copies run at full PCIe speed.
#if defined(KOKKOS_ENABLE_CUDA)
using StagingSpace = Kokkos::CudaHostPinnedSpace;
#else
using StagingSpace = Kokkos::HostSpace;
#endif

template <class T, class ExecutionSpace>
class HaloExchange {
 public:
  using MemorySpace = typename ExecutionSpace::memory_space;
  using Array = Kokkos::View<T***, Kokkos::LayoutStride, MemorySpace>;  // an array's window
  using Buffer = Kokkos::View<T*, MemorySpace>;
  using Staging = Kokkos::View<T*, StagingSpace>;

  HaloExchange(const Decomposition& decomposition, MPI_Comm comm, bool device_pointers)
      : decomposition_(decomposition), comm_(comm), device_pointers_(device_pointers) {
    const Extents local = decomposition.local_dims();
    for (int axis = 0; axis < kAxes; ++axis) {
      Face& face = faces_[axis];
      int other = 0;
      for (int a = 0; a < kAxes; ++a) {
        if (a == axis) continue;
        // Axes exchanged before this one: their halo layers too; after it: owned points only.
        face.lo[other] = a < axis ? 0 : 1;
        face.extent[other] = a < axis ? local[a] : local[a] - 2;
        ++other;
      }
      const std::int64_t n = face.extent[0] * face.extent[1];
      for (int side = 0; side < 2; ++side) {
        face.send[side] = Buffer("himeno::halo_send", n);
        face.receive[side] = Buffer("himeno::halo_receive", n);
        face.host_send[side] = Staging("himeno::halo_send_staging", n);
        face.host_receive[side] = Staging("himeno::halo_receive_staging", n);
      }
    }
  }

  bool splits(int axis) const { return decomposition_.dims[axis] > 1; }

  // The axes from `first_axis` on, in order; returns when `a`'s halo layers along them are filled.
  void exchange(const ExecutionSpace& space, const Array& a, int first_axis = 0) {
    for (int axis = first_axis; axis < kAxes; ++axis) {
      if (!splits(axis)) continue;
      pack(space, a, axis);
      transfer(space, a, axis);
    }
  }

  // Starts packing `a`'s faces along `axis` into the send buffers, on `space`.
  void pack(const ExecutionSpace& space, const Array& a, int axis) {
    const Face& face = faces_[axis];
    const int send_plane[2] = {1, static_cast<int>(decomposition_.owned[axis])};
    for (int side = 0; side < 2; ++side) {
      if (decomposition_.neighbours[axis][side] >= 0)
        copy_plane(space, a, face, face.send[side], axis, send_plane[side], true);
    }
  }

  // Sends the faces packed on `space` and fills `a`'s halo layers along `axis` from the
  // neighbours; returns when they are filled.
  void transfer(const ExecutionSpace& space, const Array& a, int axis) {
    Face& face = faces_[axis];
    const auto& neighbour = decomposition_.neighbours[axis];
    const int halo_plane[2] = {0, static_cast<int>(decomposition_.owned[axis]) + 1};
    if (!device_pointers_) {
      for (int side = 0; side < 2; ++side) {
        if (neighbour[side] >= 0) Kokkos::deep_copy(space, face.host_send[side], face.send[side]);
      }
    }
    space.fence();
    MPI_Request requests[4];
    int count = 0;
    const auto count_of = static_cast<int>(face.send[0].extent(0));
    for (int side = 0; side < 2; ++side) {
      if (neighbour[side] < 0) continue;
      // A face travelling towards the low side carries tag 2 axis, towards the high side 2 axis+1.
      T* receive = device_pointers_ ? face.receive[side].data() : face.host_receive[side].data();
      MPI_Irecv(receive, count_of, mpi_type<T>(), neighbour[side], 2 * axis + (side == 0 ? 1 : 0),
                comm_, &requests[count++]);
    }
    for (int side = 0; side < 2; ++side) {
      if (neighbour[side] < 0) continue;
      T* send = device_pointers_ ? face.send[side].data() : face.host_send[side].data();
      MPI_Isend(send, count_of, mpi_type<T>(), neighbour[side], 2 * axis + (side == 0 ? 0 : 1),
                comm_, &requests[count++]);
    }
    MPI_Waitall(count, requests, MPI_STATUSES_IGNORE);
    for (int side = 0; side < 2; ++side) {
      if (neighbour[side] < 0) continue;
      if (!device_pointers_) Kokkos::deep_copy(space, face.receive[side], face.host_receive[side]);
      copy_plane(space, a, face, face.receive[side], axis, halo_plane[side], false);
    }
    space.fence();
  }

 private:
  struct Face {
    std::array<std::int64_t, 2> lo{};      // first index along the two other axes, in order
    std::array<std::int64_t, 2> extent{};  // and how many
    std::array<Buffer, 2> send, receive;   // [low side, high side]
    std::array<Staging, 2> host_send, host_receive;
  };

  void copy_plane(const ExecutionSpace& space, const Array& a, const Face& face,
                  const Buffer& buffer, int axis, int plane, bool to_buffer) const {
    Kokkos::parallel_for(
        to_buffer ? "himeno::halo_pack" : "himeno::halo_unpack",
        Kokkos::RangePolicy<ExecutionSpace>(space, 0, buffer.extent(0)),
        PlaneCopy<Array, Buffer>{a, buffer, axis, plane, static_cast<int>(face.lo[0]),
                                 static_cast<int>(face.lo[1]), static_cast<int>(face.extent[1]),
                                 to_buffer});
  }

  Decomposition decomposition_;
  MPI_Comm comm_;
  bool device_pointers_;
  std::array<Face, kAxes> faces_;
};

}  // namespace kmini::himeno
