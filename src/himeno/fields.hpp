// A rank's arrays: the twelve coefficient arrays in one allocation, the pressure p and the sweep's
// output wrk2, each over the rank's block plus one layer (see grid.hpp), or along i `halo_i`
// layers: a temporal pass of T iterations on ranks split along i updates T - 1 of its neighbours'
// planes on each side as well, and reads the T-th (temporal_sweep.hpp). Local index halo_i along
// i is then the first owned plane. k is the contiguous index, as in the original's C arrays; its
// rows are padded and aligned (padded_array.hpp), and the kernels index the arrays' windows.
#pragma once

#include <algorithm>
#include <cstdint>

#include <Kokkos_Core.hpp>

#include "core/interrupt.hpp"
#include "himeno/grid.hpp"
#include "himeno/initial_state.hpp"
#include "himeno/padded_array.hpp"

namespace kmini::himeno {

template <class T, class MemorySpace>
struct Fields {
  using Padded = PaddedArray<T***, MemorySpace>;
  using Array = typename Padded::Window;
  using Coefficients = typename PaddedArray<T****, MemorySpace>::Window;

  int halo_i;                            // layers along i on each side
  PaddedArray<T****, MemorySpace> coef;  // (coefficient, i, j, k)
  Padded p;
  Padded wrk2;

  // `local`: the rank's block plus one layer (Decomposition::local_dims()).
  explicit Fields(const Extents& local, int halo_i_ = 1)
      : halo_i(halo_i_),
        coef("himeno::coefficients", kCoefficients, planes(local, halo_i_), local[1], local[2]),
        p("himeno::p", planes(local, halo_i_), local[1], local[2]),
        wrk2("himeno::wrk2", planes(local, halo_i_), local[1], local[2]) {}

  static double bytes(const Extents& local, int halo_i = 1) {
    return Padded::bytes((kCoefficients + 2.0) * static_cast<double>(planes(local, halo_i)) *
                             static_cast<double>(local[1]),
                         local[2]);
  }

 private:
  static std::int64_t planes(const Extents& local, int halo_i) {
    return local[0] + 2 * (halo_i - 1);
  }
};

// Fills every array of a rank's block from InitialValues at the global point each local index
// stands for. wrk2 starts as a copy of p, boundary included: the original starts it at 0, which
// the copy-back never reads, but the pointer swap reads wrk2's boundary as p's next time.
template <class T, class ExecutionSpace>
struct InitializeFields {
  using MemorySpace = typename ExecutionSpace::memory_space;
  Fields<T, MemorySpace> fields;
  InitialValues values;
  std::int64_t origin_i, origin_j, origin_k;  // global index of local index 0, per axis
  bool coefficients;                          // false: p and wrk2 only

  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const std::int64_t gi = origin_i + i, gj = origin_j + j, gk = origin_k + k;
    if (coefficients) {
      for (int c = 0; c < kCoefficients; ++c)
        fields.coef.view(c, i, j, k) = values.coefficient<T>(c, gi, gj, gk);
    }
    const T p = values.pressure<T>(gi, gj, gk);
    fields.p.view(i, j, k) = p;
    fields.wrk2.view(i, j, k) = p;
  }

  // In slabs of whole planes of about `points_per_launch` points, a signal looked for between
  // them (interrupt::received()): the fill of size L in one launch held a signal 3.7-7 s on two
  // host cores. A signal leaves the slabs after it as they were, for the caller's safe point.
  static void run(const Fields<T, MemorySpace>& fields, const InitialValues& values,
                  const Extents& origin, bool coefficients,
                  std::int64_t points_per_launch = interrupt::kItemsBetweenSignalChecks) {
    using Policy = Kokkos::MDRangePolicy<ExecutionSpace, Kokkos::Rank<3>>;
    const auto& p = fields.p.view;
    const auto planes = static_cast<std::int64_t>(p.extent(0));
    const auto rows = static_cast<std::int64_t>(p.extent(1));
    const auto row = static_cast<std::int64_t>(p.extent(2));
    const std::int64_t slab =
        std::max<std::int64_t>(1, points_per_launch / std::max<std::int64_t>(1, rows * row));
    const InitializeFields fill{fields, values, origin[0], origin[1], origin[2], coefficients};
    interrupt::for_each_slice_until_signal(planes, slab, [&](std::int64_t first, std::int64_t end) {
      Kokkos::parallel_for(coefficients ? "himeno::initialize" : "himeno::reset_pressure",
                           Policy({first, 0, 0}, {end, rows, row}), fill);
    });
  }
};

}  // namespace kmini::himeno
