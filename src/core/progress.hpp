// Progress of a long run on stderr: one line rewritten in place, shown only when stderr is a
// terminal, only on rank 0, and only once the current run has taken a few seconds (3, or
// $KMINI_PROGRESS_AFTER_SECONDS), so that short runs, pipes and logs stay clean. The runner says
// where a run is (point, variant, repetition); an app's inner loop adds its own count (a sweep's
// iterations, an SCF's cycles).
#pragma once

#include <cstdint>
#include <string>

namespace kmini::progress {

// A run starts. `show` is false on every rank but rank 0; stderr must also be a terminal.
void start_run(bool show, const std::string& label);
// Which point of a swept run is running: "point 2 of 6"; empty for a run of one point.
void set_point(const std::string& point);
// Where the runner is within the point: "atomic, repetition 3 of 10".
void set_stage(const std::string& stage);
// An app's inner loop, once per step: "iteration 120 of 4000". `total` 0 means not known.
// Costs one clock read while shown and a flag test otherwise.
void step(const char* what, std::int64_t done, std::int64_t total);
// Erases the line, so that the terminal's normal output starts on a clean line.
void clear();

}  // namespace kmini::progress
