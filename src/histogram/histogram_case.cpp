#include "histogram/histogram_case.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include <Kokkos_Random.hpp>
#include <Kokkos_ScatterView.hpp>

#include "core/comm.hpp"
#include "core/host_backends.hpp"
#include "core/host_copy.hpp"
#include "core/interrupt.hpp"
#include "histogram/histogram_cub.hpp"
#include "histogram/histogram_kernels.hpp"
#include "histogram/histogram_params.hpp"
#include "reducers/atomics.hpp"

namespace kmini::histogram {

namespace {

constexpr int kSamplesPerThread = 16;  // per team thread, for the team-based variants

// How many teams of `threads`, each with `scratch` bytes, the device holds at once: privatized
// launches one wave, since every team zeroes and merges all its bins.
Index teams_in_one_wave(const DeviceInfo& device, Index threads, std::size_t scratch) {
  Index teams = std::max<Index>(1, Kokkos::DefaultExecutionSpace().concurrency() / threads);
  if (device.multiprocessors > 0) {
    // Each block's shared memory also holds about 1 KiB the runtime reserves.
    const Index sms = device.multiprocessors;
    const Index by_scratch = sms * static_cast<Index>(device.shared_bytes_per_multiprocessor /
                                                      static_cast<double>(scratch + 1024));
    teams = std::min(teams, std::max<Index>(sms, by_scratch));
  }
  return teams;
}

}  // namespace

template <class Bin>
const VariantTable<HistogramMethod<Bin>>& HistogramCase<Bin>::table() {
  using C = HistogramCase<Bin>;
  static const VariantTable<HistogramMethod<Bin>> rows{
      {"plain_atomic",
       "one Kokkos::atomic_add per sample",
       1.0,
       on_device().as_baseline(),
       {&C::template run_atomic_per_sample<reducers::PlainAtomic>}},
      {"warp_match",
       "warp-aggregated: lanes grouped by __match_any_sync",
       1.0,
       on_device(),
       {&C::template run_atomic_per_sample<reducers::WarpMatchAtomic>}},
      {"warp_ballot",
       "warp-aggregated: the seed's Fig. 5 ballot/shuffle loop",
       1.0,
       on_device(),
       {&C::template run_atomic_per_sample<reducers::WarpBallotAtomic>}},
      {"block_shared",
       "team-aggregated through scratch memory (the seed's Fig. 4)",
       1.0,
       on_device(),
       {&C::run_block_shared}},
      {"scatter_view",
       "Kokkos ScatterView (atomic on GPUs, duplicated on hosts)",
       1.0,
       on_device(),
       {&C::run_scatter_view, nullptr, true}},
      {"privatized",
       "per-team sub-histograms in scratch memory, then merged",
       1.0,
       on_device(),
       {&C::run_privatized, &C::privatized_not_applicable}},
      {"cub",
       "CUB DeviceHistogram::HistogramEven",
       1.0,
       on_device(),
       {&C::run_cub, &C::cub_not_applicable}},
      {"host_serial",
       "the host, one thread, no atomics",
       1.0,
       on_host().needing(HostBackend::serial),
       {&C::template run_on_host<HostBackend::serial>}},
      {"host_openmp",
       "the host's OpenMP threads with atomics",
       1.0,
       on_host().needing(HostBackend::openmp),
       {&C::template run_on_host<HostBackend::openmp>}},
      {"auto",
       "privatized where the bins fit team scratch, else plain_atomic",
       1.0,
       on_device().as_meta(),
       {&C::run_auto}},
  };
  return rows;
}

template <class Bin>
HistogramCase<Bin>::HistogramCase(const Params& params, const RunContext& context)
    : device_(context.device),
      bins_(params.integer("bins")),
      team_size_(static_cast<int>(params.integer("team_size"))),
      privatized_team_size_(privatized_team_size(params)) {
  const Index n = params.integer("samples");
  samples_ = Kokkos::View<double*>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "histogram::samples"), n);
  histogram_ = Kokkos::View<Bin*>("histogram::bins", bins_);
  generate_samples(params, context);
  interrupt::stop_if_requested(context.comm);
  host_samples_ = host_copy_until_signal(samples_);
  reference_.assign(static_cast<std::size_t>(bins_), Bin(0));
  interrupt::for_each_slice_until_signal(n, [&](Index begin, Index end) {
    for (Index i = begin; i < end; ++i)
      ++reference_[static_cast<std::size_t>(bin_of(host_samples_(i), bins_))];
  });
  interrupt::stop_if_requested(context.comm);
}

