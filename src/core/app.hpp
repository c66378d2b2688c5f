// What an app is, to the core: a schema, a table of variants (core/variant.hpp), and a setup
// function that returns a Case whose phases (prepare, run, validate) the runner drives. An app
// never parses YAML, prints, or sets up MPI; the core does.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/param.hpp"
#include "core/params.hpp"
#include "core/variant.hpp"

namespace kmini {

class Comm;
struct DeviceInfo;

// One repetition on one rank, as an app's Case counts it. Bytes follow the app's byte model: the
// core multiplies `unit_bytes` by the variant's weight (work_of), so that a rate divides by what
// `kmini list` shows, and nothing else can.
struct Counts {
  double unit_bytes = 0.0;  // what a weight of 1 moves at this point; 0 where no byte model applies
  double flops = 0.0;
  double items = 0.0;  // in the figure of merit's item unit, where it counts items
};

// The work of one repetition: bytes under the byte model, flops and items. Rates are work over
// time.
struct Work {
  double bytes = 0.0;
  double flops = 0.0;
  double items = 0.0;
};

Work work_of(const Counts& counts, const VariantSpec& variant);

// One repetition's work estimated from the parameters alone, for `kmini run --dry-run`.
struct WorkEstimate {
  std::optional<Counts> per_repetition;  // on one rank; unset where it is decided at run time
  std::string note;                      // what the figure assumes, or why there is none
};

// The headline number of an app: a rate of one kind of work.
struct FigureOfMerit {
  enum class Quantity { bytes, flops, items };
  std::string name;  // "bandwidth", "MFLOPS", ...
  std::string unit;  // "GB/s"
  Quantity quantity = Quantity::bytes;
  double scale = 1.0e9;  // unit = quantity per second / scale
};

struct Validation {
  enum class Status { pass, fail };
  Status status = Status::fail;
  std::string metric;  // what was compared: "max relative error vs analytic replay"
  double value = 0.0;
  double tolerance = 0.0;

  // Passes when `value` is finite and at most `tolerance`.
  static Validation within(std::string metric, double value, double tolerance);
  bool passed() const { return status == Status::pass; }
};

// A further result worth reporting beside the figure of merit (a residual, an energy).
struct Metric {
  std::string name;
  double value = 0.0;
  std::string unit;
  // A history behind the value (an SCF's energy per iteration), written to the report as
  // `values`; the terminal shows `value` only.
  std::vector<double> series = {};
};

// How an app's variants that probe a ceiling (VariantTraits::probes) run at the start of every
// `kmini run`, all ranks at once: stream declares it, and the core knows no app by name.
struct CeilingProbe {
  std::string size_param;  // set to the probe's length: "elements"
  std::string size_unit;   // what one unit of it is, for the terminal: "doubles per array and rank"
  double bytes_per_unit;   // device memory a unit takes, so that the probe fits free memory
  std::string settings;    // the probe run's other parameters, YAML lines: "precision: double\n"
  // How each ceiling is measured, in words, for the report.
  std::map<Ceiling, std::string> method;
};

// What the core hands an app's setup.
struct RunContext {
  const Comm& comm;
  const DeviceInfo& device;
};

// One configured problem (one point of a run), holding its data between phases.
class Case {
 public:
  virtual ~Case() = default;
  // Why `variant` cannot run at this point (a size past a hardware limit, a library this build
  // lacks), or empty when it can; the runner asks only where the variant's host backend is
  // there. A variant that cannot run is reported so, never silently replaced by another.
  virtual std::string not_applicable(const VariantSpec& /*variant*/) const { return ""; }
  // Untimed: put the data in the state a variant's repetitions start from.
  virtual void prepare(const VariantSpec& /*variant*/) {}
  // One repetition. The runner fences before and after it and times it.
  virtual Counts run(const VariantSpec& variant) = 0;
  // After the repetitions: compares this rank's result with the reference.
  virtual Validation validate(const VariantSpec& variant) = 0;
  virtual std::vector<Metric> metrics(const VariantSpec& /*variant*/) const { return {}; }
};

// The item called `name` in a list of named things (variants, parameters, apps), or nullptr.
template <class Named>
const Named* find_named(const std::vector<Named>& items, const std::string& name) {
  for (const auto& item : items) {
    if (item.name == name) return &item;
  }
  return nullptr;
}

template <class Named>
std::vector<std::string> names_of(const std::vector<Named>& items) {
  std::vector<std::string> names;
  for (const auto& item : items)
    names.push_back(item.name);
  return names;
}

struct AppSpec {
  std::string name;
  std::string doc;
  std::vector<ParamSpec> params;  // the registry puts the common ones (variant, ...) first
  std::vector<VariantSpec> variants;
  std::string byte_model;  // in words: what one unit of weight is
  FigureOfMerit fom;
  Ceiling ceiling = Ceiling::copy;  // which measured ceiling bandwidths are quoted against
  // Where this app measures the ceilings for every run (at most one app does).
  std::optional<CeilingProbe> probe;
  std::int64_t default_repetitions = 10;
  std::int64_t default_warmup = 1;
  std::vector<std::string> default_variants{"all"};
  // Where work counts items beside a byte or flop figure of merit: the name of their rate in the
  // report ("paths_per_second"); empty for none.
  std::string item_rate;

  // Checks across parameters; rejects through Params::reject. May be empty.
  std::function<void(const Params&)> check;
  // Device memory one rank needs for a point, in bytes, estimated before allocating anything.
  std::function<double(const Params&, const Comm&)> device_bytes;
  // The host memory the point's host variants need beside it (their arrays on the host), the
  // same way. May be empty: none.
  std::function<double(const Params&, const Comm&)> host_bytes;
  // One repetition of `variant` at a point, on this rank, as its Case's run() will count it.
  std::function<WorkEstimate(const Params&, const Comm&, const VariantSpec&)> estimate_work;
  std::function<std::unique_ptr<Case>(const Params&, const RunContext&)> setup;

  const VariantSpec* find_variant(const std::string& name) const;
  std::vector<std::string> variant_names() const;
  const ParamSpec* find_param(const std::string& name) const;
  std::vector<std::string> param_names() const;
};

}  // namespace kmini
