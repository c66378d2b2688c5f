// The bridge app: seed 004's Brownian-bridge generator, any construction order, its GPU
// strategies side by side, at the memory-bandwidth limit.
#pragma once

#include "core/app.hpp"

namespace kmini::bridge {

AppSpec app_spec();

}  // namespace kmini::bridge
