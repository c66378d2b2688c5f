#include "hf/hf_variants.hpp"

#include <utility>
#include <vector>

namespace kmini::hf {

// The G updates' rows, then auto.
const VariantTable<GBuildChoice>& variant_table() {
  static const VariantTable<GBuildChoice> table = [] {
    std::vector<VariantRow<GBuildChoice>> rows;
    for (const GUpdate& update : g_updates())
      rows.push_back({update.name, update.doc, update.weight, update.traits, &update});
    // Its trials include kernel_split, so it sizes the integral buffer too.
    rows.push_back({"auto",
                    "the fastest update class by class, timed in the SCF's second G build (the "
                    "first, from the guess, takes atomic): each class's quartets are shared out "
                    "in stripes among atomic, warp_aggregated and kernel_split (and cpu on a "
                    "host-only build), and each class keeps the one with the least time per "
                    "quartet; metrics auto_chose_NAME_for_CLASS say which",
                    0.0, on_device().as_meta().with_buffer(), nullptr});
    return VariantTable<GBuildChoice>(std::move(rows));
  }();
  return table;
}

}  // namespace kmini::hf
