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
  // The point under way's variants so far: a copy holds them after the points before it.
  void set_point_so_far(const std::vector<VariantResult>& so_far) {
    const std::lock_guard<std::mutex> lock(mutex_);
    point_so_far_ = so_far;
  }
  void add_point(const std::vector<VariantResult>& point) {
    const std::lock_guard<std::mutex> lock(mutex_);
    auto& results = finished_.runs.back().results;
    results.insert(results.end(), point.begin(), point.end());
    point_so_far_.clear();
  }
  // The run's whole result, as the runner returned it, in place of its points.
  void end_run(const RunResult& run) {
    const std::lock_guard<std::mutex> lock(mutex_);
    finished_.runs.back() = run;
    finished_.running = false;
    point_so_far_.clear();
  }
  Copy copy() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    Copy copy = finished_;
    if (copy.running) {
      auto& results = copy.runs.back().results;
      results.insert(results.end(), point_so_far_.begin(), point_so_far_.end());
    }
    return copy;
  }

 private:
  mutable std::mutex mutex_;
  Copy finished_;
  std::vector<VariantResult> point_so_far_;
};

}  // namespace kmini
