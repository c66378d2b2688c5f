#include "core/progress.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "core/timing.hpp"

namespace kmini::progress {

namespace {

// Quiet for the first seconds of a run (KMINI_PROGRESS_AFTER_SECONDS, default 3); then at most a
// few updates a second.
constexpr double kDefaultQuietSeconds = 3.0;
constexpr double kRefreshSeconds = 0.25;

double quiet_seconds() {
  const char* text = std::getenv("KMINI_PROGRESS_AFTER_SECONDS");
  if (text == nullptr) return kDefaultQuietSeconds;
  char* end = nullptr;
  const double seconds = std::strtod(text, &end);
  return end != text && *end == '\0' && seconds >= 0.0 ? seconds : kDefaultQuietSeconds;
}

struct State {
  bool enabled = false;
  bool line_shown = false;
  // The stage changed and no step has been drawn since: the next step is drawn unthrottled, so
  // that each stage shows its count at least once.
  bool step_pending = false;
  double quiet_seconds = kDefaultQuietSeconds;
  Clock::time_point run_start;
  Clock::time_point last_draw;
  std::string label;
  std::string point;
  std::string stage;
};

State& state() {
  static State s;
  return s;
}

bool past_quiet_period() {
  const State& s = state();
  return s.enabled && seconds_since(s.run_start) >= s.quiet_seconds;
}

// Whether the line is due for a redraw.
bool due() {
  const State& s = state();
  return past_quiet_period() && (!s.line_shown || seconds_since(s.last_draw) >= kRefreshSeconds);
}

void draw(const std::string& detail) {
  State& s = state();
  s.last_draw = Clock::now();
  s.line_shown = true;
  std::string line = s.label + ":";
  const std::string* parts[] = {&s.point, &s.stage, &detail};
  for (const std::string* part : parts) {
    if (!part->empty()) line += " " + *part + ",";
  }
  line.pop_back();
  line += " (" + std::to_string(static_cast<long long>(seconds_since(s.run_start))) + " s)";
  // \r and erase-to-end-of-line: the line is rewritten in place.
  std::fprintf(stderr, "\r%s\033[K", line.c_str());
  std::fflush(stderr);
}

}  // namespace

void start_run(bool show, const std::string& label) {
  clear();
  State& s = state();
  s.enabled = show && isatty(fileno(stderr)) == 1;
  s.quiet_seconds = quiet_seconds();
  s.run_start = Clock::now();
  s.label = label;
  s.point.clear();
  s.stage.clear();
}

void set_point(const std::string& point) {
  state().point = point;
}

void set_stage(const std::string& stage) {
  State& s = state();
  if (!s.enabled) return;
  s.stage = stage;
  s.step_pending = true;
  if (due()) draw("");
}

void step(const char* what, std::int64_t done, std::int64_t total) {
  State& s = state();
  if (!(s.step_pending ? past_quiet_period() : due())) return;
  s.step_pending = false;
  std::string detail = std::string(what) + " " + std::to_string(static_cast<long long>(done));
  if (total > 0) detail += " of " + std::to_string(static_cast<long long>(total));
  draw(detail);
}

void clear() {
  State& s = state();
  if (!s.line_shown) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  s.line_shown = false;
}

}  // namespace kmini::progress
