#include "hf/basis/shared_primitives.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace kmini::hf {

namespace {

bool same_exponent(double a, double b) {
  return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b));
}

// A set of contractions over the same primitives: the shells' indices, the primitives' exponents
// (the first shell's order) and each shell's coefficients in that order.
struct SharedSet {
  std::vector<std::size_t> shells;
  std::vector<double> exponents;
  std::vector<std::vector<double>> rows;
};

constexpr long kMaxPivotChoices = 100000;

// Whether no two of the shell's primitives share an exponent (a file may repeat one; the
// recombination matches primitives by exponent).
bool distinct_exponents(const Shell& shell) {
  for (std::size_t p = 0; p < shell.exponents.size(); ++p)
    for (std::size_t q = p + 1; q < shell.exponents.size(); ++q)
      if (same_exponent(shell.exponents[p], shell.exponents[q])) return false;
  return true;
}

// The coefficients of `shell` in the order of `exponents`; empty when it runs over other
// primitives.
std::vector<double> aligned(const Shell& shell, const std::vector<double>& exponents) {
  if (shell.exponents.size() != exponents.size()) return {};
  std::vector<double> row(exponents.size());
  for (std::size_t p = 0; p < exponents.size(); ++p) {
    std::size_t q = 0;
    while (q < shell.exponents.size() && !same_exponent(shell.exponents[q], exponents[p]))
      ++q;
    if (q == shell.exponents.size()) return {};
    row[p] = shell.coefficients[q];
  }
  return row;
}

// The cost of a contraction with coefficients c over normalised primitives of angular momentum
// l (recombine_shared_contractions): sum |c_k| / sqrt(alpha_k) over its norm.
double cost(int l, const std::vector<double>& alpha, const std::vector<double>& c) {
  double norm2 = 0.0, sum = 0.0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    sum += std::abs(c[i]) / std::sqrt(alpha[i]);
    for (std::size_t j = 0; j < c.size(); ++j)
      norm2 += c[i] * c[j] *
               std::pow(2.0 * std::sqrt(alpha[i] * alpha[j]) / (alpha[i] + alpha[j]), l + 1.5);
  }
  return norm2 > 0.0 ? sum / std::sqrt(norm2) : std::numeric_limits<double>::infinity();
}

// Gauss-Jordan on the pivot columns: row i of the result is 1 at pivots[i] and exactly 0 at the
// other pivots. False when the pivot columns are nearly singular.
bool recombine(const std::vector<std::vector<double>>& rows, const std::vector<int>& pivots,
               std::vector<std::vector<double>>& out) {
  out = rows;
  const std::size_t n = rows.size();
  double scale = 0.0;
  for (const auto& row : rows)
    for (double c : row)
      scale = std::max(scale, std::abs(c));
  for (std::size_t i = 0; i < n; ++i) {
    const int p = pivots[i];
    std::size_t best = i;
    for (std::size_t r = i + 1; r < n; ++r)
      if (std::abs(out[r][p]) > std::abs(out[best][p])) best = r;
    if (!(std::abs(out[best][p]) > 1e-8 * scale)) return false;
    std::swap(out[i], out[best]);
    const double inverse = 1.0 / out[i][p];
    for (double& c : out[i])
      c *= inverse;
    for (std::size_t r = 0; r < n; ++r) {
      if (r == i) continue;
      const double factor = out[r][p];
      for (std::size_t k = 0; k < out[r].size(); ++k)
        out[r][k] -= factor * out[i][k];
    }
  }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      out[i][pivots[j]] = i == j ? 1.0 : 0.0;
  return true;
}

// The next n-subset of {0, .., m-1} in lexicographic order; false after the last.
bool next_subset(std::vector<int>& subset, int m) {
  const int n = static_cast<int>(subset.size());
  int i = n - 1;
  while (i >= 0 && subset[i] == m - n + i)
    --i;
  if (i < 0) return false;
  ++subset[i];
  for (int j = i + 1; j < n; ++j)
    subset[j] = subset[j - 1] + 1;
  return true;
}

long choices(int m, int n) {
  long count = 1;
  for (int k = 1; k <= n; ++k) {
    count = count * (m - n + k) / k;
    if (count > kMaxPivotChoices) return count;
  }
  return count;
}

