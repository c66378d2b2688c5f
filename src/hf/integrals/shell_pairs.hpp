// Shell pairs (a, b) and their primitive products, the unit the ERI kernels work on.
//
// A pair is stored in canonical order, l_a >= l_b, so that its kind (ss, ps, pp, ds, dp or dd)
// names its angular momenta. By the Gaussian product theorem each pair of primitives with exponents
// alpha, beta is one Gaussian of exponent zeta = alpha + beta at P = (alpha A + beta B) / zeta,
// weighted by c_a c_b exp(-alpha beta / zeta |A - B|^2); those are precomputed once, with what
// the ERI kernels' primitive loop would otherwise divide by.
//
// A product whose every primitive quartet is negligible may be left out: its bound is the
// square root of its own s-type repulsion integral, |weight| sqrt(2 pi^{5/2}) / zeta /
// (2 zeta)^{1/4}, and a product whose bound times the largest product's is below the cutoff is
// dropped. Between atoms a few bohr apart the tight primitives' products vanish
// (exp(-alpha beta / zeta |A - B|^2) under 1e-20), yet a contracted pair's loop would visit them.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include <Kokkos_Core.hpp>

#include "hf/basis/cartesian.hpp"
#include "hf/basis/molecular_basis.hpp"

namespace kmini::hf {

// A canonical pair's kind numbers its (l_a, l_b), l_a >= l_b, as l_a (l_a + 1) / 2 + l_b: the
// kinds of s and p pairs keep their numbers when d pairs join them.
enum PairKind : int { kSS = 0, kPS = 1, kPP = 2, kDS = 3, kDP = 4, kDD = 5 };
constexpr int kPairKinds = (kMaxShellL + 1) * (kMaxShellL + 2) / 2;

KOKKOS_INLINE_FUNCTION constexpr int pair_kind(int la, int lb) {
  return la * (la + 1) / 2 + lb;
}
KOKKOS_INLINE_FUNCTION constexpr int bra_l_of_kind(int kind) {
  int la = 0;
  while ((la + 1) * (la + 2) / 2 <= kind)
    ++la;
  return la;
}
KOKKOS_INLINE_FUNCTION constexpr int ket_l_of_kind(int kind) {
  return kind - pair_kind(bra_l_of_kind(kind), 0);
}
const char* pair_kind_name(int kind);

// One primitive product of a pair, as the ERI kernels' primitive loop reads it. The fields that
// loop reads together lie side by side and the record is 16-byte aligned, so that a GPU thread
// reads a ket's product in a few 16-byte loads: the quartet kernels of the s classes were bound
// by the L1 traffic of one 8-byte load per field (docs/performance-notes.md).
struct alignas(16) PrimitiveProduct {
  double zeta;
  // weight sqrt(2 pi^{5/2}) / zeta: a primitive quartet's prefactor 2 pi^{5/2} / (zeta eta
  // sqrt(zeta + eta)) is the product of its two products' and 1 / sqrt(zeta + eta).
  double coulomb_weight;
  double center[3];  // P
  // The pair's products are ordered by `bound`, largest first; tail is the sum of the bounds
  // from this product to the pair's last (primitive screening, eri.hpp). Both are infinite until
  // order_products_by_bound sets them, which makes the screen keep every primitive quartet.
  double tail;
  double from_a[3];          // P - A
  double half_inverse_zeta;  // 1 / (2 zeta)
  // sqrt of the largest (pp|pp) of this one product over the pair's components: a primitive
  // quartet's share of any of its integrals is at most the product of its two products' bounds.
  double bound;
  double unused;
};

template <class Memory>
struct ShellPairs {
  Kokkos::View<int* [2], Kokkos::LayoutRight, Memory> shells;           // (a, b)
  Kokkos::View<int* [2], Kokkos::LayoutRight, Memory> first_functions;  // of a and of b
  Kokkos::View<double* [3], Kokkos::LayoutRight, Memory> ab;            // A - B
  Kokkos::View<int*, Memory> primitives_begin;  // pair i's products: [begin(i), begin(i+1))
  Kokkos::View<PrimitiveProduct*, Memory> products;

  std::size_t size() const { return shells.extent(0); }
};

// Every canonical pair of `basis`: l_a > l_b, or l_a == l_b and a >= b.
std::vector<std::array<int, 2>> canonical_pairs(const MolecularBasis& basis);

// The pairs' data on the host, in the order given. Each pair must be canonical. Products whose
// bound times the largest bound is below `product_cutoff` are left out (none with 0).
ShellPairs<Kokkos::HostSpace> make_shell_pairs(const MolecularBasis& basis,
                                               const std::vector<std::array<int, 2>>& pairs,
                                               double product_cutoff = 0.0);

// Sets each product's bound (bounds, one per product in the pairs' order) and orders every pair's
// products by it, largest first, with their tails.
void order_products_by_bound(ShellPairs<Kokkos::HostSpace>& pairs,
                             const std::vector<double>& bounds);

template <class Memory>
ShellPairs<Memory> copy_shell_pairs(const ShellPairs<Kokkos::HostSpace>& host) {
  ShellPairs<Memory> out;
  const auto copy = [](auto& to, const auto& from) {
    to = Kokkos::create_mirror_view_and_copy(Memory(), from);
  };
  copy(out.shells, host.shells);
  copy(out.first_functions, host.first_functions);
  copy(out.ab, host.ab);
  copy(out.primitives_begin, host.primitives_begin);
  copy(out.products, host.products);
  return out;
}

}  // namespace kmini::hf
