#include "hf/screening/quartet_plan.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

#include "hf/integrals/shell_pairs.hpp"

namespace kmini::hf {

namespace {

// A pair's Schwarz bound rounded up to a power of 4, by its binary exponent (exact, so every
// rank orders alike).
double ceiling_of(double bound) {
  const int exponent = std::ilogb(bound);
  const int quarter = exponent >= 0 ? exponent / 2 : -((1 - exponent) / 2);  // floor(exponent / 2)
  return std::ldexp(1.0, 2 * quarter + 2);
}

// The pairs of one kind whose bound can reach the threshold with any partner, by ceiling, then
// by primitive products, most first, then by bound (ties by index).
std::vector<int> significant_pairs(const std::vector<int>& pair_kinds,
                                   const std::vector<int>& pair_primitives,
                                   const std::vector<double>& schwarz, int kind, double largest,
                                   double threshold) {
  std::vector<int> list;
  for (std::size_t i = 0; i < pair_kinds.size(); ++i)
    if (pair_kinds[i] == kind && schwarz[i] * largest >= threshold)
      list.push_back(static_cast<int>(i));
  const auto key = [&](int pair) {
    return std::make_tuple(ceiling_of(schwarz[pair]), pair_primitives[pair], schwarz[pair]);
  };
  std::stable_sort(list.begin(), list.end(), [&](int x, int y) { return key(x) > key(y); });
  return list;
}

}  // namespace

std::vector<double> bra_cost_before(const ClassPlan& c, const int* ket_count) {
  std::vector<double> before(c.bra_pairs.size() + 1, 0.0);
  for (std::size_t p = 0; p < c.bra_pairs.size(); ++p)
    before[p + 1] = before[p] + c.bra_primitives[p] * c.ket_primitives_before[ket_count[p]];
  return before;
}

int stripes_of(int ranks, int stripes_per_rank) {
  return ranks == 1 ? 1 : ranks * stripes_per_rank;
}

std::vector<int> stripe_bounds(const std::vector<double>& cost_before, int stripes) {
  const int bras = static_cast<int>(cost_before.size()) - 1;
  std::vector<int> bounds(static_cast<std::size_t>(stripes) + 1, 0);
  for (int k = 1; k < stripes; ++k) {
    const double target = cost_before.back() * k / stripes;
    bounds[k] = static_cast<int>(
        std::lower_bound(cost_before.begin(), cost_before.end() - 1, target) - cost_before.begin());
  }
  bounds[stripes] = bras;
  return bounds;
}

std::vector<std::array<int, 2>> dealt_share(const std::vector<int>& bounds, int rank, int ranks) {
  const int stripes = static_cast<int>(bounds.size()) - 1;
  std::vector<std::array<int, 2>> share;
  for (int k = 0; k < stripes; ++k) {
    const int round = k / ranks, seat = k % ranks;
    if ((round % 2 == 0 ? seat : ranks - 1 - seat) != rank) continue;
    const int first = bounds[k], end = bounds[k + 1];
    if (first == end) continue;
    if (!share.empty() && share.back()[1] == first) {
      share.back()[1] = end;
    } else {
      share.push_back({first, end});
    }
  }
  return share;
}

std::vector<std::array<int, 2>> bra_share(const std::vector<double>& cost_before, int rank,
                                          int ranks, int stripes_per_rank) {
  return dealt_share(stripe_bounds(cost_before, stripes_of(ranks, stripes_per_rank)), rank, ranks);
}

std::vector<double> measured_cost_before(const std::vector<double>& cost_before,
                                         const std::vector<int>& bounds,
                                         const std::vector<double>& kept_fraction) {
  std::vector<double> before(cost_before.size(), 0.0);
  for (std::size_t k = 0; k + 1 < bounds.size(); ++k)
    for (int p = bounds[k]; p < bounds[k + 1]; ++p)
      before[p + 1] = before[p] + (cost_before[p + 1] - cost_before[p]) * kept_fraction[k];
  return before;
}

void ClassPlan::deal(const std::vector<double>& cost_before, int rank, int ranks) {
  stripes = stripe_bounds(cost_before, stripes_of(ranks, kStripesPerRank));
  share = dealt_share(stripes, rank, ranks);
}

std::int64_t ClassPlan::share_of(const std::vector<std::int64_t>& at) const {
  std::int64_t sum = 0;
  for (const auto& [first, end] : share)
    sum += at[end] - at[first];
  return sum;
}

QuartetPlan plan_quartets(const std::vector<int>& pair_kinds,
                          const std::vector<int>& pair_primitives,
                          const std::vector<double>& schwarz, double threshold, int rank,
                          int ranks) {
  const double largest = schwarz.empty() ? 0.0 : *std::max_element(schwarz.begin(), schwarz.end());
  std::vector<double> pairs_of_kind(kPairKinds, 0.0);
  for (const int kind : pair_kinds)
    pairs_of_kind[kind] += 1.0;
  std::vector<std::vector<int>> lists(kPairKinds);
  for (int kind = 0; kind < kPairKinds; ++kind)
    lists[kind] = significant_pairs(pair_kinds, pair_primitives, schwarz, kind, largest, threshold);

  QuartetPlan plan;
  for (int bra_kind = 0; bra_kind < kPairKinds; ++bra_kind) {
    for (int ket_kind = 0; ket_kind <= bra_kind; ++ket_kind) {
      // Only the classes the basis has: a molecule without d shells keeps the six s/p classes.
      if (pairs_of_kind[bra_kind] == 0.0 || pairs_of_kind[ket_kind] == 0.0) continue;
      ClassPlan c;
      c.bra_kind = bra_kind;
      c.ket_kind = ket_kind;
      c.bra_pairs = lists[bra_kind];
      c.ket_pairs = lists[ket_kind];
      const double nx = pairs_of_kind[bra_kind], ny = pairs_of_kind[ket_kind];
      c.candidates = c.diagonal() ? nx * (nx + 1.0) / 2.0 : nx * ny;

      // Candidate kets of each bra: those whose ceiling reaches threshold / the bra's ceiling, a
      // prefix. They hold every survivor, Q_bra Q_ket >= threshold, and a few that the kernels'
      // screen drops.
      const std::size_t bras = c.bra_pairs.size();
      const auto ceilings = [&](const std::vector<int>& list) {
        std::vector<double> out;
        for (const int pair : list)
          out.push_back(ceiling_of(schwarz[pair]));
        return out;
      };
      c.bra_ceilings = ceilings(c.bra_pairs);
      c.ket_ceilings = ceilings(c.ket_pairs);
      c.ket_count.resize(bras);
      c.ket_uncut.resize(bras);
      c.ket_primitives_before.assign(c.ket_pairs.size() + 1, 0.0);
      for (std::size_t q = 0; q < c.ket_pairs.size(); ++q)
        c.ket_primitives_before[q + 1] =
            c.ket_primitives_before[q] + pair_primitives[c.ket_pairs[q]];
      for (const int pair : c.bra_pairs)
        c.bra_primitives.push_back(pair_primitives[pair]);
      for (std::size_t p = 0; p < bras; ++p) {
        const double ceiling = c.bra_ceilings[p];
        // First ket with ceiling * its ceiling < threshold; the ceilings descend.
        const auto end = std::partition_point(c.ket_ceilings.begin(), c.ket_ceilings.end(),
                                              [&](double q) { return ceiling * q >= threshold; });
        std::size_t count = static_cast<std::size_t>(end - c.ket_ceilings.begin());
        c.ket_uncut[p] = static_cast<int>(count);
        if (c.diagonal()) count = std::min(count, p + 1);
        c.ket_count[p] = static_cast<int>(count);
        c.listed += static_cast<double>(count);
      }
      // The uncut prefixes shrink with p, so the bras reaching ket q end where they fall to q.
      c.bra_reach.resize(c.ket_pairs.size());
      std::size_t reach = bras;
      for (std::size_t q = 0; q < c.ket_pairs.size(); ++q) {
        while (reach > 0 && static_cast<std::size_t>(c.ket_uncut[reach - 1]) <= q)
          --reach;
        c.bra_reach[q] = static_cast<int>(reach);
      }
      c.deal(bra_cost_before(c, c.ket_count.data()), rank, ranks);
      c.offsets.assign(1, 0);
      for (const int count : c.ket_count)
        c.offsets.push_back(c.offsets.back() + count);
      plan.candidates += c.candidates;
      plan.listed += c.listed;
      plan.classes.push_back(std::move(c));
    }
  }
  return plan;
}

}  // namespace kmini::hf
