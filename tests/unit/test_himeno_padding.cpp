// The himeno arrays' padded rows (src/himeno/padded_array.hpp): every row's first owned point on
// a cache-line boundary, room for the packed sweep's reads past a row's end, and windows whose
// planes a contiguous copy moves element for element between arrays the allocator aligned
// differently.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>

#include <Kokkos_Core.hpp>

#include "himeno/padded_array.hpp"

namespace kmini::himeno {
namespace {

template <class T>
void expect_rows_have_room(std::int64_t points) {
  SCOPED_TRACE("points " + std::to_string(points) + ", element " + std::to_string(sizeof(T)));
  const auto unit = static_cast<std::int64_t>(kRowAlignment / sizeof(T));
  const auto pack = static_cast<std::int64_t>(kPackBytes / sizeof(T));
  const std::int64_t row = padded_row(points, sizeof(T));
  EXPECT_EQ(row % unit, 0);
  // The largest shift, then the last pack (starting at most at points - 2) and the point after.
  const std::int64_t last_read = (unit - 1) + (points - 2) + pack;
  EXPECT_LT(last_read, row);
  EXPECT_LT(row - unit, last_read + 1 + unit);  // no more than one unit of slack
}

TEST(HimenoPadding, RowsHoldTheShiftAndThePackedSweepsLastReads) {
  for (std::int64_t points : {5, 6, 7, 8, 9, 31, 32, 33, 65, 129, 257, 513, 1025}) {
    expect_rows_have_room<float>(points);
    expect_rows_have_room<double>(points);
  }
  EXPECT_EQ(padded_row(513, sizeof(float)), 576);  // size L's rows
  EXPECT_EQ(padded_row(1025, sizeof(float)), 1088);
}

TEST(HimenoPadding, TheShiftPutsTheFirstOwnedPointOnALine) {
  alignas(kRowAlignment) static double buffer[64];
  for (int offset = 0; offset < 32; ++offset) {
    const double* data = buffer + offset;
    const std::int64_t shift = aligning_shift(data);
    EXPECT_GE(shift, 0);
    EXPECT_LT(shift, static_cast<std::int64_t>(kRowAlignment / sizeof(double)));
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(data + shift + 1) % kRowAlignment, 0u) << offset;
  }
}

using Array = PaddedArray<float***, Kokkos::HostSpace>;

float value_at(int i, int j, int k) {
  return static_cast<float>(1 + i * 10000 + j * 100 + k);
}

TEST(HimenoPadding, WindowsAreAlignedAndCopiesLineUp) {
  // Several arrays, so that the allocator is likely to align some of them differently.
  Array arrays[5] = {Array("a", 7, 6, 45), Array("b", 7, 6, 45), Array("c", 7, 6, 45),
                     Array("d", 7, 6, 45), Array("e", 7, 6, 45)};
  for (const Array& a : arrays) {
    EXPECT_TRUE(rows_aligned(a.view, kRowAlignment));
    EXPECT_EQ(a.view.extent(0), 7u);
    EXPECT_EQ(a.view.extent(1), 6u);
    EXPECT_EQ(a.view.extent(2), 45u);
    EXPECT_EQ(a.storage.extent(2), 96u);
  }
  for (int from = 0; from < 5; ++from)
    for (int to = 0; to < 5; ++to) {
      if (from == to) continue;
      for (int i = 0; i < 7; ++i)
        for (int j = 0; j < 6; ++j)
          for (int k = 0; k < 45; ++k) {
            arrays[from].view(i, j, k) = value_at(i, j, k) + static_cast<float>(from);
            arrays[to].view(i, j, k) = -1.0f;
          }
      // All planes but the first and the last.
      Kokkos::deep_copy(arrays[to].planes_span(1, 5), arrays[from].planes_span(1, 5));
      int wrong = 0;
      for (int i = 0; i < 7; ++i)
        for (int j = 0; j < 6; ++j)
          for (int k = 0; k < 45; ++k) {
            const float copied = value_at(i, j, k) + static_cast<float>(from);
            wrong += arrays[to].view(i, j, k) != (i >= 1 && i <= 5 ? copied : -1.0f);
          }
      EXPECT_EQ(wrong, 0) << from << " -> " << to;
      Kokkos::deep_copy(arrays[to].planes_span(0, 6), arrays[from].planes_span(0, 6));
      wrong = 0;
      for (int i = 0; i < 7; ++i)
        for (int j = 0; j < 6; ++j)
          for (int k = 0; k < 45; ++k)
            wrong += arrays[to].view(i, j, k) != value_at(i, j, k) + static_cast<float>(from);
      EXPECT_EQ(wrong, 0) << from << " -> " << to;
      // The padding stays zero: the span carries only the windows and zero padding.
      for (std::size_t e = 0; e < arrays[to].storage.span(); ++e) {
        const float* element = arrays[to].storage.data() + e;
        const std::ptrdiff_t offset = element - arrays[to].view.data();
        const bool in_window = offset >= 0 && offset % 96 < 45;
        if (!in_window) {
          EXPECT_EQ(*element, 0.0f) << e;
        }
      }
    }
}

}  // namespace
}  // namespace kmini::himeno
