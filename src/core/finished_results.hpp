// What a run has finished so far, kept as it goes for core/last_resort.hpp's thread, which
// writes the report from it while the run may still be adding to it: every access is guarded.
#pragma once

#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "core/ceiling.hpp"
#include "core/runner.hpp"

namespace kmini {

class FinishedResults {
 public:
  struct Copy {
    std::optional<Ceilings> ceilings;  // none before the probe has ended
    std::vector<RunResult> runs;       // the last one still running where `running`
    bool running = false;
  };

  void set_ceilings(const Ceilings& ceilings) {
    const std::lock_guard<std::mutex> lock(mutex_);
    finished_.ceilings = ceilings;
  }
  void begin_run(const RunSpec& run) {
    const std::lock_guard<std::mutex> lock(mutex_);
    finished_.runs.emplace_back().spec = &run;
    finished_.running = true;
  }
  void add_point(const std::vector<VariantResult>& point) {
    const std::lock_guard<std::mutex> lock(mutex_);
    auto& results = finished_.runs.back().results;
    results.insert(results.end(), point.begin(), point.end());
  }
  // The run's whole result, as the runner returned it, in place of its points.
  void end_run(const RunResult& run) {
    const std::lock_guard<std::mutex> lock(mutex_);
    finished_.runs.back() = run;
    finished_.running = false;
  }
  Copy copy() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return finished_;
  }

 private:
  mutable std::mutex mutex_;
  Copy finished_;
};

}  // namespace kmini
