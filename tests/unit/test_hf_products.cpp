// Primitive products left out of their shell pairs (hf/integrals/shell_pairs.hpp): on a cluster
// whose atoms are bohrs apart, a cutoff drops many products yet moves no integral by more than the
// products' bounds allow, and a cutoff of zero keeps every product. The primitive screen
// (hf/integrals/eri.hpp) leaves out of each integral no more than its cutoff, and nothing without
// one.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "hf/basis/basis_set.hpp"
#include "hf/basis/molecular_basis.hpp"
#include "hf/basis/molecule.hpp"
#include "hf/integrals/boys.hpp"
#include "hf/integrals/eri.hpp"
#include "hf/integrals/integrals_host.hpp"
#include "hf/integrals/shell_pairs.hpp"
#include "hf/screening/schwarz.hpp"
#include "support/test_paths.hpp"

namespace kmini::hf {
namespace {

using Host = Kokkos::HostSpace;

MolecularBasis water_cluster(const std::string& cluster, const std::string& basis) {
  const std::string root = kmini::testing::source_dir() + "/inputs/";
  return place_basis(read_gaussian94(root + "basis/" + basis + ".gbs"),
                     read_xyz(root + "molecules/" + cluster + ".xyz", Units::angstrom));
}

std::size_t products(const ShellPairs<Host>& pairs) {
  return static_cast<std::size_t>(pairs.primitives_begin(pairs.size()));
}

// Between two centres every pair of primitives is a product; on one centre, every distinct
// exponent sum, with the weights of the pairs of primitives that share it summed.
TEST(HfProducts, ACutoffOfZeroKeepsEveryProduct) {
  const MolecularBasis basis = water_cluster("water-003", "6-31g");
  const auto list = canonical_pairs(basis);
  const ShellPairs<Host> pairs = make_shell_pairs(basis, list, 0.0);
  std::size_t one_centre_merged = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const PlacedShell& a = basis.shells[list[i][0]];
    const PlacedShell& b = basis.shells[list[i][1]];
    const int begin = pairs.primitives_begin(i), end = pairs.primitives_begin(i + 1);
    const std::size_t all = a.exponents.size() * b.exponents.size();
    if (a.center != b.center) {
      EXPECT_EQ(static_cast<std::size_t>(end - begin), all) << "pair " << i;
      continue;
    }
    std::vector<double> sums;
    double weight = 0.0;
    for (std::size_t pa = 0; pa < a.exponents.size(); ++pa)
      for (std::size_t pb = 0; pb < b.exponents.size(); ++pb) {
        sums.push_back(a.exponents[pa] + b.exponents[pb]);
        weight += a.coefficients[pa] * b.coefficients[pb];
      }
    std::sort(sums.begin(), sums.end());
    sums.erase(std::unique(sums.begin(), sums.end()), sums.end());
    EXPECT_EQ(static_cast<std::size_t>(end - begin), sums.size()) << "pair " << i;
    one_centre_merged += all - sums.size();
    double stored = 0.0;  // coulomb_weight is the weight times sqrt(2 pi^{5/2}) / zeta
    for (int k = begin; k < end; ++k)
      stored += pairs.products(k).coulomb_weight * pairs.products(k).zeta / 5.914967172795613;
    EXPECT_NEAR(stored, weight, 1e-13 * std::fabs(weight)) << "pair " << i;
  }
  // Oxygen's 1s with itself keeps 21 of its 36, its 2sp's s with its p 6 of 9.
  EXPECT_GT(one_centre_merged, 0u);
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
      eri_quartet_block(all, boys, Class::bra_kind, Class::ket_kind, bra, ket, want);
      eri_quartet_block(cut, boys, Class::bra_kind, Class::ket_kind, bra, ket, got);
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

// The pairs as the G builder and the J engine start from them (bounded_pairs), none of their
// products left out (threshold 0), with their Schwarz bounds.
struct OrderedPairs : BoundedPairs {
  std::vector<double> schwarz;
};

OrderedPairs ordered_pairs(const MolecularBasis& basis) {
  OrderedPairs out;
  static_cast<BoundedPairs&>(out) = bounded_pairs(basis, 0.0);
  out.schwarz = schwarz_bounds(out.host, out.kinds);
  return out;
}

// The bounds go in timed launches, a stop asked before each (a large cluster's took seconds in
// one): never asked to stop, they are those of no question, bit for bit; stopped at the first
// question, none is computed; stopped at the second, the first launch's kind alone is. A kernel
// that asked nothing would compute them all every time.
int g_bound_questions_before_stop = 0;
bool stop_bounds_when_counted_down() {
  return g_bound_questions_before_stop-- <= 0;
}

TEST(HfProducts, SchwarzBoundsGoInLaunchesAStopAskedBeforeEach) {
  const OrderedPairs ordered = ordered_pairs(water_cluster("water-003", "6-31g"));
  const auto computed = [](const std::vector<double>& bounds) {
    return std::count_if(bounds.begin(), bounds.end(), [](double q) { return q > 0.0; });
  };
  g_bound_questions_before_stop = 1 << 30;
  EXPECT_EQ(schwarz_bounds(ordered.host, ordered.kinds, stop_bounds_when_counted_down),
            ordered.schwarz);
  EXPECT_EQ(computed(ordered.schwarz), static_cast<std::ptrdiff_t>(ordered.schwarz.size()));
  g_bound_questions_before_stop = 0;
  EXPECT_EQ(computed(schwarz_bounds(ordered.host, ordered.kinds, stop_bounds_when_counted_down)),
            0);
  g_bound_questions_before_stop = 1;
  const auto first_kind =
      computed(schwarz_bounds(ordered.host, ordered.kinds, stop_bounds_when_counted_down));
  EXPECT_GT(first_kind, 0);
  EXPECT_LT(first_kind, static_cast<std::ptrdiff_t>(ordered.schwarz.size()));
}

TEST(HfProducts, ProductsAreOrderedByBoundWithTheirTails) {
  const OrderedPairs ordered = ordered_pairs(water_cluster("water-003", "6-31g"));
  const ShellPairs<Host>& pairs = ordered.host;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const int begin = pairs.primitives_begin(i), end = pairs.primitives_begin(i + 1);
    double tail = 0.0;
    for (int k = end - 1; k >= begin; --k) {
      tail += pairs.products(k).bound;
      // Zero only where the product's own integral underflows (atoms far apart, no cutoff).
      EXPECT_GE(pairs.products(k).bound, 0.0);
      if (std::abs(pairs.products(k).coulomb_weight) > 1e-100) {
        EXPECT_GT(pairs.products(k).bound, 0.0);
      }
      EXPECT_DOUBLE_EQ(pairs.products(k).tail, tail);
      if (k > begin) {
        EXPECT_GE(pairs.products(k - 1).bound, pairs.products(k).bound);
      }
    }
    // (ab|ab) is the sum of its products' shares, each at most the product of their bounds.
    EXPECT_LE(ordered.schwarz[i], pairs.products(begin).tail * (1.0 + 1e-12)) << "pair " << i;
  }
}

// A cutoff of a few tenths of the quartet's Schwarz bound leaves out a good share of the
// contraction of most contracted quartets, and still no integral moves by more than the cutoff.
TEST(HfProducts, ThePrimitiveScreenLeavesOutNoMoreThanItsCutoff) {
  const MolecularBasis basis = water_cluster("water-008", "6-31g");
  const OrderedPairs ordered = ordered_pairs(basis);
  const BoysTable<Host> boys = make_boys_table<Host>();
  std::mt19937_64 rng(31);
  std::uniform_int_distribution<int> pick(0, static_cast<int>(ordered.shells.size()) - 1);
  std::uniform_real_distribution<double> share(0.01, 0.5);
  int changed = 0, sampled = 0;
  for (int sample = 0; sample < 4000; ++sample) {
    int bra = pick(rng), ket = pick(rng);
    if (ordered.kinds[bra] < ordered.kinds[ket]) std::swap(bra, ket);
    const double cutoff = share(rng) * ordered.schwarz[bra] * ordered.schwarz[ket];
    if (cutoff == 0.0) continue;
    ++sampled;
    with_quartet_class(ordered.kinds[bra], ordered.kinds[ket], [&](auto cls) {
      using Class = decltype(cls);
      double want[Class::integrals], unscreened[Class::integrals], got[Class::integrals];
      eri_quartet_block(ordered.host, boys, Class::bra_kind, Class::ket_kind, bra, ket, want);
      eri_quartet_block(ordered.host, boys, Class::bra_kind, Class::ket_kind, bra, ket, unscreened,
                        0.0);
      eri_quartet_block(ordered.host, boys, Class::bra_kind, Class::ket_kind, bra, ket, got,
                        cutoff);
      bool moved = false;
      for (int i = 0; i < Class::integrals; ++i) {
        EXPECT_EQ(unscreened[i], want[i]);
        EXPECT_LE(std::abs(got[i] - want[i]), cutoff)
            << "pairs " << bra << ", " << ket << " integral " << i;
        moved = moved || got[i] != want[i];
      }
      changed += moved;
    });
  }
  EXPECT_GT(changed, sampled / 4) << "of " << sampled << " quartets";

  // A contracted s pair with itself: its primitive quartets' shares are close to the products of
  // their bounds, so a screen that left out more than its cutoff allows in bounds shows it here
  // (three such screens were tried: each failed).
  int diagonal = 0;
  for (std::size_t pair = 0; pair < ordered.shells.size(); ++pair) {
    if (ordered.kinds[pair] != kSS ||
        ordered.host.primitives_begin(pair + 1) - ordered.host.primitives_begin(pair) < 4)
      continue;
    const int p = static_cast<int>(pair);
    for (const double fraction : {0.001, 0.01, 0.1, 0.3}) {
      const double cutoff = fraction * ordered.schwarz[pair] * ordered.schwarz[pair];
      double want, got;
      eri_quartet_block(ordered.host, boys, kSS, kSS, p, p, &want);
      eri_quartet_block(ordered.host, boys, kSS, kSS, p, p, &got, cutoff);
      EXPECT_LE(std::abs(want - got), cutoff)
          << "pair " << pair << ", cutoff " << fraction << " (ab|ab)";
      diagonal += got != want;
    }
  }
  EXPECT_GT(diagonal, 20);
}

}  // namespace
}  // namespace kmini::hf
