#include "core/variant.hpp"

#include <algorithm>

namespace kmini {

const char* ceiling_name(Ceiling ceiling) {
  return ceiling == Ceiling::read ? "read" : "copy";
}

std::vector<const VariantSpec*> select_variants(const std::vector<VariantSpec>& variants,
                                                const std::vector<std::string>& names) {
  std::vector<const VariantSpec*> out;
  const auto add = [&out](const VariantSpec& v) {
    if (std::find(out.begin(), out.end(), &v) == out.end()) out.push_back(&v);
  };
  for (const auto& name : names) {
    for (const auto& v : variants) {
      if (name == kAllVariants || v.name == name) add(v);
    }
  }
  return out;
}

}  // namespace kmini
