// What a point of the himeno app costs, worked out from its parameters before anything runs: the
// bytes and flops of its iterations (the byte model), the iterations it rehearses, and the device
// and host memory a rank needs.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/app.hpp"
#include "core/params.hpp"

namespace kmini::himeno {

// The rehearsal runs whole passes of a temporal sweep: validate: first checks the gosa of each of
// the last launch's iterations, and a rehearsal that ended with single sweeps (3 iterations at
// T = 2) would check none of a pass's.
std::int64_t rehearsal_iterations(int steps);

// `iterations` iterations over this rank's `owned_points` interior points, 34 flop each, in
// launches of `steps` iterations and single sweeps for the rest.
Counts sweep_counts(double owned_points, std::int64_t iterations, int steps, bool swap,
                    std::size_t element_bytes);

// A rank's device memory for a point: its arrays (the halo's layers included) and, where a
// buffered variant is selected, a block of terms per iteration of a launch. Before it counts, it
// rejects what only the device and the job can judge (team scratch, GPU-aware MPI, CUDA IPC).
double device_bytes(const Params& params, const Comm& comm);

// The cpu variants' arrays, on the host. One variant's arrays are held at a time, so where the
// device's memory is the host's they need only what exceeds the device variants' (device_bytes).
double host_bytes(const Params& params, const Comm& comm);

// A fixed iteration count is known beforehand; the original's measurement mode decides it from
// the rehearsal's time.
WorkEstimate estimate_work(const Params& params, const Comm& comm, const VariantSpec& variant);

}  // namespace kmini::himeno
