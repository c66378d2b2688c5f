// The apps kmini knows, by name. main.cpp fills it from src/apps.hpp; nothing else lists apps.
#pragma once

#include <string>
#include <vector>

#include "core/app.hpp"
#include "core/params.hpp"

namespace kmini {

// Parameters every app has; the registry puts them in front of the app's own (kVariantKey too,
// core/variant.hpp).
inline constexpr const char* kRepetitionsKey = "repetitions";
inline constexpr const char* kWarmupKey = "warmup";
inline constexpr const char* kLabelKey = "label";

class AppRegistry {
 public:
  // Checks each spec (unique names, one baseline, no clash with the common parameters, at most
  // one app probing the ceilings) and adds the common parameters. A bad spec is a programming
  // error: std::logic_error.
  explicit AppRegistry(std::vector<AppSpec> apps);

  const AppSpec* find(const std::string& name) const;
  // The app that measures the bandwidth ceilings, or nullptr where none does.
  const AppSpec* prober() const;
  const std::vector<AppSpec>& apps() const { return apps_; }
  std::vector<std::string> names() const;

 private:
  std::vector<AppSpec> apps_;
};

}  // namespace kmini
