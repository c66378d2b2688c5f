// The stream app: BabelStream's kernels, validated, and the copy-bandwidth probe (src/core/
// ceiling.cpp runs its copy variant at start).
#pragma once

#include "core/app.hpp"

namespace kmini::stream {

AppSpec app_spec();

}  // namespace kmini::stream
