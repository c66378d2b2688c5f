// The layout of a rank's arrays: rows of k padded so that every row's first owned point (k = 1)
// starts on a 128-byte boundary. A warp's loads along a row then cover whole cache lines (with
// the original's 513 or 1025 points a row, each straddles one more line), and the packed sweep
// reads 16 bytes of consecutive points with one vector load.
//
// An array is a padded LayoutRight allocation (`storage`) and a LayoutStride window over it
// (`view`), indexed like the unpadded array; the copy-back copies the window's contiguous span
// with one device copy. Each row's storage has room after the row for the packed sweep's reads past
// its end (a pack that straddles the last point, and the point after that pack), so no read leaves
// its row. The padding is zero and nothing writes it: the window's writes stay in the window, and
// the copy-back copies zeros onto zeros.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include <Kokkos_Core.hpp>

namespace kmini::himeno {

constexpr std::size_t kRowAlignment = 128;  // bytes: a cache line
constexpr std::size_t kPackBytes = 16;      // the widest vector load

// Storage elements per row for rows of `points` elements of `element` bytes. The window starts
// up to one alignment unit less one element into the row; the packed sweep's last pack starts at
// k = points - 2 at most and reads up to k + pack (the point after it). (Rows one unit shorter,
// with the sweep's read after the last point moved inside the row, cost the packed sweep more than
// the shorter copy-back saved: docs/performance-notes.md, himeno.)
inline std::int64_t padded_row(std::int64_t points, std::size_t element) {
  const auto unit = static_cast<std::int64_t>(kRowAlignment / element);
  const auto pack = static_cast<std::int64_t>(kPackBytes / element);
  const std::int64_t needed = (unit - 1) + (points - 2) + pack + 1;
  return (needed + unit - 1) / unit * unit;
}

// The storage index of k = 0 that puts k = 1 on an alignment boundary, for rows starting at
// `data` (every row does: a row is a whole number of alignment units).
template <class T>
std::int64_t aligning_shift(const T* data) {
  const auto unit = static_cast<std::int64_t>(kRowAlignment / sizeof(T));
  const auto misaligned = static_cast<std::int64_t>(
      (reinterpret_cast<std::uintptr_t>(data) % kRowAlignment) / sizeof(T));
  return ((unit - 1 - misaligned) % unit + unit) % unit;
}

// DataType is T*** (p, wrk2: i, j, k) or T**** (the coefficients: c, i, j, k).
template <class DataType, class MemorySpace>
struct PaddedArray {
  using Storage = Kokkos::View<DataType, Kokkos::LayoutRight, MemorySpace>;
  using Window = Kokkos::View<DataType, Kokkos::LayoutStride, MemorySpace>;
  using T = typename Storage::value_type;

  Storage storage;
  Window view;

  PaddedArray() = default;
  PaddedArray(const std::string& label, std::int64_t n0, std::int64_t n1, std::int64_t points)
      : storage(label, n0, n1, padded_row(points, sizeof(T))),
        view(Kokkos::subview(storage, Kokkos::ALL, Kokkos::ALL, window(points))) {}
  PaddedArray(const std::string& label, std::int64_t n0, std::int64_t n1, std::int64_t n2,
              std::int64_t points)
      : storage(label, n0, n1, n2, padded_row(points, sizeof(T))),
        view(Kokkos::subview(storage, Kokkos::ALL, Kokkos::ALL, Kokkos::ALL, window(points))) {}

  // The window's planes `first` to `last` along the first axis (rank 3: i), with the padding among
  // them, as one contiguous span from (first, 0, 0) to the last plane's last point. Two arrays of
  // the same extents line up element for element in theirs, whatever their shifts (the allocator
  // aligns each array differently), so the copy-back copies these.
  using Span = Kokkos::View<T*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Span planes_span(std::int64_t first, std::int64_t last) const {
    static_assert(Window::rank == 3, "planes of a rank-3 array");
    // Pointer arithmetic, not view(...): the host may not touch device memory, even for an address.
    const auto offset = [&](std::int64_t i, std::int64_t j, std::int64_t k) {
      return i * static_cast<std::int64_t>(view.stride(0)) +
             j * static_cast<std::int64_t>(view.stride(1)) +
             k * static_cast<std::int64_t>(view.stride(2));
    };
    const std::int64_t begin = offset(first, 0, 0);
    const std::int64_t end = offset(last, static_cast<std::int64_t>(view.extent(1)) - 1,
                                    static_cast<std::int64_t>(view.extent(2)) - 1) +
                             1;
    return Span(view.data() + begin, static_cast<std::size_t>(end - begin));
  }

  // The window's values as an unpadded host array (p: rank 3). A copy between memory spaces must
  // be contiguous, so the storage crosses whole and the window is copied out on the host.
  Kokkos::View<DataType, Kokkos::LayoutRight, Kokkos::HostSpace> window_on_host(
      const std::string& label) const {
    const auto host_storage = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), storage);
    const std::int64_t shift = view.data() - storage.data();
    const auto points = static_cast<std::int64_t>(view.extent(2));
    Kokkos::View<DataType, Kokkos::LayoutRight, Kokkos::HostSpace> host(
        label, view.extent(0), view.extent(1), view.extent(2));
    Kokkos::deep_copy(host, Kokkos::subview(host_storage, Kokkos::ALL, Kokkos::ALL,
                                            std::make_pair(shift, shift + points)));
    return host;
  }

  static double bytes(double rows, std::int64_t points) {
    return rows * static_cast<double>(padded_row(points, sizeof(T))) * sizeof(T);
  }

 private:
  std::pair<std::int64_t, std::int64_t> window(std::int64_t points) const {
    const std::int64_t shift = aligning_shift(storage.data());
    return {shift, shift + points};
  }
};

// Whether `view`'s rows start (at index 1 of the last extent) on a `bytes` boundary and step by
// a multiple of it: what the packed sweep's vector loads need.
template <class View>
bool rows_aligned(const View& view, std::size_t bytes) {
  using T = typename View::value_type;
  constexpr auto rank = View::rank;
  const T* first = view.data() + view.stride(rank - 1);  // index 1 of the last extent
  for (unsigned axis = 0; axis + 1 < rank; ++axis) {
    if (view.stride(axis) * sizeof(T) % bytes != 0) return false;
  }
  return reinterpret_cast<std::uintptr_t>(first) % bytes == 0 && view.stride(rank - 1) == 1;
}

}  // namespace kmini::himeno
