// The J engine's Hermite rows (fock/j_engine.hpp): primitive products that are one Gaussian.
//
// A primitive product is a Gaussian of exponent zeta at P, and its Hermite Gaussians Lambda_tuv
// depend on zeta and P alone; the pair's angular momenta and contraction only set the
// coefficients. Products with the same zeta and P, from different shell pairs or from one, span
// the same Hermite functions, so the J engine sums their Hermite densities into one row and
// computes one potential for them: a Pople sp shell's s and p share their exponents (6-31G's
// (2s, 1s_H) and (2p, 1s_H) products are one Gaussian each), a pair of one shell with itself
// has the products (i, j) and (j, i), and on one atom any two exponent pairs with the same sum
// give the same Gaussian. A row's Hermite degree is the largest of its products'.
#pragma once

#include <vector>

namespace kmini::hf {

struct ProductKey {
  double zeta = 0.0;
  double center[3] = {0.0, 0.0, 0.0};  // P
  double bound = 0.0;                  // the product's own (shell_pairs.hpp)
  int degree = 0;                      // its pair's l_a + l_b
};

struct HermiteRows {
  // Per Hermite degree: the rows, by bound descending (a row's bound is the sum of its
  // products'), each row's products from members[member_begin[r]] to members[member_begin[r+1]].
  std::vector<std::vector<int>> member_begin, members;
  std::vector<std::vector<double>> bound;
  // Per degree, the rows rank `rank` of `ranks` computes potentials for: every ranks-th, in
  // bound order, so that the costly rows are dealt out evenly.
  std::vector<std::vector<int>> owned;
  // Per product, its row and that row's degree.
  std::vector<int> row, row_degree;

  int rows(int degree) const { return static_cast<int>(bound[degree].size()); }
};

// Products share a row where their zeta agree to 1e-13 relative and their P to 1e-11 bohr in
// each axis, neighbour to neighbour (so that rounding in zeta or in P = (alpha A + beta B) / zeta
// does not part them).
HermiteRows group_hermite_rows(const std::vector<ProductKey>& products, int degrees, int rank = 0,
                               int ranks = 1);

}  // namespace kmini::hf
