#include "core/last_resort.hpp"

#include <unistd.h>

#include <chrono>
#include <thread>

#include "core/atomic_file.hpp"
#include "core/interrupt.hpp"

namespace kmini {

namespace {

// How often the thread looks whether the run has begun its ending, once a signal has come.
constexpr auto kPoll = std::chrono::milliseconds(10);

void wait_and_end(const std::shared_ptr<std::atomic<int>>& state,
                  const std::function<void(int)>& write_what_finished) {
  const int signal = interrupt::wait_for_first();
  while (interrupt::seconds_since_signal() < LastResort::kSeconds) {
    if (state->load() != LastResort::armed) return;
    std::this_thread::sleep_for(kPoll);
  }
  int expected = LastResort::armed;
  if (!state->compare_exchange_strong(expected, LastResort::firing)) return;
  try {
    write_what_finished(signal);
  } catch (...) {
    // Nothing more can be saved: the process still ends with the signal's status.
  }
  remove_unfinished_temporaries();
  _exit(128 + signal);
}

}  // namespace

LastResort::LastResort(std::function<void(int)> write_what_finished)
    : state_(std::make_shared<std::atomic<int>>(armed)) {
  // Detached: with no signal it waits for ever, and the process ends around it. It holds the
  // state, and calls the function only while armed, which the destructor ends first.
  std::thread(wait_and_end, state_, std::move(write_what_finished)).detach();
}

LastResort::~LastResort() {
  finish();
}

void LastResort::finish() {
  int expected = armed;
  if (state_->compare_exchange_strong(expected, finishing) || expected == finishing) return;
  // The thread is writing the report and will end the process.
  for (;;)
    pause();
}

}  // namespace kmini
