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

Work work_of(const Counts& counts, const VariantSpec& variant) {
  return Work{variant.weight * counts.unit_bytes, counts.flops, counts.items};
}

const VariantSpec* AppSpec::find_variant(const std::string& variant_name) const {
  return find_named(variants, variant_name);
}

std::vector<std::string> AppSpec::variant_names() const {
  return names_of(variants);
}

const ParamSpec* AppSpec::find_param(const std::string& param_name) const {
  return find_named(params, param_name);
}

std::vector<std::string> AppSpec::param_names() const {
  return names_of(params);
}

}  // namespace kmini