// Uniform samples from Kokkos' random pool, or, for testing the bin rule, samples placed exactly
// on bin edges, just below them, and just below 1.
template <class Bin>
void HistogramCase<Bin>::generate_samples(const Params& params, const RunContext& context) {
  const auto seed = static_cast<std::uint64_t>(params.integer("seed")) +
                    7919u * static_cast<std::uint64_t>(context.comm.rank());
  if (distribution_choice().of(params) == Distribution::uniform) {
    Kokkos::Random_XorShift64_Pool<> pool(seed);
    interrupt::for_each_slice_until_signal(static_cast<Index>(samples_.extent(0)), [&](Index begin,
                                                                                       Index end) {
      Kokkos::fill_random(Kokkos::subview(samples_, std::make_pair(begin, end)), pool, 0.0, 1.0);
    });
    return;
  }
  auto host = Kokkos::create_mirror_view(samples_);
  const double bins = static_cast<double>(bins_);
  for (Index i = 0; i < static_cast<Index>(host.extent(0)) && interrupt::received() == 0; ++i) {
    const double edge = static_cast<double>((i / 3) % (bins_ + 1)) / bins;
    switch (i % 3) {
      case 0:
        host(i) = edge < 1.0 ? edge : std::nextafter(1.0, 0.0);
        break;
      case 1:
        host(i) = edge > 0.0 ? std::nextafter(edge, 0.0) : 0.0;
        break;
      default:
        host(i) = std::nextafter(1.0, 0.0);
    }
  }
  Kokkos::deep_copy(samples_, host);
}

template <class Bin>
Kokkos::TeamPolicy<> HistogramCase<Bin>::team_policy(Index league, int requested,
                                                     std::size_t scratch_bytes) const {
  return Kokkos::TeamPolicy<>(static_cast<int>(league),
                              static_cast<int>(team_size_for_scratch(requested, scratch_bytes)))
      .set_scratch_size(0, Kokkos::PerTeam(scratch_bytes));
}

// The requested team size, or the largest the backend allows below it.
template <class Bin>
Index HistogramCase<Bin>::team_size_for_scratch(int requested, std::size_t per_team_bytes) const {
  const Kokkos::TeamPolicy<> probe =
      Kokkos::TeamPolicy<>(1, Kokkos::AUTO).set_scratch_size(0, Kokkos::PerTeam(per_team_bytes));
  const int most = probe.team_size_max(BlockAggregatedPerSample<Bin>{}, Kokkos::ParallelForTag());
  return std::max(1, std::min(requested, most));
}

template <class Bin>
void HistogramCase<Bin>::prepare(const VariantSpec& variant) {
  const HistogramMethod<Bin>& method = table().action(variant);
  if (variant.traits.side == Side::host && host_histogram_.extent(0) == 0) {
    host_histogram_ = Kokkos::View<Bin*, Kokkos::HostSpace>("histogram::host_bins", bins_);
  }
  if (method.run == &HistogramCase::run_scatter_view && !scatter_) {
    scatter_.emplace(histogram_);
  }
  if ((method.run == &HistogramCase::run_privatized || method.run == &HistogramCase::run_auto) &&
      !privatized_policy_ && privatized_not_applicable().empty()) {
    privatized_policy_ = privatized_policy();
  }
  if constexpr (std::is_same<Bin, int>::value) {
    if (method.run == &HistogramCase::run_cub && !cub_) {
      cub_ = std::make_unique<CubHistogram>(samples_, histogram_);
    }
  }
}

template <class Bin>
template <class Method>
void HistogramCase<Bin>::run_atomic_per_sample() {
  zero_bins();
  Kokkos::parallel_for(std::string("histogram::") + Method::name,
                       sample_range(static_cast<Index>(samples_.extent(0))),
                       AtomicPerSample<Bin, Method>{samples_, histogram_, bins_});
}

template <class Bin>
void HistogramCase<Bin>::run_block_shared() {
  zero_bins();
  const Index n = static_cast<Index>(samples_.extent(0));
  const std::size_t scratch = reducers::BlockAggregator<Bin>::scratch_bytes(team_size_);
  const Index per_team = team_size_for_scratch(team_size_, scratch) * kSamplesPerThread;
  const Index league = std::max<Index>(1, (n + per_team - 1) / per_team);
  Kokkos::parallel_for("histogram::block_shared", team_policy(league, team_size_, scratch),
                       BlockAggregatedPerSample<Bin>{samples_, histogram_, bins_});
}

