#include "core/progress.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace kmini::progress {

namespace {

using Clock = std::chrono::steady_clock;

// Quiet for the first seconds of a run; then at most a few updates a second.
constexpr double kQuietSeconds = 3.0;
constexpr double kRefreshSeconds = 0.25;

struct State {
  bool enabled = false;
  bool line_shown = false;
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

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Whether the line is due for a redraw.
bool due() {
  const State& s = state();
  if (!s.enabled) return false;
  const auto now = Clock::now();
  if (std::chrono::duration<double>(now - s.run_start).count() < kQuietSeconds) return false;
  return !s.line_shown ||
         std::chrono::duration<double>(now - s.last_draw).count() >= kRefreshSeconds;
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
  if (due()) draw("");
}

void step(const char* what, std::int64_t done, std::int64_t total) {
  if (!due()) return;
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
