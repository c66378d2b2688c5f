// Which shell quartets the G build computes: Schwarz screening, the six classes, and each rank's
// share of them.
//
// A quartet (P|Q) is an unordered pair of shell pairs, so the 8-fold permutational symmetry
// leaves one of each. Its class is that of its two pairs' kinds, the higher kind in the bra. In
// each class the bra and ket pairs are listed by their Schwarz bound Q = sqrt(max (ab|ab)),
// largest first; then the kets that survive |(P|Q)| <= Q_P Q_Q >= threshold are a prefix of the
// ket list for every bra, never longer than an earlier bra's. So a class's quartets are, without
// being stored, a list of prefix lengths: quartet t is (bra p, ket q) with offsets[p] <= t <
// offsets[p+1] and q = t - offsets[p]. Where bra and ket lists are the same, the prefix is cut at
// q <= p to keep one of (P|Q) and (Q|P); the bras that reach ket q are then p in [q, m_q).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace kmini::hf {

struct ClassPlan {
  int bra_kind = 0, ket_kind = 0;
  std::vector<int> bra_pairs, ket_pairs;  // indices into the pair table, Schwarz descending
  std::vector<int> ket_count;             // per bra position: its surviving kets
  // Per bra position, the surviving kets before the diagonal cut q <= p: the prefix every later
  // bound on the ket list shortens.
  std::vector<int> ket_uncut;
  // Per ket position q, the end of the bras that reach it: p in [q or 0, bra_reach[q]).
  std::vector<int> bra_reach;
  // This rank's bras, [bra_begin, bra_end), chosen so that every rank has about the same cost.
  int bra_begin = 0, bra_end = 0;
  // Per bra of this rank, the first of its quartets in the rank's numbering; one more entry.
  std::vector<std::int64_t> offsets;
  double candidates = 0.0;  // unique quartets of the class before screening (every rank's)
  double survivors = 0.0;   // and after (every rank's)

  bool diagonal() const { return bra_kind == ket_kind; }
  std::int64_t local_quartets() const { return offsets.empty() ? 0 : offsets.back(); }
};

struct QuartetPlan {
  std::vector<ClassPlan> classes;  // the six, bra kind >= ket kind, (ss|ss) first
  double candidates = 0.0, survivors = 0.0;
};

// The estimated cost of a pair's quartets is the product of the two pairs' primitive counts.
QuartetPlan plan_quartets(const std::vector<int>& pair_kinds,
                          const std::vector<int>& pair_primitives,
                          const std::vector<double>& schwarz, double threshold, int rank,
                          int ranks);

}  // namespace kmini::hf
