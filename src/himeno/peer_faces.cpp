#include "himeno/peer_faces.hpp"

#include <stdexcept>
#include <string>

namespace kmini::himeno {

namespace {

// Message kinds, each with its own tags (after the faces' own 0 .. 5 of the MPI transport): a
// message travelling towards the low side along `axis` carries base + 2 axis, towards the high
// side base + 2 axis + 1.
constexpr int kHandle = 64, kArrived = 72, kFree = 80;

int tag_to(int kind, int axis, int side) {
  return kind + 2 * axis + (side == 0 ? 0 : 1);
}
int tag_from(int kind, int axis, int side) {
  return kind + 2 * axis + (side == 0 ? 1 : 0);
}

char token;  // the zero-byte messages' buffer, never read or written

}  // namespace

PeerFaces::PeerFaces(const Decomposition& decomposition, MPI_Comm comm,
                     const std::array<std::size_t, kAxes>& face_bytes)
    : decomposition_(decomposition), comm_(comm) {
  std::string failure;
  try {
    for (int axis = 0; axis < kAxes; ++axis) {
      for (int side = 0; side < 2; ++side) {
        if (has(axis, side))
          links_[axis][side].receive = std::make_unique<SharedDeviceBuffer>(face_bytes[axis]);
      }
    }
  } catch (const std::exception& e) {
    failure = e.what();
  }
  // Every neighbour gets the handle of the buffer it writes, a blank one where allocation failed
  // (so that the messages still pair up; the failure is shared below before anything is mapped).
  std::array<std::array<IpcHandle, 2>, kAxes> mine{}, theirs{};
  std::vector<MPI_Request> requests;
  for (int axis = 0; axis < kAxes; ++axis) {
    for (int side = 0; side < 2; ++side) {
      if (!has(axis, side)) continue;
      const int neighbour = decomposition_.neighbours[axis][side];
      if (failure.empty()) mine[axis][side] = links_[axis][side].receive->handle();
      requests.emplace_back();
      MPI_Irecv(theirs[axis][side].bytes.data(), static_cast<int>(IpcHandle{}.bytes.size()),
                MPI_BYTE, neighbour, tag_from(kHandle, axis, side), comm_, &requests.back());
      requests.emplace_back();
      MPI_Isend(mine[axis][side].bytes.data(), static_cast<int>(IpcHandle{}.bytes.size()), MPI_BYTE,
                neighbour, tag_to(kHandle, axis, side), comm_, &requests.back());
    }
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  int ok = failure.empty() ? 1 : 0, all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm_);
  if (all_ok == 1) {
    try {
      for (int axis = 0; axis < kAxes; ++axis) {
        for (int side = 0; side < 2; ++side) {
          if (has(axis, side))
            links_[axis][side].remote = std::make_unique<MappedDeviceBuffer>(theirs[axis][side]);
        }
      }
    } catch (const std::exception& e) {
      failure = e.what();
    }
    ok = failure.empty() ? 1 : 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm_);
  }
  if (all_ok != 1) {
    tear_down();
    throw std::runtime_error(failure.empty()
                                 ? "himeno: another rank could not share its halo buffers over "
                                   "CUDA IPC"
                                 : failure);
  }
  for (int axis = 0; axis < kAxes; ++axis) {
    if (splits(axis)) release(axis);
  }
}

PeerFaces::~PeerFaces() {
  for (int axis = 0; axis < kAxes; ++axis) {
    if (splits(axis)) wait_until_free(axis);
  }
  tear_down();
}

void PeerFaces::post(int kind, int axis, bool sending, std::vector<MPI_Request>& requests) const {
  for (int side = 0; side < 2; ++side) {
    if (!has(axis, side)) continue;
    const int neighbour = decomposition_.neighbours[axis][side];
    requests.emplace_back();
    if (sending) {
      MPI_Isend(&token, 0, MPI_BYTE, neighbour, tag_to(kind, axis, side), comm_, &requests.back());
    } else {
      MPI_Irecv(&token, 0, MPI_BYTE, neighbour, tag_from(kind, axis, side), comm_,
                &requests.back());
    }
  }
}

void PeerFaces::wait_until_free(int axis) {
  // This rank's own releases complete with the neighbours' releases, never before theirs are
  // posted: waiting on them alone could wait for a neighbour that waits here too.
  std::vector<MPI_Request> requests = std::move(pending_releases_[axis]);
  pending_releases_[axis].clear();
  post(kFree, axis, false, requests);
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
}

void PeerFaces::swap_arrivals(int axis) {
  std::vector<MPI_Request> requests;
  post(kArrived, axis, false, requests);
  post(kArrived, axis, true, requests);
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
}

void PeerFaces::release(int axis) {
  post(kFree, axis, true, pending_releases_[axis]);
}

void PeerFaces::tear_down() {
  for (auto& axis : links_) {
    for (auto& link : axis)
      link.remote.reset();
  }
  // A buffer is freed only once no neighbour maps it.
  MPI_Barrier(comm_);
  for (auto& axis : links_) {
    for (auto& link : axis)
      link.receive.reset();
  }
}

}  // namespace kmini::himeno
