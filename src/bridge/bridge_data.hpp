// A bridge's arrays in one memory space: the execution strategy's tables (built once, reused by
// every generation call), the normals and the output; and the kernels that fill the normals and
// pick paths out for checking.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include <Kokkos_Core.hpp>

#include "bridge/bridge_setup.hpp"
#include "bridge/generators.hpp"
#include "bridge/normals.hpp"
#include "bridge/path_layout.hpp"
#include "core/interrupt.hpp"
#include "core/timed_chunks.hpp"
#include "core/timing.hpp"
#include "core/view_of.hpp"

namespace kmini::bridge {

// One generator kind's per-step tables.
template <class T, class Memory>
struct TablesView {
  Kokkos::View<std::uint64_t*, Memory> steps;
  Kokkos::View<Coefficients<T>*, Memory> coefficients;
  Kokkos::View<T* [2], Memory> increment_scales;
};

template <class T, class Memory>
struct BridgeData {
  TablesView<T, Memory> stacked, fused;
  Kokkos::View<T**, Memory> factor;
  Kokkos::View<T*, Memory> x0;
  Kokkos::View<std::uint32_t*, Memory> directions;
  Kokkos::View<T*, Memory> normals, output;
  PathLayout layout;
  bool increments = false;

  BridgeArrays<T, Memory> arrays(bool use_fused) const {
    const TablesView<T, Memory>& tables = use_fused ? fused : stacked;
    BridgeArrays<T, Memory> a;
    a.steps = tables.steps;
    a.coefficients = tables.coefficients;
    a.increment_scales = tables.increment_scales;
    a.factor = factor;
    a.x0 = x0;
    a.normals = normals;
    a.output = output;
    a.layout = layout;
    a.increments = increments;
    return a;
  }

  NormalSource<Memory> source(const BridgeSetup& setup) const {
    return NormalSource<Memory>{setup.sobol, setup.seed, directions};
  }
};

template <class T, class Memory>
TablesView<T, Memory> tables_view(const StepTables& tables) {
  TablesView<T, Memory> view;
  const std::size_t n = tables.steps.size();
  view.steps = view_of<Kokkos::View<std::uint64_t*, Memory>>("bridge::steps", tables.steps);
  std::vector<Coefficients<T>> coefficients(n);
  for (std::size_t k = 0; k < n; ++k)
    coefficients[k] = {T(tables.left_weight[k]), T(tables.right_weight[k]), T(tables.sigma[k]),
                       T(0)};
  view.coefficients =
      view_of<Kokkos::View<Coefficients<T>*, Memory>>("bridge::coefficients", coefficients);
  view.increment_scales = Kokkos::View<T* [2], Memory>("bridge::increment_scales", n);
  auto scales = Kokkos::create_mirror_view(view.increment_scales);
  for (std::size_t k = 0; k < n; ++k) {
    scales(k, 0) = T(tables.scale_at_point[k]);
    scales(k, 1) = T(tables.scale_after_point[k]);
  }
  Kokkos::deep_copy(view.increment_scales, scales);
  return view;
}

// The strategy's tables and x0, C and the Sobol directions in `Memory`; the normals and output
// allocated (not filled).
template <class T, class Memory>
BridgeData<T, Memory> make_bridge_data(const BridgeSetup& setup, const PathLayout& layout,
                                       const std::vector<std::uint32_t>& directions) {
  BridgeData<T, Memory> data;
  data.layout = layout;
  data.increments = setup.increments;
  data.stacked = tables_view<T, Memory>(setup.strategy.stacked);
  data.fused = tables_view<T, Memory>(setup.strategy.fused);
  const int d = setup.model.dim;
  data.factor = Kokkos::View<T**, Memory>("bridge::factor", d, d);
  auto factor = Kokkos::create_mirror_view(data.factor);
  for (int c = 0; c < d; ++c)
    for (int j = 0; j < d; ++j)
      factor(c, j) = T(setup.model.factor[static_cast<std::size_t>(c * d + j)]);
  Kokkos::deep_copy(data.factor, factor);
  std::vector<T> x0(setup.model.x0.begin(), setup.model.x0.end());
  data.x0 = view_of<Kokkos::View<T*, Memory>>("bridge::x0", x0);
  data.directions = view_of<Kokkos::View<std::uint32_t*, Memory>>("bridge::sobol", directions);
  data.normals =
      Kokkos::View<T*, Memory>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bridge::normals"),
                               static_cast<std::size_t>(layout.size()));
  data.output =
      Kokkos::View<T*, Memory>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bridge::output"),
                               static_cast<std::size_t>(layout.size()));
  return data;
}

// Fills the normals, each element from its path's global index and its coordinate, in memory
// order so that the writes coalesce in either layout. In timed chunks, looking for a signal
// between them (seconds on a host at a million paths): it stops, the normals unfinished, once
// one has come, for the caller's safe point to end the variant.
template <class T, class Exec>
void fill_normals(const BridgeData<T, typename Exec::memory_space>& data,
                  const NormalSource<typename Exec::memory_space>& source,
                  std::int64_t first_path) {
  const PathLayout layout = data.layout;
  const auto normals = data.normals;
  constexpr bool on_host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Exec::memory_space>::accessible;
  TimedChunks chunks(std::int64_t{1} << (on_host ? 22 : 26), std::int64_t{1} << 16);
  for (std::int64_t begin = 0; begin < layout.size();) {
    if (interrupt::received() != 0) return;
    const Clock::time_point start = Clock::now();
    const std::int64_t end = std::min(layout.size(), begin + chunks.size());
    Kokkos::parallel_for(
        "bridge::normals", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(begin, end),
        KOKKOS_LAMBDA(const std::int64_t at) {
          std::int64_t path = 0;
          int step = 0, c = 0;
          layout.locate(at, path, step, c);
          normals(at) = T(source(first_path + path, step * layout.dim + c));
        });
    Exec().fence();
    chunks.took(seconds_since(start));
    begin = end;
  }
}

// Copies the normals and output of the paths in `picks` (local indices) into rows of two
// matrices: row i holds path picks(i)'s N d values, normals in construction order, output in
// time order, the components of a point together.
template <class T, class Exec>
void pick_paths(const BridgeData<T, typename Exec::memory_space>& data,
                const Kokkos::View<const std::int64_t*, typename Exec::memory_space>& picks,
                const Kokkos::View<T**, Kokkos::LayoutRight, typename Exec::memory_space>& normals,
                const Kokkos::View<T**, Kokkos::LayoutRight, typename Exec::memory_space>& output) {
  const PathLayout layout = data.layout;
  const auto all_normals = data.normals;
  const auto all_output = data.output;
  const int width = layout.steps * layout.dim;
  Kokkos::parallel_for(
      "bridge::pick_paths",
      Kokkos::MDRangePolicy<Exec, Kokkos::Rank<2>>(
          {0, 0}, {std::int64_t(picks.extent(0)), std::int64_t(width)}),
      KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
        const int step = int(j) / layout.dim, c = int(j) % layout.dim;
        normals(i, j) = all_normals(layout.index(picks(i), step, c));
        output(i, j) = all_output(layout.index(picks(i), step, c));
      });
}

}  // namespace kmini::bridge
