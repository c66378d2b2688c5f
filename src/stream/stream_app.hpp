// The stream app: BabelStream's kernels, validated, and the bandwidth ceilings' probe: its copy,
// deep_copy and dot variants declare the ceiling each measures, which core/ceiling.cpp runs at
// the start of every run.
#pragma once

#include "core/app.hpp"

namespace kmini::stream {

AppSpec app_spec();

}  // namespace kmini::stream
