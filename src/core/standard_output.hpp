// Whether what a command printed reached standard output: a closed pipe or a full disk loses it
// without a signal (SIGPIPE is ignored during runs), and only a flush finds out.
#pragma once

#include <ostream>
#include <string>

namespace kmini {

// Flushes `out` (std::cout, or a stream over it) and C's stdout; returns "" where both took what
// was printed, else why not (the failed write's error, or "a write failed").
std::string standard_output_lost(std::ostream& out);

}  // namespace kmini
