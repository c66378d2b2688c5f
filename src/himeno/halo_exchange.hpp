// The halo layers of an array (the solver's wrk2, which becomes p), refreshed from the
// neighbouring ranks after each sweep: one layer, or along i as many as the array holds
// (Fields::halo_i), which a temporal pass needs; those are exchanged only where the ranks split
// nothing but i.
//
// The axes go in a fixed order, i then j then k, and each face spans the halo layers of the axes
// already done: the j faces carry the i halo, the k faces the i and j halos. So the edge values
// the b-terms read (p(i+1, j+1, k) and the like) arrive from the diagonal neighbour by way of the
// face neighbour, with no message to a diagonal. A side with no neighbour is the global boundary,
// which holds its initial values and is never overwritten.
//
// Three transports. Host-staged: faces are packed on the device, copied to host buffers and
// sent from there. Device pointers: MPI is handed the device buffers (CUDA-aware MPI). CUDA IPC:
// each rank copies its faces straight into its neighbours' device buffers, and MPI only says
// when (peer_faces.hpp); `auto` takes it where every rank is on one node and their buffers map,
// and the report's halo_cuda_ipc says whether it did.
//
// Every copy and kernel runs on the execution space instance it is given, and every wait is for
// that instance alone, so that an axis's exchange can run while another instance sweeps.
#pragma once

#include <array>
#include <memory>
#include <stdexcept>
#include <type_traits>

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include "core/session.hpp"
#include "himeno/grid.hpp"
#include "himeno/peer_faces.hpp"

namespace kmini::himeno {

enum class HaloTransport { automatic, mpi, cuda_ipc };

template <class T>
MPI_Datatype mpi_type() {
  static_assert(std::is_same<T, float>::value || std::is_same<T, double>::value, "float or double");
  return std::is_same<T, float>::value ? MPI_FLOAT : MPI_DOUBLE;
}

// Copies planes of an array (from `plane` on along `axis`, over a face's extents, as many as the
// buffer holds) to or from a buffer.
template <class Array, class Buffer>
struct PlaneCopy {
  Array a;
  Buffer buffer;
  int axis, plane;
  int lo_u, lo_v, extent_u, extent_v;
  bool to_buffer;

  KOKKOS_INLINE_FUNCTION void operator()(int index) const {
    const int in_plane = index % (extent_u * extent_v);
    const int u = lo_u + in_plane / extent_v;
    const int v = lo_v + in_plane % extent_v;
    const int layer = plane + index / (extent_u * extent_v);
    const int i = axis == 0 ? layer : u;
    const int j = axis == 0 ? u : (axis == 1 ? layer : v);
    const int k = axis == 2 ? layer : v;
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

  // `device_pointers`: hand MPI the device buffers. `transport` cuda_ipc, or automatic without
  // device pointers, tries CUDA IPC where the arrays are in CUDA device memory and the ranks
  // split the grid (collective); cuda_ipc throws std::runtime_error where it cannot be had,
  // automatic then takes MPI. `halo_i`: the arrays' layers along i (Fields::halo_i).
  HaloExchange(const Decomposition& decomposition, MPI_Comm comm, bool device_pointers,
               HaloTransport transport, int halo_i = 1)
      : decomposition_(decomposition), comm_(comm), device_pointers_(device_pointers) {
    if (halo_i > 1 && (decomposition.dims[1] > 1 || decomposition.dims[2] > 1)) {
      throw std::logic_error("himeno: a halo deeper than one layer along i, with j or k split");
    }
    if (halo_i > 1 && decomposition.dims[0] > 1 && decomposition.owned[0] < halo_i) {
      throw std::logic_error("himeno: a halo deeper than the planes a rank owns");
    }
    layers_[0] = halo_i;
    const Extents local = decomposition.local_dims();
    std::array<std::size_t, kAxes> face_bytes{};
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
      face_bytes[axis] =
          static_cast<std::size_t>(layers_[axis] * face.extent[0] * face.extent[1]) * sizeof(T);
    }
    const bool wants_ipc = transport == HaloTransport::cuda_ipc ||
                           (transport == HaloTransport::automatic && !device_pointers);
    if (wants_ipc && kDeviceArrays && !decomposition.single()) share_buffers(face_bytes, transport);
    for (int axis = 0; axis < kAxes; ++axis) {
      Face& face = faces_[axis];
      const std::int64_t n = layers_[axis] * face.extent[0] * face.extent[1];
      for (int side = 0; side < 2; ++side) {
        face.send[side] = Buffer("himeno::halo_send", n);
        if (peer_) {
          if (decomposition.neighbours[axis][side] < 0) continue;
          face.receive[side] = Buffer(static_cast<T*>(peer_->receive(axis, side)), n);
          face.remote[side] = Buffer(static_cast<T*>(peer_->remote(axis, side)), n);
          continue;
        }
        face.receive[side] = Buffer("himeno::halo_receive", n);
        if (device_pointers_) continue;
        face.host_send[side] = Staging("himeno::halo_send_staging", n);
        face.host_receive[side] = Staging("himeno::halo_receive_staging", n);
      }
    }
  }

