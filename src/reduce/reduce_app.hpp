// The reduce app (seed 003): the sum of N values, by one atomic per element, by per-work-item
// chunks read contiguously or strided, by warp-aggregated atomics, by parallel_reduce, and on
// the host.
#pragma once

#include "core/app.hpp"

namespace kmini::reduce {

AppSpec app_spec();

}  // namespace kmini::reduce
