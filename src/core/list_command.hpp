// `kmini list [APP] [--markdown]`: the apps, their parameters and variants, read from the specs.
#pragma once

#include <ostream>
#include <string>

#include "core/registry.hpp"

namespace kmini {

// Throws InputError for an unknown app.
void list_apps(const AppRegistry& registry, const std::string& only_app, bool markdown,
               std::ostream& out);

}  // namespace kmini