  // Whether the faces travel over CUDA IPC.
  bool cuda_ipc() const { return peer_ != nullptr; }

  bool splits(int axis) const { return decomposition_.dims[axis] > 1; }

  // The axes from `first_axis` on, in order; returns when `a`'s halo layers along them are filled.
  void exchange(const ExecutionSpace& space, const Array& a, int first_axis = 0) {
    for (int axis = first_axis; axis < kAxes; ++axis) {
      if (!splits(axis)) continue;
      pack(space, a, axis);
      transfer(space, a, axis);
    }
  }

  // Starts packing `a`'s faces along `axis` into the send buffers, on `space`: the owned planes
  // nearest each neighbour, as many as the halo has layers.
  void pack(const ExecutionSpace& space, const Array& a, int axis) {
    const Face& face = faces_[axis];
    const int layers = layers_[axis];
    const int send_plane[2] = {layers, static_cast<int>(decomposition_.owned[axis])};
    for (int side = 0; side < 2; ++side) {
      if (decomposition_.neighbours[axis][side] >= 0)
        copy_plane(space, a, face, face.send[side], axis, send_plane[side], true);
    }
  }

  // Sends the faces packed on `space` and fills `a`'s halo layers along `axis` from the
  // neighbours; returns when they are filled.
  void transfer(const ExecutionSpace& space, const Array& a, int axis) {
    if (peer_) {
      transfer_peer(space, a, axis);
      return;
    }
    Face& face = faces_[axis];
    const auto& neighbour = decomposition_.neighbours[axis];
    const int halo_plane[2] = {0, static_cast<int>(decomposition_.owned[axis]) + layers_[axis]};
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
    std::array<Buffer, 2> remote;          // CUDA IPC: the neighbours' receive buffers
    std::array<Staging, 2> host_send, host_receive;
  };

#if defined(KOKKOS_ENABLE_CUDA)
  static constexpr bool kDeviceArrays = std::is_same<MemorySpace, Kokkos::CudaSpace>::value;
#else
  static constexpr bool kDeviceArrays = false;
#endif

  void share_buffers(const std::array<std::size_t, kAxes>& face_bytes, HaloTransport transport) {
    if (!all_on_one_node(comm_)) {
      if (transport == HaloTransport::automatic) return;
      throw std::runtime_error(
          "himeno: halo_transport cuda_ipc needs every rank on one node; use auto or mpi");
    }
    try {
      peer_ = std::make_unique<PeerFaces>(decomposition_, comm_, face_bytes);
    } catch (const std::runtime_error&) {
      if (transport == HaloTransport::cuda_ipc) throw;
    }
  }

  // The faces along `axis` straight into the neighbours' buffers (peer_faces.hpp's sequence).
  void transfer_peer(const ExecutionSpace& space, const Array& a, int axis) {
    Face& face = faces_[axis];
    const auto& neighbour = decomposition_.neighbours[axis];
    const int halo_plane[2] = {0, static_cast<int>(decomposition_.owned[axis]) + layers_[axis]};
    peer_->wait_until_free(axis);
    for (int side = 0; side < 2; ++side) {
      if (neighbour[side] >= 0) Kokkos::deep_copy(space, face.remote[side], face.send[side]);
    }
    space.fence();
    peer_->swap_arrivals(axis);
    for (int side = 0; side < 2; ++side) {
      if (neighbour[side] >= 0)
        copy_plane(space, a, face, face.receive[side], axis, halo_plane[side], false);
    }
    space.fence();
    peer_->release(axis);
  }

  void copy_plane(const ExecutionSpace& space, const Array& a, const Face& face,
                  const Buffer& buffer, int axis, int plane, bool to_buffer) const {
    Kokkos::parallel_for(
        to_buffer ? "himeno::halo_pack" : "himeno::halo_unpack",
        Kokkos::RangePolicy<ExecutionSpace>(space, 0, buffer.extent(0)),
        PlaneCopy<Array, Buffer>{a, buffer, axis, plane, static_cast<int>(face.lo[0]),
                                 static_cast<int>(face.lo[1]), static_cast<int>(face.extent[0]),
                                 static_cast<int>(face.extent[1]), to_buffer});
  }

  Decomposition decomposition_;
  MPI_Comm comm_;
  bool device_pointers_;
  std::array<int, kAxes> layers_{1, 1, 1};  // the halo's layers along each axis
  // Declared before the faces, so that their views of its buffers go first.
  std::unique_ptr<PeerFaces> peer_;
  std::array<Face, kAxes> faces_;
};

}  // namespace kmini::himeno
