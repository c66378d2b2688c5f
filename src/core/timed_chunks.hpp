// Work launched chunk by chunk, each chunk kept short in time, so that a stop request asked
// between chunks (a signal) is seen within a bound however large the problem: hf's G build and
// J engine, bridge's normals. The callers size their chunks by count; a chunk that outlasts the
// bound makes the ones after it smaller in proportion, aiming at half the bound, never below a
// floor that keeps a launch worth its overhead. Where the work is cut changes no result.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace kmini {

class TimedChunks {
 public:
  // The longest a launch should take by default: the process then ends well within a second
  // of a signal.
  static constexpr double kBoundSeconds = 0.25;

  // Chunks of `size` at first, never below `smallest` (nor above the first) once they shrink,
  // each meant to take under `bound_seconds`.
  TimedChunks(std::int64_t size, std::int64_t smallest, double bound_seconds = kBoundSeconds)
      : size_(std::max<std::int64_t>(1, size)),
        smallest_(std::clamp<std::int64_t>(smallest, 1, size_)),
        bound_(bound_seconds) {}

  std::int64_t size() const { return size_; }

  // The chunk just launched, of size(), took `seconds`, fenced.
  void took(double seconds) { took(seconds, size_); }

  // The chunk just launched, of `launched` (the last of a range may be smaller than size()),
  // took `seconds`, fenced: the next are sized by its rate.
  void took(double seconds, std::int64_t launched) {
    longest_ = std::max(longest_, seconds);
    if (seconds <= bound_) return;
    const double shrunk = static_cast<double>(launched) * 0.5 * bound_ / seconds;
    size_ = std::max(smallest_, std::min(size_, static_cast<std::int64_t>(shrunk)));
  }

  // The longest chunk so far.
  double longest() const { return longest_; }

 private:
  std::int64_t size_, smallest_;
  double bound_;
  double longest_ = 0.0;
};

// [first, first + count) in launches that `chunks` sizes by their time: launch(begin, size)
// launches one and fences it. Before each, stop() is asked; once it says yes the rest is left
// undone and false returned. `longest` keeps the longest launch.
template <class Stop, class Launch>
bool for_each_timed_chunk(TimedChunks& chunks, std::int64_t first, std::int64_t count,
                          const Stop& stop, const Launch& launch, double& longest) {
  using Clock = std::chrono::steady_clock;
  for (std::int64_t begin = first; begin < first + count;) {
    if (stop()) return false;
    const Clock::time_point start = Clock::now();
    const std::int64_t size = std::min(chunks.size(), first + count - begin);
    launch(begin, size);
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    chunks.took(seconds, size);
    longest = std::max(longest, seconds);
    begin += size;
  }
  return true;
}

}  // namespace kmini
