// CUB's DeviceHistogram::HistogramEven, what a CUDA programmer would use for this histogram, as a
// comparison point. Only CUDA builds have it.
#pragma once

#include <cstdint>
#include <string>

#include <Kokkos_Core.hpp>

namespace kmini::histogram {

// Why CUB cannot make this histogram here, or empty when it can.
std::string cub_unsupported_reason(std::int64_t samples, std::int64_t bins, bool integer_bins);

// Owns CUB's temporary storage for one (samples, bins) shape.
class CubHistogram {
 public:
  CubHistogram(Kokkos::View<const double*> samples, Kokkos::View<int*> histogram);
  // Zeroes and fills the histogram: CUB writes every bin itself.
  void run();

 private:
  Kokkos::View<const double*> samples_;
  Kokkos::View<int*> histogram_;
  Kokkos::View<char*> temporary_;
};

}  // namespace kmini::histogram
