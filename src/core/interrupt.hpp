// SIGINT and SIGTERM during `kmini run`: the first stops the run at its next safe point (before
// a point or a variant), so that the report is written with what finished, marked INTERRUPTED;
// a second ends the process at once, as the signal's default would.
#pragma once

#include "core/comm.hpp"

namespace kmini::interrupt {

// Catches SIGINT and SIGTERM from here on.
void install();

// The signal that asked this process to stop, or 0.
int received();

// Whether any rank was asked to stop: a collective, so that every rank leaves at the same safe
// point and none waits in a collective the others have left. Returns the signal, or 0.
int requested(const Comm& comm);

// "SIGINT", "SIGTERM".
const char* name(int signal);

}  // namespace kmini::interrupt
