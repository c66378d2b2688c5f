#include "core/interrupt.hpp"

#include <semaphore.h>
#include <signal.h>
#include <time.h>

#include <cerrno>

#include <csignal>

namespace kmini::interrupt {

namespace {

volatile std::sig_atomic_t g_received = 0;
// When the first arrived (CLOCK_MONOTONIC, written once, by the first handler).
volatile long g_first_seconds = 0, g_first_nanoseconds = 0;

// A repeat within this of the first is the same request: GNU timeout sends its signal to the
// process and then to its process group, and a shell's job control may do alike; ended by such
// a pair, a run lost its whole report. A person's second Ctrl-C comes later than this.
constexpr double kSameRequestSeconds = 0.25;

// Posted once, by the first signal's handler (sem_post is async-signal-safe), for
// wait_for_first's thread.
struct FirstSignal {
  sem_t posted;
  FirstSignal() { sem_init(&posted, 0, 0); }
};
FirstSignal g_first_signal;

double seconds_since_first() {
  struct timespec now {};
  clock_gettime(CLOCK_MONOTONIC, &now);  // async-signal-safe
  return static_cast<double>(now.tv_sec - g_first_seconds) +
         1e-9 * static_cast<double>(now.tv_nsec - g_first_nanoseconds);
}

extern "C" void on_signal(int signal) {
  if (g_received != 0) {
    if (seconds_since_first() < kSameRequestSeconds) return;
    // A later one: the default action, now (both calls are async-signal-safe).
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  struct timespec now {};
  clock_gettime(CLOCK_MONOTONIC, &now);
  g_first_seconds = now.tv_sec;
  g_first_nanoseconds = now.tv_nsec;
  g_received = signal;
  sem_post(&g_first_signal.posted);
}

}  // namespace

void install() {
  std::signal(SIGPIPE, SIG_IGN);
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) {
    // A signal the caller ignores (a shell's background job ignores SIGINT) stays ignored.
    struct sigaction current {};
    if (sigaction(signal, nullptr, &current) == 0 && current.sa_handler == SIG_IGN) continue;
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    sigaction(signal, &action, nullptr);
  }
}

int received() {
  return static_cast<int>(g_received);
}

int received_before_exit() {
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction current {};
    // A signal the caller ignores stays ignored, as install() left it.
    if (sigaction(signal, nullptr, &current) == 0 && current.sa_handler == on_signal)
      std::signal(signal, SIG_DFL);
  }
  return received();
}

int wait_for_first() {
  while (sem_wait(&g_first_signal.posted) != 0 && errno == EINTR) {
  }
  return received();
}

double seconds_since_signal() {
  return received() == 0 ? 0.0 : seconds_since_first();
}

int requested(const Comm& comm) {
  return static_cast<int>(comm.max(static_cast<double>(g_received)));
}

void stop_if_requested(const Comm& comm) {
  if (const int signal = requested(comm); signal != 0) throw Interrupted(signal);
}

const char* name(int signal) {
  return signal == SIGINT    ? "SIGINT"
         : signal == SIGTERM ? "SIGTERM"
         : signal == SIGHUP  ? "SIGHUP"
                             : "a signal";
}

}  // namespace kmini::interrupt
