#include "core/app.hpp"

#include <cmath>

namespace kmini {

Validation Validation::within(std::string metric, double value, double tolerance) {
  Validation v;
  v.metric = std::move(metric);
  v.value = value;
  v.tolerance = tolerance;
  // NaN compares false, so a NaN error can never pass.
  v.status = std::isfinite(value) && value <= tolerance ? Status::pass : Status::fail;
  return v;
}

const VariantSpec* AppSpec::find_variant(const std::string& variant_name) const {
  for (const auto& v : variants) {
    if (v.name == variant_name) return &v;
  }
  return nullptr;
}

const VariantSpec* AppSpec::baseline() const {
  for (const auto& v : variants) {
    if (v.baseline) return &v;
  }
  return nullptr;
}

std::vector<std::string> AppSpec::variant_names() const {
  std::vector<std::string> names;
  for (const auto& v : variants)
    names.push_back(v.name);
  return names;
}

const ParamSpec* AppSpec::find_param(const std::string& param_name) const {
  for (const auto& p : params) {
    if (p.name == param_name) return &p;
  }
  return nullptr;
}

std::vector<std::string> AppSpec::param_names() const {
  std::vector<std::string> names;
  for (const auto& p : params)
    names.push_back(p.name);
  return names;
}

}  // namespace kmini
