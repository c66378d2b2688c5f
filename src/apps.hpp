// The one list of kmini's apps. A new app adds its spec here and nowhere else.
#pragma once

#include <vector>

#include "core/app.hpp"

namespace kmini {

// Every app, in the order `kmini list` shows them.
std::vector<AppSpec> registered_apps();

}  // namespace kmini