// Recombines one set in place (recombine_shared_contractions); returns the primitives it lost.
int recombine_set(int l, SharedSet& set, std::vector<Shell>& shells) {
  const int n = static_cast<int>(set.rows.size()), m = static_cast<int>(set.exponents.size());
  // More contractions than primitives are linearly dependent: nothing to pivot on.
  if (n > m || choices(m, n) > kMaxPivotChoices) return 0;
  const auto total_cost = [&](const std::vector<std::vector<double>>& rows) {
    double sum = 0.0;
    for (const auto& row : rows)
      sum += cost(l, set.exponents, row);
    return sum;
  };
  double best_cost = total_cost(set.rows);
  std::vector<int> pivots(n);
  for (int i = 0; i < n; ++i)
    pivots[i] = i;
  std::vector<std::vector<double>> candidate, best;
  do {
    if (!recombine(set.rows, pivots, candidate)) continue;
    const double c = total_cost(candidate);
    if (c < best_cost) {
      best_cost = c;
      best = candidate;
    }
  } while (next_subset(pivots, m));
  if (best.empty()) return 0;
  // The functions take the shells' places in the order of their pivots among the primitives.
  int lost = 0;
  for (int i = 0; i < n; ++i) {
    Shell recombined{l, {}, {}};
    for (int k = 0; k < m; ++k) {
      if (best[i][k] == 0.0) {
        ++lost;
        continue;
      }
      recombined.exponents.push_back(set.exponents[k]);
      recombined.coefficients.push_back(best[i][k]);
    }
    shells[set.shells[i]] = std::move(recombined);
  }
  return lost;
}

// Whether shell `k` of `shells` is uncontracted and shares l and exponent with `exponent`.
bool uncontracted_with(const std::vector<Shell>& shells, std::size_t k, int l, double exponent) {
  return shells[k].l == l && shells[k].exponents.size() == 1 &&
         same_exponent(shells[k].exponents[0], exponent);
}

}  // namespace

std::map<int, int> remove_shared_primitives(BasisSet& basis) {
  std::map<int, int> removed;
  for (auto& [z, shells] : basis.shells_of_element) {
    for (std::size_t s = 0; s < shells.size(); ++s) {
      Shell& shell = shells[s];
      if (shell.exponents.size() < 2) continue;
      Shell kept{shell.l, {}, {}};
      for (std::size_t p = 0; p < shell.exponents.size(); ++p) {
        bool shared = false;
        for (std::size_t k = 0; k < shells.size() && !shared; ++k)
          shared = k != s && uncontracted_with(shells, k, shell.l, shell.exponents[p]);
        if (shared) continue;
        kept.exponents.push_back(shell.exponents[p]);
        kept.coefficients.push_back(shell.coefficients[p]);
      }
      const bool has_norm = std::any_of(kept.coefficients.begin(), kept.coefficients.end(),
                                        [](double c) { return c != 0.0; });
      if (kept.exponents.size() == shell.exponents.size() || !has_norm) continue;
      removed[z] += static_cast<int>(shell.exponents.size() - kept.exponents.size());
      shell = std::move(kept);
    }
  }
  return removed;
}

std::map<int, int> recombine_shared_contractions(BasisSet& basis) {
  std::map<int, int> removed;
  for (auto& [z, shells] : basis.shells_of_element) {
    std::vector<bool> in_set(shells.size(), false);
    for (std::size_t s = 0; s < shells.size(); ++s) {
      if (in_set[s] || shells[s].exponents.size() < 2 || !distinct_exponents(shells[s])) continue;
      SharedSet set{{s}, shells[s].exponents, {shells[s].coefficients}};
      for (std::size_t t = s + 1; t < shells.size(); ++t) {
        if (in_set[t] || shells[t].l != shells[s].l) continue;
        std::vector<double> row = aligned(shells[t], set.exponents);
        if (row.empty()) continue;
        in_set[t] = true;
        set.shells.push_back(t);
        set.rows.push_back(std::move(row));
      }
      if (set.shells.size() < 2) continue;
      if (const int lost = recombine_set(shells[s].l, set, shells); lost > 0) removed[z] += lost;
    }
  }
  return removed;
}

}  // namespace kmini::hf
