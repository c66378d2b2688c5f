// The one list of kmini's apps. A new app is its folder (sources, CMakeLists.txt) and its line in
// src/apps.cpp.
#pragma once

#include <vector>

#include "core/app.hpp"

namespace kmini {

// Every app, in the order `kmini list` shows them.
std::vector<AppSpec> registered_apps();

}  // namespace kmini
