#include "stream/stream_app.hpp"

#include <cmath>
#include <memory>

#include <Kokkos_Core.hpp>

#include "core/precision.hpp"
#include "stream/stream_check.hpp"
#include "stream/stream_kernels.hpp"

namespace kmini::stream {

namespace {

// What a variant does to the arrays, and how its result is checked.
template <class T>
struct StreamKernel {
  void (*launch)(StreamArrays<T>&, const std::string& kernel_name);
  Validation (*check)(const StreamArrays<T>&);
};

// Weight: arrays of `elements` moved once per repetition (reads + writes).
template <class T>
const VariantTable<StreamKernel<T>>& variant_table() {
  static const VariantTable<StreamKernel<T>> table{
      {"copy",
       "c = a",
       2.0,
       on_device().as_baseline().probing(Ceiling::copy),
       {&launch_elementwise<T, Copy>, &check_elementwise<T, Copy>}},
      {"deep_copy",
       "c = a through Kokkos::deep_copy, the backend's own copy",
       2.0,
       on_device().probing(Ceiling::copy),
       {&launch_deep_copy<T>, &check_elementwise<T, Copy>}},
      {"mul",
       "c = scalar * a",
       2.0,
       on_device().probing(Ceiling::copy),
       {&launch_elementwise<T, Mul>, &check_elementwise<T, Mul>}},
      {"add",
       "c = a + b",
       3.0,
       on_device().probing(Ceiling::copy),
       {&launch_elementwise<T, Add>, &check_elementwise<T, Add>}},
      {"triad",
       "c = a + scalar * b",
       3.0,
       on_device().probing(Ceiling::copy),
       {&launch_elementwise<T, Triad>, &check_elementwise<T, Triad>}},
      {"dot",
       "sum of a * b, accumulated in double",
       2.0,
       on_device().probing(Ceiling::read),
       {&launch_dot<T>, &check_dot<T>}},
      {"fill",
       "c = scalar: writes only",
       1.0,
       on_device().probing(Ceiling::copy),
       {&launch_elementwise<T, Fill>, &check_elementwise<T, Fill>}},
      {"read",
       "sum of a, read in 16-byte pieces, four in flight per thread, added by one "
       "warp-aggregated atomic per warp: reads only",
       1.0,
       on_device().probing(Ceiling::read),
       {&launch_read<T>, &check_read<T>}},
  };
  return table;
}

// One repetition: the variant's weight in arrays of `elements`, each read or written once.
Counts stream_counts(double elements, std::size_t element_bytes) {
  return Counts{elements * static_cast<double>(element_bytes), 0.0, elements};
}

template <class T>
class StreamCase final : public Case {
 public:
  StreamCase(const Params& params, const RunContext& /*context*/)
      : inject_error_(params.boolean("inject_error")) {
    const std::int64_t elements = params.integer("elements");
    arrays_.a =
        Kokkos::View<T*>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "stream::a"), elements);
    arrays_.b =
        Kokkos::View<T*>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "stream::b"), elements);
    arrays_.c =
        Kokkos::View<T*>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "stream::c"), elements);
  }

  void prepare(const VariantSpec& /*variant*/) override { initialize(arrays_); }

  Counts run(const VariantSpec& variant) override {
    variant_table<T>().action(variant).launch(arrays_, "stream::" + variant.name);
    return stream_counts(static_cast<double>(arrays_.a.extent(0)), sizeof(T));
  }

  Validation validate(const VariantSpec& variant) override {
    if (inject_error_) corrupt_one_result(arrays_);
    return variant_table<T>().action(variant).check(arrays_);
  }

 private:
  StreamArrays<T> arrays_;
  bool inject_error_;
};

}  // namespace

AppSpec app_spec() {
  AppSpec app;
  app.name = "stream";
  app.doc =
      "BabelStream's copy, mul, add, triad and dot over device arrays, the backend's own copy, a "
      "write-only fill and a read-only sum: the memory bandwidth a device sustains, and the "
      "probes behind every % of ceiling";
  app.params = {
      ParamSpec::integer("elements", std::int64_t{1} << 25, "array length per rank")
          .range(1, 1.0e12)
          .sweepable(),
      precision_param(Precision::float64, "element type"),
      ParamSpec::boolean("inject_error", false,
                         "test aid: corrupt one result after timing, so validation must FAIL"),
  };
  app.variants = variant_table<double>().specs();
  app.byte_model = "weight x elements x sizeof(precision): each array read or written once";
  app.fom = FigureOfMerit{"bandwidth", "GB/s", FigureOfMerit::Quantity::bytes, 1.0e9};
  app.default_repetitions = 10;
  // The ceilings every report quotes, each the fastest of its probes: every stream kernel that
  // writes probes the copy ceiling, every one that only reads the read ceiling, so no stream
  // kernel runs above its ceiling at the probes' size. Double precision, three arrays.
  app.probe = CeilingProbe{
      "elements",
      "doubles per array and rank",
      3.0 * sizeof(double),
      "precision: double\n",
      {{Ceiling::copy,
        "the fastest of stream's kernels that write: copy (c = a, a Kokkos kernel), deep_copy "
        "(Kokkos::deep_copy) and mul, one array read and one written; add and triad, two read "
        "and one written; fill (c = s), one written; double, bytes read + written"},
       {Ceiling::read,
        "the faster of stream's dot (the sum of a * b), two arrays read, and read (the sum of a "
        "in 16-byte pieces, four in flight per thread), one read; nothing written; double"}}};
  app.device_bytes = [](const Params& params, const Comm& /*comm*/) {
    return 3.0 * static_cast<double>(params.integer("elements")) *
           static_cast<double>(element_bytes(params));
  };
  app.estimate_work = [](const Params& params, const Comm& /*comm*/, const VariantSpec&) {
    return WorkEstimate{
        stream_counts(static_cast<double>(params.integer("elements")), element_bytes(params)), ""};
  };
  app.setup = setup_in_precision<StreamCase>;
  return app;
}

}  // namespace kmini::stream
