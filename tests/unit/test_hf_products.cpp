// Primitive products left out of their shell pairs (hf/shell_pairs.hpp): on a cluster whose atoms
// are bohrs apart, a cutoff drops many products yet moves no integral by more than the products'
// bounds allow, and a cutoff of zero keeps every product.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "hf/basis_set.hpp"
#include "hf/boys.hpp"
#include "hf/eri.hpp"
#include "hf/molecular_basis.hpp"
#include "hf/molecule.hpp"
#include "hf/shell_pairs.hpp"

namespace kmini::hf {
namespace {

using Host = Kokkos::HostSpace;

MolecularBasis water_cluster(const std::string& cluster, const std::string& basis) {
  const std::string root = std::string(KMINI_SOURCE_DIR) + "/inputs/";
  return place_basis(read_gaussian94(root + "basis/" + basis + ".gbs"),
                     read_xyz(root + "molecules/" + cluster + ".xyz", Units::angstrom));
}

std::size_t products(const ShellPairs<Host>& pairs) {
  return static_cast<std::size_t>(pairs.primitives_begin(pairs.size()));
}

TEST(HfProducts, ACutoffOfZeroKeepsEveryProduct) {
  const MolecularBasis basis = water_cluster("water-003", "6-31g");
  const auto list = canonical_pairs(basis);
  const ShellPairs<Host> pairs = make_shell_pairs(basis, list, 0.0);
  std::size_t all = 0;
  for (const auto& [a, b] : list)
    all += basis.shells[a].exponents.size() * basis.shells[b].exponents.size();
  EXPECT_EQ(products(pairs), all);
}

// The G builder's cutoff at the default threshold, 1e-12 x 1e-5. A dropped product's primitive
// quartets are each below the cutoff (in the s-type bound, which p functions' angular factors
// exceed by little), and no contracted quartet has more than 18 x 18 of them.
TEST(HfProducts, DroppedProductsMoveNoIntegralBeyondTheirBounds) {
  constexpr double kCutoff = 1e-17;
  constexpr double kTolerance = 1e-13;
  const MolecularBasis basis = water_cluster("water-008", "6-31g");
  const auto list = canonical_pairs(basis);
  const ShellPairs<Host> all = make_shell_pairs(basis, list, 0.0);
  const ShellPairs<Host> cut = make_shell_pairs(basis, list, kCutoff);
  // Between eight waters, tight primitives on different atoms: a good share goes.
  EXPECT_LT(products(cut), 0.9 * products(all));
  EXPECT_GT(products(cut), 0.3 * products(all));
  const BoysTable<Host> boys = make_boys_table<Host>();

  std::mt19937_64 rng(2026);
  std::uniform_int_distribution<int> pick(0, static_cast<int>(list.size()) - 1);
  int changed = 0;
  double largest_change = 0.0;
  for (int sample = 0; sample < 4000; ++sample) {
    int bra = pick(rng), ket = pick(rng);
    const int bra_kind = pair_kind(basis.shells[list[bra][0]].l, basis.shells[list[bra][1]].l);
    const int ket_kind = pair_kind(basis.shells[list[ket][0]].l, basis.shells[list[ket][1]].l);
    const bool swap = bra_kind < ket_kind;
    if (swap) std::swap(bra, ket);
    with_quartet_class(std::max(bra_kind, ket_kind), std::min(bra_kind, ket_kind), [&](auto cls) {
      using Class = decltype(cls);
      double want[Class::integrals], got[Class::integrals];
      eri_quartet<Class>(all, boys, bra, ket, want);
      eri_quartet<Class>(cut, boys, bra, ket, got);
      bool moved = false;
      for (int i = 0; i < Class::integrals; ++i) {
        EXPECT_NEAR(got[i], want[i], kTolerance) << "pairs " << bra << ", " << ket;
        largest_change = std::max(largest_change, std::abs(got[i] - want[i]));
        moved = moved || got[i] != want[i];
      }
      changed += moved;
    });
  }
  // The cutoff did reach the sampled quartets, so the bound above was put to the test.
  EXPECT_GT(changed, 100) << "largest change " << largest_change;
}

}  // namespace
}  // namespace kmini::hf
