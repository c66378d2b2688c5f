#include "reduce/reduce_app.hpp"

#include <Kokkos_Random.hpp>
#include <algorithm>

#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include "core/comm.hpp"
#include "core/host_backends.hpp"
#include "core/host_copy.hpp"
#include "core/interrupt.hpp"
#include "core/precision.hpp"
#include "reducers/atomics.hpp"
#include "reducers/reduction_strategies.hpp"

namespace kmini::reduce {

namespace {

using reducers::Index;

template <class T>
class ReduceCase;

// How a variant sums, and whether it runs `work_items` work items (the chunk variants).
template <class T>
struct ReduceMethod {
  void (ReduceCase<T>::*run)();
  bool chunked = false;
};

using Range = Kokkos::RangePolicy<Kokkos::IndexType<Index>>;

// One repetition: each value read once and added once.
Counts reduce_counts(double elements, std::size_t element_bytes) {
  return Counts{elements * static_cast<double>(element_bytes), elements, elements};
}

template <class T>
class ReduceCase final : public Case {
 public:
  ReduceCase(const Params& params, const RunContext& context);

  static const VariantTable<ReduceMethod<T>>& table();

  Counts run(const VariantSpec& variant) override {
    (this->*table().action(variant).run)();
    return reduce_counts(static_cast<double>(values_.extent(0)), sizeof(T));
  }
  Validation validate(const VariantSpec& variant) override;
  std::vector<Metric> metrics(const VariantSpec& variant) const override {
    if (!table().action(variant).chunked) return {};
    return {Metric{"work_items", static_cast<double>(work_items_),
                   "launched (at most one per element)"}};
  }

 private:
  template <class Method>
  void run_atomic_per_element();
  void run_chunk_contiguous();
  template <class Method>
  void run_chunk_strided();
  void run_kokkos_reduce();
  template <HostBackend Backend>
  void run_on_host();

  // The device-side sum, read back as the host's result: part of every device variant, as a
  // parallel_reduce into a host value is.
  void read_back_sum() { Kokkos::deep_copy(result_, sum_); }
  Index batch() const {
    return (static_cast<Index>(values_.extent(0)) + work_items_ - 1) / work_items_;
  }

  Kokkos::View<T*> values_;
  typename Kokkos::View<T*>::host_mirror_type host_values_;
  Kokkos::View<double> sum_;
  double result_ = 0.0;
  double reference_ = 0.0;  // compensated host sum
  Index work_items_;
};

template <class T>
const VariantTable<ReduceMethod<T>>& ReduceCase<T>::table() {
  using C = ReduceCase<T>;
  static const VariantTable<ReduceMethod<T>> rows{
      {"atomic_each",
       "one global atomic per element (the seed's reductionAtomics1)",
       1.0,
       on_device().as_baseline(),
       {&C::template run_atomic_per_element<reducers::PlainAtomic>}},
      {"chunk_contiguous",
       "each work item sums a contiguous chunk, then one atomic (the seed's "
       "reductionAtomics2): uncoalesced",
       1.0,
       on_device(),
       {&C::run_chunk_contiguous, true}},
      {"chunk_strided",
       "the same work items taking every work_items-th element: coalesced",
       1.0,
       on_device(),
       {&C::template run_chunk_strided<reducers::PlainAtomic>, true}},
      {"chunk_strided_warp",
       "chunk_strided with its final atomics warp-aggregated (match)",
       1.0,
       on_device(),
       {&C::template run_chunk_strided<reducers::WarpMatchAtomic>, true}},
      {"warp_aggregated",
       "one atomic per element through warp aggregation (match)",
       1.0,
       on_device(),
       {&C::template run_atomic_per_element<reducers::WarpMatchAtomic>}},
      {"kokkos_reduce", "Kokkos::parallel_reduce", 1.0, on_device(), {&C::run_kokkos_reduce}},
      {"host_serial",
       "the host, one thread",
       1.0,
       on_host().needing(HostBackend::serial),
       {&C::template run_on_host<HostBackend::serial>}},
      {"host_openmp",
       "the host's OpenMP threads, parallel_reduce",
       1.0,
       on_host().needing(HostBackend::openmp),
       {&C::template run_on_host<HostBackend::openmp>}},
  };
  return rows;
}

template <class T>
ReduceCase<T>::ReduceCase(const Params& params, const RunContext& context) : sum_("reduce::sum") {
  const Index n = params.integer("elements");
  values_ = Kokkos::View<T*>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "reduce::values"), n);
  const auto seed = static_cast<std::uint64_t>(params.integer("seed")) +
                    7919u * static_cast<std::uint64_t>(context.comm.rank());
  Kokkos::Random_XorShift64_Pool<> pool(seed);
  interrupt::for_each_slice_until_signal(n, [&](Index begin, Index end) {
    Kokkos::fill_random(Kokkos::subview(values_, std::make_pair(begin, end)), pool, T(0), T(1));
  });
  interrupt::stop_if_requested(context.comm);
  host_values_ = host_copy_until_signal(values_);
  const Index requested = params.integer("work_items");
  // More work items than elements would have nothing to do: 10 values with 2^31 of them took 25 s
  // a variant. The report gives the number launched.
  work_items_ = std::min(
      requested > 0 ? requested : static_cast<Index>(Kokkos::DefaultExecutionSpace().concurrency()),
      std::max(n, Index{1}));
  // Neumaier's compensated sum: the reference, good to about one rounding of the total.
  double sum = 0.0;
  double compensation = 0.0;
  interrupt::for_each_slice_until_signal(n, [&](Index begin, Index end) {
    for (Index i = begin; i < end; ++i) {
      const double term = static_cast<double>(host_values_(i));
      const double next = sum + term;
      compensation += std::fabs(sum) >= std::fabs(term) ? (sum - next) + term : (term - next) + sum;
      sum = next;
    }
  });
  interrupt::stop_if_requested(context.comm);
  reference_ = sum + compensation;
}

