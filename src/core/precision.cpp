#include "core/precision.hpp"

namespace kmini {

const Choice<Precision>& precision_choice() {
  static const Choice<Precision> choice{
      "precision", {{"float", Precision::float32}, {"double", Precision::float64}}};
  return choice;
}

ParamSpec precision_param(Precision default_value, std::string doc) {
  return precision_choice().param(default_value, std::move(doc)).sweepable();
}

Precision precision_of(const Params& params) {
  return precision_choice().of(params);
}

std::size_t bytes_of(Precision precision) {
  return precision == Precision::float32 ? sizeof(float) : sizeof(double);
}

}  // namespace kmini
