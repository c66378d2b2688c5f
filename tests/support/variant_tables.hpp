// The apps' variant tables as this build has them, so that a test iterates over an app's table,
// or over the rows with a trait, instead of repeating a list of names that can drift from it.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "apps.hpp"
#include "core/registry.hpp"

namespace kmini::testing {

inline const AppSpec& app_named(const std::string& name) {
  static const AppRegistry registry(registered_apps());
  const AppSpec* app = registry.find(name);
  if (app == nullptr) throw std::logic_error("no app " + name);
  return *app;
}

// The names of `app`'s variants whose spec `wanted` accepts, in table order.
template <class Predicate>
std::vector<std::string> variant_names(const std::string& app, Predicate wanted) {
  std::vector<std::string> names;
  for (const VariantSpec& v : app_named(app).variants)
    if (wanted(v)) names.push_back(v.name);
  return names;
}

inline std::vector<std::string> variant_names(const std::string& app) {
  return variant_names(app, [](const VariantSpec&) { return true; });
}

}  // namespace kmini::testing
