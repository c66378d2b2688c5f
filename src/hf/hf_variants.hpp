// The hf app's variants: one per row of the G update table (fock/g_update.hpp), then auto.
#pragma once

#include "core/variant.hpp"
#include "hf/fock/g_update.hpp"

namespace kmini::hf {

// The update G is built with: a row of g_updates(), or none for the meta-variant auto, which
// chooses one per class (hf/fock/auto_update.hpp).
using GBuildChoice = const GUpdate*;

const VariantTable<GBuildChoice>& variant_table();

}  // namespace kmini::hf
