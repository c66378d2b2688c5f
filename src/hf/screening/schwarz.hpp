// Schwarz bounds Q_ab = sqrt(max |(ab|ab)|) of shell pairs: |(ab|cd)| <= Q_ab Q_cd.
#pragma once

#include <vector>

#include <Kokkos_Core.hpp>

#include "hf/integrals/shell_pairs.hpp"

namespace kmini::hf {

// One bound per pair, computed on the default execution space with the ERI kernels, in timed
// launches. `stop_requested` (null: never) is asked before each; once it says yes the bounds are
// left unfinished, for the caller's safe point to throw away.
std::vector<double> schwarz_bounds(const ShellPairs<Kokkos::HostSpace>& pairs,
                                   const std::vector<int>& pair_kinds,
                                   bool (*stop_requested)() = nullptr);

// The same for each primitive product on its own, one per product in the pairs' order: the
// primitive screen's bounds (order_products_by_bound).
std::vector<double> product_bounds(const ShellPairs<Kokkos::HostSpace>& pairs,
                                   const std::vector<int>& pair_kinds,
                                   bool (*stop_requested)() = nullptr);

}  // namespace kmini::hf
