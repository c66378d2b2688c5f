// The working precision the apps offer as `precision`, and the dispatch from it to an app's Case
// of float or double.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "core/app.hpp"
#include "core/choice.hpp"

namespace kmini {

enum class Precision { float32, float64 };

const Choice<Precision>& precision_choice();

// `precision`: float or double, sweepable.
ParamSpec precision_param(Precision default_value, std::string doc);

Precision precision_of(const Params& params);
std::size_t bytes_of(Precision precision);

// The size of one element of the point's precision.
inline std::size_t element_bytes(const Params& params) {
  return bytes_of(precision_of(params));
}

// The app's Case in the point's precision, CaseOf<float> or CaseOf<double>, built from the point:
// an AppSpec::setup.
template <template <class> class CaseOf>
std::unique_ptr<Case> setup_in_precision(const Params& params, const RunContext& context) {
  if (precision_of(params) == Precision::float32)
    return std::make_unique<CaseOf<float>>(params, context);
  return std::make_unique<CaseOf<double>>(params, context);
}

}  // namespace kmini
