#include "core/interrupt.hpp"

#include <signal.h>

#include <csignal>

namespace kmini::interrupt {

namespace {

volatile std::sig_atomic_t g_received = 0;

extern "C" void on_signal(int signal) {
  if (g_received != 0) {
    // The second: the default action, now (both calls are async-signal-safe).
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  g_received = signal;
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
