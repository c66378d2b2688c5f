#include "histogram/histogram_app.hpp"

#include <memory>
#include <type_traits>

#include <Kokkos_Core.hpp>

#include "histogram/histogram_case.hpp"
#include "histogram/histogram_params.hpp"

namespace kmini::histogram {

namespace {

// Device memory for one point. On host backends the host-side arrays (the serial reference, the
// host variants' histogram, ScatterView's per-thread copies) come out of the same memory.
double device_bytes(const Params& params, const Comm& /*comm*/) {
  const double samples = static_cast<double>(params.integer("samples"));
  const double bins = static_cast<double>(params.integer("bins"));
  const double bin = static_cast<double>(bin_bytes(params));
  double bytes = samples * sizeof(double) + bins * bin;
  if (std::is_same<Kokkos::DefaultExecutionSpace::memory_space, Kokkos::HostSpace>::value) {
    bytes += bins * bin;
    if (params.selects_any([](const VariantSpec& v) { return v.traits.side == Side::host; })) {
      bytes += bins * bin;
    }
    if (params.selects_any([](const VariantSpec& v) {
          return HistogramCase<int>::table().action(v).copies_per_thread;
        })) {
      bytes += Kokkos::DefaultExecutionSpace().concurrency() * bins * bin;
    }
  }
  return bytes;
}

}  // namespace

AppSpec app_spec() {
  AppSpec app;
  app.name = "histogram";
  app.doc =
      "the seed's histogram of N uniform samples into B equal bins, made with plain, "
      "warp-aggregated and block-aggregated atomics, ScatterView, private sub-histograms, "
      "CUB and the host";
  app.params = {
      ParamSpec::integer("samples", 10000000, "samples per rank, uniform in [0, 1)")
          .range(0, 1.0e12)
          .sweepable(),
      ParamSpec::integer("bins", 1, "number of equal bins of [0, 1)")
          .range(1, static_cast<double>(kMaxBins))
          .swept_by_default(decades_of_bins()),
      bin_type_choice()
          .param(BinType::int_bins, "bins count in int (add 1) or double (add 1.0)")
          .sweepable(),
      ParamSpec::integer("seed", 2013,
                         "seed of Kokkos' random pool (each rank adds its own "
                         "offset)")
          .range(0, 1.0e18),
      distribution_choice().param(
          Distribution::uniform,
          "uniform samples, or samples on and just below the bin edges and 1"),
      ParamSpec::integer("team_size", 128,
                         "threads per team of block_shared (the seed used 128); "
                         "lowered to what the backend allows")
          .range(1, 1024)
          .sweepable(),
      ParamSpec::integer("privatized_team_size", 0,
                         "threads per team of privatized (and auto); 0: 1024; lowered to what the "
                         "backend allows")
          .range(0, 1024)
          .sweepable(),
  };
  app.variants = HistogramCase<int>::table().specs();
  app.byte_model = "samples x 8 (read) + bins x sizeof(bin) (written): each once";
  // Its bytes are the samples' reads but for the bins: at 100 bins a GPU's privatized histogram
  // reached 101.5% of the copy ceiling, which writes as much as it reads.
  app.ceiling = Ceiling::read;
  app.fom = FigureOfMerit{"throughput", "Gsamples/s", FigureOfMerit::Quantity::items, 1.0e9};
  app.default_repetitions = 10;
  app.check = check;
  app.device_bytes = device_bytes;
  app.estimate_work = [](const Params& params, const Comm& /*comm*/, const VariantSpec&) {
    return WorkEstimate{
        histogram_counts(static_cast<double>(params.integer("samples")),
                         static_cast<double>(params.integer("bins")), bin_bytes(params)),
        ""};
  };
  app.setup = [](const Params& params, const RunContext& context) -> std::unique_ptr<Case> {
    if (bin_type_choice().of(params) == BinType::int_bins)
      return std::make_unique<HistogramCase<int>>(params, context);
    return std::make_unique<HistogramCase<double>>(params, context);
  };
  return app;
}

}  // namespace kmini::histogram