// The terminal view of a run: a heading, then one table per point as it completes.
#pragma once

#include <ostream>
#include <vector>

#include "core/config.hpp"
#include "core/runner.hpp"

namespace kmini {

void print_run_heading(std::ostream& out, const RunSpec& run);
void print_point(std::ostream& out, const RunSpec& run, const std::vector<VariantResult>& point);

}  // namespace kmini
