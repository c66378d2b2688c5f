#include "core/registry.hpp"

#include <set>
#include <stdexcept>

namespace kmini {

namespace {

std::vector<ParamSpec> common_params(const AppSpec& app) {
  std::vector<std::string> choices = app.variant_names();
  choices.push_back(kAllVariants);
  return {
      ParamSpec::string_list(kVariantKey, app.default_variants, choices,
                             "variants to run, side by side; 'all' runs every one"),
      ParamSpec::integer(kRepetitionsKey, app.default_repetitions,
                         "timed repetitions per variant; statistics are over these")
          .range(1, 100000),
      ParamSpec::integer(kWarmupKey, app.default_warmup,
                         "untimed repetitions before the timed ones")
          .range(0, 1000),
      ParamSpec::string(kLabelKey, "", "a name for this run in tables and reports"),
  };
}

void check_spec(const AppSpec& app) {
  auto fail = [&](const std::string& what) {
    throw std::logic_error("app spec '" + app.name + "': " + what);
  };
  if (app.name.empty()) fail("no name");
  if (app.variants.empty()) fail("no variants");
  if (!app.setup) fail("no setup function");
  int baselines = 0;
  std::set<std::string> variant_names;
  for (const auto& v : app.variants) {
    if (!variant_names.insert(v.name).second) fail("variant '" + v.name + "' twice");
    if (v.name == kAllVariants) fail("a variant may not be called 'all'");
    baselines += v.traits.baseline ? 1 : 0;
  }
  if (baselines != 1) fail("needs exactly one baseline variant");
  bool probes = false;
  for (const auto& v : app.variants)
    probes = probes || v.traits.probes.has_value();
  if (probes != app.probe.has_value()) fail("a ceiling probe needs both its variants and its run");
  std::set<std::string> param_names{kVariantKey, kRepetitionsKey, kWarmupKey, kLabelKey, "app"};
  for (const auto& p : app.params) {
    if (!param_names.insert(p.name).second) fail("parameter '" + p.name + "' clashes");
    if (p.sweep && (p.is_list() || p.type == ParamType::boolean)) {
      fail("parameter '" + p.name + "' cannot be swept: only numbers and words can");
    }
  }
}

}  // namespace

AppRegistry::AppRegistry(std::vector<AppSpec> apps) : apps_(std::move(apps)) {
  std::set<std::string> names;
  int probes = 0;
  for (auto& app : apps_) {
    probes += app.probe ? 1 : 0;
    check_spec(app);
    if (!names.insert(app.name).second) {
      throw std::logic_error("two apps are called '" + app.name + "'");
    }
    for (std::size_t i = 0; i < app.variants.size(); ++i)
      app.variants[i].index = i;
    auto params = common_params(app);
    params.insert(params.end(), app.params.begin(), app.params.end());
    app.params = std::move(params);
  }
  if (probes > 1) throw std::logic_error("more than one app probes the ceilings");
}

const AppSpec* AppRegistry::prober() const {
  for (const auto& app : apps_)
    if (app.probe) return &app;
  return nullptr;
}

const AppSpec* AppRegistry::find(const std::string& name) const {
  return find_named(apps_, name);
}

std::vector<std::string> AppRegistry::names() const {
  return names_of(apps_);
}

}  // namespace kmini
