// SIGINT, SIGTERM and SIGHUP during `kmini run`: the first stops the run at its next safe point,
// so that the report is written with what finished, marked INTERRUPTED; a second, a quarter of a
// second or more after the first, ends the process at once, as the signal's default would
// (sooner, it is the same request sent twice, as GNU timeout sends it). Safe points come between
// points, variants and repetitions, and inside long loops (an SCF's cycles, himeno's iterations,
// the end of each hf G build, which stops launching at its next class, batch or chunk once
// received() says so), where stop_if_requested throws Interrupted for the runner to catch: the
// variant under way is left out, those before it kept. Where a signal finds no safe point within
// 0.6 s (one long launch or library call), core/last_resort.hpp ends the run there.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>

#include "core/comm.hpp"

namespace kmini::interrupt {

// Catches SIGINT, SIGTERM and SIGHUP from here on, and ignores SIGPIPE, so that a closed pipe on
// stdout fails the writes (the run goes on and writes its report) instead of ending the process.
void install();

// The signal that asked this process to stop, or 0.
int received();

// received(), once SIGINT, SIGTERM and SIGHUP are given back their default actions: a signal
// after this call ends the process as the signal's default would, so that none is caught and
// then never looked at. For the process's last look, before it exits.
int received_before_exit();

// Blocks the calling thread until the first signal has come, and returns it: for
// core/last_resort.hpp's thread. Once only: a later call waits for ever.
int wait_for_first();

// Seconds since the first signal came, 0 before one has.
double seconds_since_signal();

// Whether any rank was asked to stop: a collective, so that every rank leaves at the same safe
// point and none waits in a collective the others have left. Returns the signal, or 0.
int requested(const Comm& comm);

// Thrown by stop_if_requested: a signal stopped the run inside a variant.
struct Interrupted : std::exception {
  explicit Interrupted(int signal_number) : signal(signal_number) {}
  const char* what() const noexcept override { return "interrupted by a signal"; }
  int signal;
};

// A safe point inside a variant: throws Interrupted when any rank was asked to stop. A
// collective, as requested is.
void stop_if_requested(const Comm& comm);

// Work over [0, n) one slice at a time, body(begin, end), until a signal has come: a setup's
// long host loop or fill, which then leaves the rest undone for the caller's safe point
// (stop_if_requested) to throw away. A slice is `slice` items, by default a few million, a
// fraction of a second of a host's random-access loop: a billion histogram samples drawn and
// counted at once kept a signal waiting over a minute.
constexpr std::int64_t kItemsBetweenSignalChecks = std::int64_t{1} << 22;
template <class Body>
void for_each_slice_until_signal(std::int64_t n, std::int64_t slice, const Body& body) {
  for (std::int64_t begin = 0; begin < n && received() == 0; begin += slice)
    body(begin, std::min(n, begin + slice));
}
template <class Body>
void for_each_slice_until_signal(std::int64_t n, const Body& body) {
  for_each_slice_until_signal(n, kItemsBetweenSignalChecks, body);
}

// "SIGINT", "SIGTERM", "SIGHUP".
const char* name(int signal);

}  // namespace kmini::interrupt
