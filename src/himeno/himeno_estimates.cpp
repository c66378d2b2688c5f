#include "himeno/himeno_estimates.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include <Kokkos_Core.hpp>

#include "core/comm.hpp"
#include "core/device.hpp"
#include "core/precision.hpp"
#include "himeno/device_mpi.hpp"
#include "himeno/fields.hpp"
#include "himeno/grid.hpp"
#include "himeno/himeno_params.hpp"
#include "himeno/sweep_launch.hpp"

namespace kmini::himeno {

namespace {

constexpr std::int64_t kRehearsalIterations = 3;

// Arrays of the working precision moved per interior point and launch (the byte model): the
// sweep reads the 12 coefficient arrays and p and writes wrk2 (p's 19 points count once: its
// neighbours come from cache); the copy-back reads wrk2 and writes p. A temporal pass moves the
// same arrays once for all its iterations: the later iterations read the coefficients from the
// cache and p from team scratch, and the teams' overlapping edges from the cache
// (docs/performance-notes.md has Nsight Compute's DRAM bytes against this).
double arrays_per_point(bool swap) {
  return swap ? 14.0 : 16.0;
}

}  // namespace

std::int64_t rehearsal_iterations(int steps) {
  return (kRehearsalIterations + steps - 1) / steps * steps;
}

Counts sweep_counts(double owned_points, std::int64_t iterations, int steps, bool swap,
                    std::size_t element_bytes) {
  const double points = owned_points * static_cast<double>(iterations);
  const double launches = static_cast<double>(iterations / steps + iterations % steps);
  return Counts{
      owned_points * launches * arrays_per_point(swap) * static_cast<double>(element_bytes),
      34.0 * points, points};
}

double device_bytes(const Params& params, const Comm& comm) {
  check_team_scratch(params);
  const GlobalGrid grid = grid_of(params);
  const Extents dims = dims_of(params, grid, comm.size());
  if (params.boolean("gpu_aware_mpi") && comm.size() > 1) {
    const std::string why = device_pointers_unsupported();
    if (!why.empty()) params.reject("gpu_aware_mpi", why);
  }
  check_halo_transport(params, comm.size());
  const Decomposition d = decompose(grid, dims, comm.rank());
  if (!params.selects_any([](const VariantSpec& v) { return v.traits.side == Side::device; }))
    return 0.0;
  const Extents local = d.local_dims();
  const bool single = element_bytes(params) == sizeof(float);
  const int halo_i = halo_layers(sweep_of(params), dims);
  double bytes = single ? Fields<float, Kokkos::HostSpace>::bytes(local, halo_i)
                        : Fields<double, Kokkos::HostSpace>::bytes(local, halo_i);
  const double element = static_cast<double>(element_bytes(params));
  if (params.selects_any([](const VariantSpec& v) { return v.traits.needs_buffer; })) {
    // A block of terms per iteration of a launch.
    bytes += element * d.owned_points() * sweep_of(params).steps();
  }
  return bytes;
}

double host_bytes(const Params& params, const Comm& comm) {
  if (!params.selects_any([](const VariantSpec& v) { return v.traits.side == Side::host; }))
    return 0.0;
  const GlobalGrid grid = grid_of(params);
  const Extents local =
      decompose(grid, dims_of(params, grid, comm.size()), comm.rank()).local_dims();
  const double fields = element_bytes(params) == sizeof(float)
                            ? Fields<float, Kokkos::HostSpace>::bytes(local)
                            : Fields<double, Kokkos::HostSpace>::bytes(local);
  if (!device_memory_is_host()) return fields;
  return std::max(0.0, fields - device_bytes(params, comm));
}

WorkEstimate estimate_work(const Params& params, const Comm& comm, const VariantSpec& variant) {
  // The cpu variants run the original's loops, whatever the sweep.
  const int steps = variant.traits.side == Side::host ? 1 : sweep_of(params).steps();
  if (!params.has("iterations")) {
    return WorkEstimate{std::nullopt, "iterations are chosen at run time to fill target_seconds=" +
                                          format_value(params.value("target_seconds")) +
                                          " s per repetition, after " +
                                          std::to_string(rehearsal_iterations(steps)) +
                                          " rehearsal iterations"};
  }
  const GlobalGrid grid = grid_of(params);
  const Decomposition d = decompose(grid, dims_of(params, grid, comm.size()), comm.rank());
  return WorkEstimate{sweep_counts(d.owned_points(), params.integer("iterations"), steps,
                                   swaps(params), element_bytes(params)),
                      ""};
}

}  // namespace kmini::himeno
