// Drives an app's phases for each point of a run and each selected variant: setup, warm-up,
// timed repetitions (fenced, the slowest rank's time), validation, and the rates derived from
// the work done. No figure is computed anywhere else.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/app.hpp"
#include "core/config.hpp"
#include "core/timing.hpp"

namespace kmini {

class Comm;
struct DeviceInfo;

struct VariantResult {
  std::vector<std::pair<std::string, Value>> point;  // the swept parameters' values here
  const VariantSpec* variant = nullptr;
  std::string not_applicable;   // why it did not run; empty when it ran
  std::vector<double> seconds;  // per timed repetition, the slowest rank's
  TimingStats time;
  Work work;         // per repetition, summed over ranks
  double fom = 0.0;  // from the median time, in the app's unit
  std::optional<double> bandwidth_gbps;
  std::optional<double> percent_of_ceiling;
  std::optional<double> percent_of_datasheet;  // of the job's datasheet memory bandwidth
  std::optional<double> gflops;
  std::optional<double> items_per_second;  // where the app names an item rate
  std::optional<double> speedup;           // baseline median time / this median time
  Validation validation;                   // failed on any rank fails; value is the worst rank's
  std::vector<Metric> metrics;             // the root rank's
};

struct RunResult {
  const RunSpec* spec = nullptr;
  std::vector<VariantResult> results;
  std::string error;    // set when the run broke off at runtime
  int interrupted = 0;  // the signal that stopped it before its end (core/interrupt.hpp), or 0
};

// Where no variant of the run applied at any of its points: "FILE:LINE:COL: LABEL: no variant
// applies here: NAME: reason; ..." (each distinct reason once). Empty otherwise, or where the run
// broke off or ran nothing.
std::string nothing_applicable(const RunResult& run);

class Runner {
 public:
  // `ceilings`: each kind's aggregate bandwidth over all ranks; a missing or zero entry means not
  // measured.
  // `datasheet_gbps`: the job's datasheet memory bandwidth, 0 where unknown.
  Runner(const Comm& comm, const DeviceInfo& device, std::map<Ceiling, double> ceilings,
         double datasheet_gbps = 0.0);

  // Checks that each point fits in device memory; throws InputError naming the run otherwise.
  void check_memory(const RunSpec& run) const;

  using PointResults = std::function<void(const std::vector<VariantResult>&)>;
  // Runs every point and variant. `on_point` sees each point's results as they complete;
  // `on_variant`, where given, the point's results so far after each of its variants.
  RunResult run(const RunSpec& run, const PointResults& on_point,
                const PointResults& on_variant = nullptr) const;

  // One variant at one point on an existing case.
  VariantResult run_variant(Case& problem, const AppSpec& app, const VariantSpec& variant,
                            const Params& params) const;

 private:
  const Comm& comm_;
  const DeviceInfo& device_;
  std::map<Ceiling, double> ceilings_;
  double datasheet_gbps_ = 0.0;
};

// The swept parameters' values at a point of `run`.
std::vector<std::pair<std::string, Value>> swept_values(const RunSpec& run, const Params& p);

// "elements=1024 precision=float", for tables and messages.
std::string describe_point(const std::vector<std::pair<std::string, Value>>& point);

}  // namespace kmini
