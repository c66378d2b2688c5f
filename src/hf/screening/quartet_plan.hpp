// Which shell quartets the G build computes: Schwarz screening, the classes, and each rank's
// share of them.
//
// Every rank lists every bra; a rank's share is some stripes of consecutive bras. The class's
// bras are cut into stripes_per_rank x ranks stripes of about equal estimated cost and dealt out
// back and forth (ranks 0, 1, .., R-1, R-1, .., 0, 0, 1, ..), so that each rank's stripes
// sample the whole list. One range of bras per rank, of equal estimated cost, left the ranks far
// apart (docs/notes/scaling.md): density screening keeps far fewer of the candidates than the
// estimate counts, and not the same fraction along the list. The stripes sample it, and a
// build's measured fractions (measured_cost_before) cut them anew for the builds that follow.
//
// A quartet (P|Q) is an unordered pair of shell pairs, so the 8-fold permutational symmetry
// leaves one of each. Its class is that of its two pairs' kinds, the higher kind in the bra.
//
// In each class the bra and ket pairs are listed by their Schwarz bound Q = sqrt(max (ab|ab))
// rounded up to a power of 4 (the pair's ceiling), largest first, and within a ceiling by their
// primitive products, most first. A quartet survives when Q_P Q_Q >= threshold; the candidates
// are the kets whose ceiling times the bra's reaches the threshold, which hold every survivor and
// a few more (the kernels' screen, quartet_screen.hpp, drops those). The candidates are a prefix
// of the ket list for every bra, never longer than an earlier bra's, so a class's quartets are,
// without being stored, a list of prefix lengths: quartet t is (bra p, ket q) with offsets[p] <=
// t < offsets[p+1] and q = t - offsets[p]. Where bra and ket lists are the same, the prefix ends
// at the diagonal q <= p to keep one of (P|Q) and (Q|P); the bras that reach ket q are then p in
// [q, m_q).
//
// Ordered by bound alone, a warp's consecutive kets mixed pairs of one primitive product with
// pairs of 36, and each thread waited for the longest contraction loop of its warp; within a
// ceiling the kets of a warp have about equal loops.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace kmini::hf {

struct ClassPlan {
  int bra_kind = 0, ket_kind = 0;
  std::vector<int> bra_pairs, ket_pairs;  // indices into the pair table, in the order above
  std::vector<double> bra_ceilings, ket_ceilings;  // per position: the pair's ceiling
  std::vector<int> ket_count;                      // per bra position: its candidate kets
  // Per bra position, the candidate kets up to the diagonal q <= p: the prefix every later
  // bound on the ket list shortens.
  std::vector<int> ket_uncut;
  // Per ket position q, the end of the bras that reach it: p in [q or 0, bra_reach[q]).
  std::vector<int> bra_reach;
  // The cost estimate's terms: per bra position its primitive products, and the primitive
  // products of the kets before each ket position (one more entry).
  std::vector<double> bra_primitives, ket_primitives_before;
  // Every rank's stripes: stripe k is bras [stripes[k], stripes[k + 1]).
  std::vector<int> stripes;
  // This rank's bras: its stripes, ranges [first, end) of positions, ascending, adjacent ones
  // merged.
  std::vector<std::array<int, 2>> share;
  // Per bra, the first of its quartets in the class's numbering; one more entry.
  std::vector<std::int64_t> offsets;
  double candidates = 0.0;  // unique quartets of the class before screening (every rank's)
  double listed = 0.0;      // the candidates the plan lists (every rank's)

  bool diagonal() const { return bra_kind == ket_kind; }
  std::int64_t quartets() const { return offsets.empty() ? 0 : offsets.back(); }
  // The candidates of this rank's share, per bra's first quartet `at` (the plan's offsets, or a
  // build's cut of them).
  std::int64_t share_of(const std::vector<std::int64_t>& at) const;
  // Cuts the bras into stripes of equal cost by `cost_before` (per bra position, the cost of
  // the bras before it; one more entry) and takes rank `rank`'s of `ranks` as the share.
  void deal(const std::vector<double>& cost_before, int rank, int ranks);
};

struct QuartetPlan {
  // Those of the basis's pair kinds, bra kind >= ket kind, (ss|ss) first.
  std::vector<ClassPlan> classes;
  double candidates = 0.0, listed = 0.0;
};

// The estimated cost of a pair's quartets is the product of the two pairs' primitive counts.
// Per bra position p, the cost of the bras before it (one more entry), bra p taking kets
// [0, ket_count[p]).
std::vector<double> bra_cost_before(const ClassPlan& c, const int* ket_count);

// Stripes per rank: enough that every rank samples the list finely, few enough that launching
// a class's kernels once per stripe costs nothing a build would notice.
constexpr int kStripesPerRank = 8;

// The stripes of `ranks`: one for a lone rank, else ranks x stripes_per_rank.
int stripes_of(int ranks, int stripes_per_rank);

// `stripes` stripes of about equal cost: stripe k holds the bras whose cost starts in
// [k, k + 1) / stripes of the total; its bounds, stripes + 1 of them, from 0 to the bras.
std::vector<int> stripe_bounds(const std::vector<double>& cost_before, int stripes);

// Rank `rank`'s of the stripes, dealt as above; adjacent stripes merged, empty ones left out.
std::vector<std::array<int, 2>> dealt_share(const std::vector<int>& bounds, int rank, int ranks);

// dealt_share of the stripe_bounds of `cost_before`.
std::vector<std::array<int, 2>> bra_share(const std::vector<double>& cost_before, int rank,
                                          int ranks, int stripes_per_rank);

// The cost before each bra (one more entry) when each stripe's bras cost what cost_before gives
// them times the fraction of the stripe's candidates that a build kept: bounds are the stripes
// it was measured on, kept_fraction one per stripe. With the candidates before each bra (a
// class's offsets) as cost_before, a bra costs the quartets its stripe kept, spread over the
// stripe's bras by their candidates.
std::vector<double> measured_cost_before(const std::vector<double>& cost_before,
                                         const std::vector<int>& bounds,
                                         const std::vector<double>& kept_fraction);

QuartetPlan plan_quartets(const std::vector<int>& pair_kinds,
                          const std::vector<int>& pair_primitives,
                          const std::vector<double>& schwarz, double threshold, int rank,
                          int ranks);

}  // namespace kmini::hf
