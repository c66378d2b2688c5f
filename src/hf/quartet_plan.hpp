// Which shell quartets the G build computes: Schwarz screening, the classes, and each rank's
// share of them.
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
// t < offsets[p+1] and q = t - offsets[p]. Where bra and ket lists are the same, the prefix is
// cut at q <= p to keep one of (P|Q) and (Q|P); the bras that reach ket q are then p in [q, m_q).
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
  // Per bra position, the candidate kets before the diagonal cut q <= p: the prefix every later
  // bound on the ket list shortens.
  std::vector<int> ket_uncut;
  // Per ket position q, the end of the bras that reach it: p in [q or 0, bra_reach[q]).
  std::vector<int> bra_reach;
  // This rank's bras, [bra_begin, bra_end), chosen so that every rank has about the same cost.
  int bra_begin = 0, bra_end = 0;
  // Per bra of this rank, the first of its quartets in the rank's numbering; one more entry.
  std::vector<std::int64_t> offsets;
  double candidates = 0.0;  // unique quartets of the class before screening (every rank's)
  double listed = 0.0;      // the candidates the plan lists (every rank's)

  bool diagonal() const { return bra_kind == ket_kind; }
  std::int64_t local_quartets() const { return offsets.empty() ? 0 : offsets.back(); }
};

struct QuartetPlan {
  // Those of the basis's pair kinds, bra kind >= ket kind, (ss|ss) first.
  std::vector<ClassPlan> classes;
  double candidates = 0.0, listed = 0.0;
};

// The estimated cost of a pair's quartets is the product of the two pairs' primitive counts.
QuartetPlan plan_quartets(const std::vector<int>& pair_kinds,
                          const std::vector<int>& pair_primitives,
                          const std::vector<double>& schwarz, double threshold, int rank,
                          int ranks);

}  // namespace kmini::hf
