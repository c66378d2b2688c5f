// `kmini run --dry-run`: what each run would need and do, without running it. Per point: the
// device memory a rank needs, the variants and repetitions, and the work under each app's byte
// and flop model, from the same formulas the apps count their work with.
#pragma once

#include <ostream>

namespace kmini {

class Comm;
struct Input;

// Collective (the estimates depend on each rank's share); rank 0's `out` is the one printed.
void print_dry_run(std::ostream& out, const Input& input, const Comm& comm);

}  // namespace kmini