template <class Bin>
void HistogramCase<Bin>::run_scatter_view() {
  zero_bins();
  scatter_->reset();
  using Scatter = Kokkos::Experimental::ScatterView<Bin*>;
  Kokkos::parallel_for("histogram::scatter_view",
                       sample_range(static_cast<Index>(samples_.extent(0))),
                       ScatterPerSample<Scatter>{samples_, *scatter_, bins_});
  Kokkos::Experimental::contribute(histogram_, *scatter_);
}

template <class Bin>
std::string HistogramCase<Bin>::privatized_not_applicable() const {
  const std::size_t needed = PrivatizedPerTeam<Bin>::scratch_bytes(bins_);
  const int most = Kokkos::TeamPolicy<>(1, 1).scratch_size_max(0);
  if (needed <= static_cast<std::size_t>(most)) return "";
  return std::to_string(bins_) + " bins need " + std::to_string(needed) +
         " bytes of team scratch; the backend offers " + std::to_string(most);
}

template <class Bin>
Kokkos::TeamPolicy<> HistogramCase<Bin>::privatized_policy() const {
  const Index n = static_cast<Index>(samples_.extent(0));
  const std::size_t scratch = PrivatizedPerTeam<Bin>::scratch_bytes(bins_);
  const Index threads = team_size_for_scratch(privatized_team_size_, scratch);
  // One wave, and no more teams than the sample pairs keep busy; but enough that no team's
  // 32-bit counters see 2^31 samples.
  const Index most_per_team = Index{1} << 31;
  const Index league =
      std::max<Index>((n + most_per_team - 1) / most_per_team,
                      std::max<Index>(1, std::min(teams_in_one_wave(device_, threads, scratch),
                                                  (n / 2 + threads - 1) / threads)));
  return team_policy(league, privatized_team_size_, scratch);
}

template <class Bin>
void HistogramCase<Bin>::run_privatized() {
  zero_bins();
  Kokkos::parallel_for("histogram::privatized", *privatized_policy_,
                       PrivatizedPerTeam<Bin>{samples_, histogram_, bins_});
}

// Where the bins fit in team scratch, private sub-histograms won at every bin count measured. Past
// that, two lanes of a warp share a bin with probability ~ 31 / bins, too rarely for warp
// aggregation to repay its shuffles, so auto takes plain atomics (docs/performance-notes.md,
// histogram, and docs/apps/histogram.md).
template <class Bin>
void HistogramCase<Bin>::run_auto() {
  if (privatized_not_applicable().empty()) {
    run_privatized();
  } else {
    run_atomic_per_sample<reducers::PlainAtomic>();
  }
}

template <class Bin>
std::string HistogramCase<Bin>::cub_not_applicable() const {
  return cub_unsupported_reason(static_cast<std::int64_t>(samples_.extent(0)), bins_,
                                std::is_integral<Bin>::value);
}

template <class Bin>
void HistogramCase<Bin>::run_cub() {
  cub_->run();
}

// One thread adds without atomics; the OpenMP threads contend for bins, as the device's do.
template <class Bin>
template <HostBackend Backend>
void HistogramCase<Bin>::run_on_host() {
  const auto samples = host_samples_;
  const auto histogram = host_histogram_;
  const Index bins = bins_;
  const std::string name = std::string("histogram::host_") + backend_word(Backend);
  Kokkos::parallel_for(name + "_zero", host_range<Backend>(bins),
                       [=](Index b) { histogram(b) = Bin(0); });
  Kokkos::parallel_for(name, host_range<Backend>(static_cast<Index>(samples.extent(0))),
                       [=](Index i) {
                         if constexpr (Backend == HostBackend::serial) {
                           histogram(bin_of(samples(i), bins)) += Bin(1);
                         } else {
                           Kokkos::atomic_add(&histogram(bin_of(samples(i), bins)), Bin(1));
                         }
                       });
  HostSpace<Backend>().fence();
}

template <class Bin>
Validation HistogramCase<Bin>::validate(const VariantSpec& variant) {
  Kokkos::View<const Bin*, Kokkos::HostSpace> counts = host_histogram_;
  if (variant.traits.side != Side::host) {
    counts = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), histogram_);
  }
  // Counts are whole numbers, exact in either bin type, so every variant must match exactly.
  std::int64_t differing = 0;
  for (Index b = 0; b < bins_; ++b) {
    differing += static_cast<double>(counts(b)) != static_cast<double>(reference_[b]) ? 1 : 0;
  }
  return Validation::within("bins differing from a serial count", static_cast<double>(differing),
                            0.0);
}

template class HistogramCase<int>;
template class HistogramCase<double>;

}  // namespace kmini::histogram
