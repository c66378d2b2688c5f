// One point of the histogram app: N samples on the device, counted serially as the reference,
// and each variant's way of adding them into B bins (its row of the variant table and its launch,
// in histogram_case.cpp), validated bin for bin against that count. Bins are int or double.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>

#include "core/app.hpp"
#include "core/device.hpp"
#include "core/host_backends.hpp"
#include "core/variant.hpp"
#include "histogram/histogram_cub.hpp"
#include "histogram/histogram_kernels.hpp"

namespace kmini::histogram {

template <class Bin>
class HistogramCase;

// How a variant adds the samples into bins. Every variant makes the same histogram; they differ
// in how the additions reach memory.
template <class Bin>
struct HistogramMethod {
  void (HistogramCase<Bin>::*run)();
  std::string (HistogramCase<Bin>::*not_applicable)() const = nullptr;  // nullptr: always runs
  // ScatterView's: on host backends it keeps a copy of the bins per thread.
  bool copies_per_thread = false;
};

// One repetition: every sample read once, every bin written once.
inline Counts histogram_counts(double samples, double bins, std::size_t bin_bytes) {
  return Counts{samples * sizeof(double) + bins * static_cast<double>(bin_bytes), 0.0, samples};
}

template <class Bin>
class HistogramCase final : public Case {
 public:
  HistogramCase(const Params& params, const RunContext& context);

  static const VariantTable<HistogramMethod<Bin>>& table();

  std::string not_applicable(const VariantSpec& variant) const override {
    const auto check = table().action(variant).not_applicable;
    return check == nullptr ? "" : (this->*check)();
  }
  void prepare(const VariantSpec& variant) override;
  Counts run(const VariantSpec& variant) override {
    (this->*table().action(variant).run)();
    return histogram_counts(static_cast<double>(samples_.extent(0)), static_cast<double>(bins_),
                            sizeof(Bin));
  }
  Validation validate(const VariantSpec& variant) override;
  // auto says which way it went.
  std::vector<Metric> metrics(const VariantSpec& variant) const override {
    if (!variant.traits.meta) return {};
    return {Metric{"auto_chose_privatized", privatized_not_applicable().empty() ? 1.0 : 0.0, ""}};
  }

 private:
  template <class Method>
  void run_atomic_per_sample();
  void run_block_shared();
  void run_scatter_view();
  void run_privatized();
  void run_cub();
  template <HostBackend Backend>
  void run_on_host();
  void run_auto();

  std::string privatized_not_applicable() const;
  std::string cub_not_applicable() const;

  void generate_samples(const Params& params, const RunContext& context);
  Kokkos::TeamPolicy<> team_policy(Index league, int requested, std::size_t scratch_bytes) const;
  Kokkos::TeamPolicy<> privatized_policy() const;
  // Zeroes the device histogram without a fence, so the kernel that follows launches at once.
  void zero_bins() { Kokkos::deep_copy(Kokkos::DefaultExecutionSpace(), histogram_, Bin(0)); }
  Index team_size_for_scratch(int requested, std::size_t per_team_bytes) const;

  const DeviceInfo& device_;
  Index bins_;
  int team_size_;             // block_shared's
  int privatized_team_size_;  // privatized's
  Kokkos::View<double*> samples_;
  Kokkos::View<Bin*> histogram_;
  Kokkos::View<double*>::host_mirror_type host_samples_;
  Kokkos::View<Bin*, Kokkos::HostSpace> host_histogram_;
  // A serial count of the same samples, in the bin type: int bins take at most 2^31 - 1 samples
  // (see check), double bins count exactly to 2^53.
  std::vector<Bin> reference_;
  std::optional<Kokkos::Experimental::ScatterView<Bin*>> scatter_;
  std::unique_ptr<CubHistogram> cub_;
  // privatized's launch, worked out once in prepare: the queries behind it cost the host
  // microseconds, which a 10^7-sample histogram's timing would see.
  std::optional<Kokkos::TeamPolicy<>> privatized_policy_;
};

// Made, with every member, in histogram_case.cpp.
extern template class HistogramCase<int>;
extern template class HistogramCase<double>;

}  // namespace kmini::histogram
