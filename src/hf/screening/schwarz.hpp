// Schwarz bounds Q_ab = sqrt(max |(ab|ab)|) of shell pairs: |(ab|cd)| <= Q_ab Q_cd.
#pragma once

#include <array>
#include <vector>

#include <Kokkos_Core.hpp>

#include "hf/basis/molecular_basis.hpp"
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

// Primitive products are dropped below this times the screening threshold (shell_pairs.hpp):
// the builds from a change of the density screen down to a hundredth of the threshold
// (IncrementalG), which leaves three orders of magnitude between the smallest quartet bound any
// build keeps and the largest primitive quartet left out.
constexpr double kProductCutoffPerThreshold = 1e-5;

// Every canonical shell pair of a basis, its kind, and the pairs' primitive products, each
// pair's ordered by its products' bounds (order_products_by_bound), those under
// kProductCutoffPerThreshold times the threshold left out: what the G builder and the J engine
// both start from, made once a case and shared (copies share the host Views).
struct BoundedPairs {
  std::vector<std::array<int, 2>> shells;
  std::vector<int> kinds;
  ShellPairs<Kokkos::HostSpace> host;
};

// `stop_requested` as in schwarz_bounds: once it says yes the products' bounds are left
// unfinished, for the caller's safe point to throw away.
BoundedPairs bounded_pairs(const MolecularBasis& basis, double threshold,
                           bool (*stop_requested)() = nullptr);

}  // namespace kmini::hf
