// The last resort for a signal that finds no safe point soon enough: one long kernel launch on a
// host, one dense eigensolver call, a rank waiting in a collective for another that is inside
// either. The safe points (core/interrupt.hpp) stay the way a run stops; this only bounds how
// long a signal can wait for one.
//
// While a LastResort lives, a thread waits for the first signal. If the run has not begun its
// own ending (finish()) within kSeconds of it, the thread calls `write_what_finished(signal)`,
// which writes the report of what had finished, as the run itself would have at its next safe
// point, removes the temporary files of writes the run had under way, and ends the process at
// once with 128 + signal, the signal's own status.
#pragma once

#include <atomic>
#include <functional>
#include <memory>

namespace kmini {

class LastResort {
 public:
  // Past the safe points' usual latency (0.1-0.6 s on a loaded host), within the second that a
  // signal may wait, with time left for the report's write.
  static constexpr double kSeconds = 0.6;

  explicit LastResort(std::function<void(int signal)> write_what_finished);
  // The run ended its own way: the thread does nothing more (as finish()).
  ~LastResort();
  LastResort(const LastResort&) = delete;
  LastResort& operator=(const LastResort&) = delete;

  // The run's own ending begins (its report about to be written): the thread leaves it alone
  // from here on. Where the thread has begun its ending first, waits for it to end the process.
  void finish();

  enum State : int { armed, finishing, firing };

 private:
  std::shared_ptr<std::atomic<int>> state_;
};

}  // namespace kmini
