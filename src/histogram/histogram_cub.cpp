#include "histogram/histogram_cub.hpp"

#include <climits>
#include <stdexcept>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cub/device/device_histogram.cuh>
#endif

#include "core/error.hpp"

namespace kmini::histogram {

namespace {

#if defined(KOKKOS_ENABLE_CUDA)
// B equal bins of [0, 1) are B + 1 levels from 0 to 1; CUB's bin for x is (x - 0) * B / (1 - 0),
// truncated: the same as bin_of in histogram_kernels.hpp.
cudaError_t histogram_even(void* temporary, std::size_t& temporary_bytes, const double* samples,
                           int* histogram, int bins, std::int64_t count) {
  return cub::DeviceHistogram::HistogramEven(temporary, temporary_bytes, samples, histogram,
                                             bins + 1, 0.0, 1.0, count,
                                             Kokkos::Cuda().cuda_stream());
}

void check(cudaError_t code, const char* what) {
  if (code != cudaSuccess) {
    throw RuntimeFailure(std::string("CUB ") + what + ": " + cudaGetErrorString(code));
  }
}
#endif

}  // namespace

std::string cub_unsupported_reason(std::int64_t samples, std::int64_t bins, bool integer_bins) {
#if defined(KOKKOS_ENABLE_CUDA)
  if (!std::is_same<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>::value) {
    return "the default execution space is not Cuda";
  }
  if (!integer_bins) return "CUB's DeviceHistogram counts in integer types only";
  if (bins >= INT_MAX) return "CUB takes the number of levels (bins + 1) as an int";
  // CUB keeps one private histogram per thread block in its temporary storage and indexes it
  // with 32-bit offsets: past 2^31 counters it writes out of bounds (docs/performance-notes.md,
  // histogram: CUB).
  std::size_t bytes = 0;
  check(histogram_even(nullptr, bytes, nullptr, nullptr, static_cast<int>(bins), samples),
        "temporary storage query");
  if (bytes / sizeof(int) >= static_cast<std::size_t>(INT_MAX)) {
    return "CUB's per-block histograms (" + std::to_string(bytes >> 20) +
           " MiB) overflow its 32-bit offsets";
  }
  return "";
#else
  (void)samples;
  (void)bins;
  (void)integer_bins;
  return "CUB needs a CUDA build";
#endif
}

CubHistogram::CubHistogram(Kokkos::View<const double*> samples, Kokkos::View<int*> histogram)
    : samples_(samples), histogram_(histogram) {
#if defined(KOKKOS_ENABLE_CUDA)
  std::size_t bytes = 0;
  check(histogram_even(nullptr, bytes, samples_.data(), histogram_.data(),
                       static_cast<int>(histogram_.extent(0)),
                       static_cast<std::int64_t>(samples_.extent(0))),
        "temporary storage query");
  temporary_ = Kokkos::View<char*>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "histogram::cub_temporary"),
      bytes > 0 ? bytes : 1);
#else
  throw std::logic_error("CubHistogram in a build without CUDA");
#endif
}

void CubHistogram::run() {
#if defined(KOKKOS_ENABLE_CUDA)
  std::size_t bytes = temporary_.extent(0);
  check(histogram_even(temporary_.data(), bytes, samples_.data(), histogram_.data(),
                       static_cast<int>(histogram_.extent(0)),
                       static_cast<std::int64_t>(samples_.extent(0))),
        "HistogramEven");
#endif
}

}  // namespace kmini::histogram
