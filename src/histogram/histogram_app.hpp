// The histogram app (the seed's §3.1): the cost of atomic contention, and what aggregating the
// atomics of a warp or a block buys, from one bin to ten million.
#pragma once

#include "core/app.hpp"

namespace kmini::histogram {

AppSpec app_spec();

}  // namespace kmini::histogram