template <class T>
template <class Method>
void ReduceCase<T>::run_atomic_per_element() {
  Kokkos::deep_copy(sum_, 0.0);
  Kokkos::parallel_for(std::string("reduce::atomic_each_") + Method::name,
                       Range(0, static_cast<Index>(values_.extent(0))),
                       reducers::AtomicPerElement<T, Method>{values_, sum_});
  read_back_sum();
}

template <class T>
void ReduceCase<T>::run_chunk_contiguous() {
  Kokkos::deep_copy(sum_, 0.0);
  Kokkos::parallel_for("reduce::chunk_contiguous", Range(0, work_items_),
                       reducers::ContiguousChunks<T>{values_, sum_, batch()});
  read_back_sum();
}

template <class T>
template <class Method>
void ReduceCase<T>::run_chunk_strided() {
  Kokkos::deep_copy(sum_, 0.0);
  Kokkos::parallel_for(std::string("reduce::chunk_strided_") + Method::name, Range(0, work_items_),
                       reducers::StridedChunks<T, Method>{values_, sum_, work_items_});
  read_back_sum();
}

template <class T>
void ReduceCase<T>::run_kokkos_reduce() {
  Kokkos::parallel_reduce("reduce::kokkos_reduce", Range(0, static_cast<Index>(values_.extent(0))),
                          reducers::SumTerms<Kokkos::View<const T*>>{values_}, result_);
}

template <class T>
template <HostBackend Backend>
void ReduceCase<T>::run_on_host() {
  using Values = Kokkos::View<const T*, Kokkos::HostSpace>;
  Kokkos::parallel_reduce(std::string("reduce::host_") + backend_word(Backend),
                          host_range<Backend>(static_cast<Index>(host_values_.extent(0))),
                          reducers::SumTerms<Values>{host_values_}, result_);
}

// Terms in [0, 1) summed in double in any order err by at most (n - 1) 2^-53 of their sum
// (Higham, Accuracy and Stability of Numerical Algorithms, (4.4)); converting float or double
// terms to double is exact, so the element type adds nothing. The reference's own error is a
// rounding or two, hence the extra 2.
template <class T>
Validation ReduceCase<T>::validate(const VariantSpec& /*variant*/) {
  const auto n = static_cast<double>(values_.extent(0));
  const double error =
      reference_ == 0.0 ? std::fabs(result_) : std::fabs(result_ - reference_) / reference_;
  return Validation::within("relative error vs a compensated host sum", error,
                            (std::max(n - 1.0, 0.0) + 2.0) * std::ldexp(1.0, -53));
}

}  // namespace

AppSpec app_spec() {
  AppSpec app;
  app.name = "reduce";
  app.doc =
      "the sum of N values (seed 003): one atomic each, per-work-item chunks contiguous or "
      "strided, warp-aggregated atomics, parallel_reduce, the host";
  app.params = {
      ParamSpec::integer("elements", std::int64_t{1} << 28, "values per rank, uniform in [0, 1)")
          .range(0, 1.0e12)
          .sweepable(),
      precision_param(Precision::float32, "element type; every variant sums in double"),
      ParamSpec::integer("work_items", 0,
                         "work items of the chunk variants, at most one per element (the "
                         "metric work_items gives the number launched); 0: the default "
                         "execution space's concurrency")
          .range(0, 2147483647)
          .sweepable(),
      ParamSpec::integer("seed", 2021,
                         "seed of Kokkos' random pool (each rank adds its own "
                         "offset)")
          .range(0, 1.0e18),
  };
  app.variants = ReduceCase<float>::table().specs();
  app.byte_model = "elements x sizeof(precision): each value read once";
  app.fom = FigureOfMerit{"bandwidth", "GB/s", FigureOfMerit::Quantity::bytes, 1.0e9};
  app.ceiling = Ceiling::read;
  app.default_repetitions = 10;
  app.device_bytes = [](const Params& params, const Comm& /*comm*/) {
    return static_cast<double>(params.integer("elements")) *
           static_cast<double>(element_bytes(params));
  };
  app.estimate_work = [](const Params& params, const Comm& /*comm*/, const VariantSpec&) {
    return WorkEstimate{
        reduce_counts(static_cast<double>(params.integer("elements")), element_bytes(params)), ""};
  };
  app.setup = setup_in_precision<ReduceCase>;
  return app;
}

}  // namespace kmini::reduce
