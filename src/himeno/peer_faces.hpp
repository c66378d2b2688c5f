// The halo exchange's faces copied by each rank straight into its neighbours' device buffers
// (CUDA IPC), where the MPI library cannot take device pointers. MPI carries only zero-byte
// messages: "my buffer for your face is free" and "my face has landed in yours".
//
// Every rank holds, per axis and side with a neighbour, a buffer the neighbour on that side
// writes (receive) and the neighbour's buffer this rank writes (remote). One exchange along an
// axis is
//
//   wait_until_free(axis)   the neighbours have unpacked what this rank wrote last time
//   copy send -> remote     on the exchange's execution space instance, then fence it
//   swap_arrivals(axis)     tell the neighbours their faces landed; wait for ours
//   unpack receive          then fence
//   release(axis)           tell the neighbours they may write again
//
// The constructor releases every buffer once and the destructor takes the last releases, so the
// messages pair up. Both are collective over the communicator: every rank builds and destroys
// its PeerFaces together, as the solvers' arrays are.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include <mpi.h>

#include "core/cuda_ipc.hpp"
#include "himeno/grid.hpp"

namespace kmini::himeno {

class PeerFaces {
 public:
  // `face_bytes[axis]`: the size of one face along that axis. Throws std::runtime_error on every
  // rank where any rank cannot allocate or map its buffers, having released what it made.
  PeerFaces(const Decomposition& decomposition, MPI_Comm comm,
            const std::array<std::size_t, kAxes>& face_bytes);
  ~PeerFaces();
  PeerFaces(const PeerFaces&) = delete;
  PeerFaces& operator=(const PeerFaces&) = delete;

  // Where the neighbour on `side` (0 low, 1 high) of `axis` puts its face.
  void* receive(int axis, int side) const { return links_[axis][side].receive->data(); }
  // Where this rank's face towards `side` goes: the neighbour's receive buffer.
  void* remote(int axis, int side) const { return links_[axis][side].remote->data(); }

  void wait_until_free(int axis);
  void swap_arrivals(int axis);
  void release(int axis);

 private:
  struct Link {
    std::unique_ptr<SharedDeviceBuffer> receive;
    std::unique_ptr<MappedDeviceBuffer> remote;
  };

  bool has(int axis, int side) const { return decomposition_.neighbours[axis][side] >= 0; }
  bool splits(int axis) const { return decomposition_.dims[axis] > 1; }
  // Posts one zero-byte message of `kind` to, or from, each neighbour along `axis`.
  void post(int kind, int axis, bool sending, std::vector<MPI_Request>& requests) const;
  // Unmaps, waits for every rank to have unmapped, then frees.
  void tear_down();

  Decomposition decomposition_;
  MPI_Comm comm_;
  std::array<std::array<Link, 2>, kAxes> links_;
  std::array<std::vector<MPI_Request>, kAxes> pending_releases_;
};

}  // namespace kmini::himeno
