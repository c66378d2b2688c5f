#include "hf/fock/hermite_rows.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace kmini::hf {

namespace {

constexpr double kZetaTolerance = 1e-13;    // relative
constexpr double kCenterTolerance = 1e-11;  // bohr

// The value of product k that the key-th split compares: zeta, then P's axes.
double key_value(const ProductKey& p, int key) {
  return key == 0 ? p.zeta : p.center[key - 1];
}
double tolerance(double value, int key) {
  return key == 0 ? kZetaTolerance * value : kCenterTolerance;
}

// Sorts order[begin, end) by the key-th value and cuts it where two neighbours differ by more
// than its tolerance; each piece is cut by the next key in turn, and what is left after the last
// are the groups. Values that agree but for rounding stay together however the others sort.
void split_by_keys(const std::vector<ProductKey>& products, std::vector<int>& order, int begin,
                   int end, int key, std::vector<std::pair<int, int>>& groups) {
  if (key == 4) {
    groups.emplace_back(begin, end);
    return;
  }
  const auto value = [&](int i) { return key_value(products[order[i]], key); };
  std::sort(order.begin() + begin, order.begin() + end, [&](int x, int y) {
    return key_value(products[x], key) < key_value(products[y], key);
  });
  int first = begin;
  for (int i = begin + 1; i <= end; ++i)
    if (i == end || value(i) - value(i - 1) > tolerance(value(i), key)) {
      split_by_keys(products, order, first, i, key + 1, groups);
      first = i;
    }
}

}  // namespace

HermiteRows group_hermite_rows(const std::vector<ProductKey>& products, int degrees, int rank,
                               int ranks) {
  const int n = static_cast<int>(products.size());
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::vector<std::pair<int, int>> pieces;
  if (n > 0) split_by_keys(products, order, 0, n, 0, pieces);

  struct Group {
    int first = 0, count = 0, degree = 0;
    double bound = 0.0;
  };
  std::vector<Group> groups;
  for (const auto& [begin, end] : pieces) {
    Group g{begin, end - begin, 0, 0.0};
    for (int i = begin; i < end; ++i) {
      const ProductKey& p = products[order[i]];
      if (p.degree < 0 || p.degree >= degrees)
        throw std::invalid_argument("group_hermite_rows: a product's degree is out of range");
      g.degree = std::max(g.degree, p.degree);
      g.bound += p.bound;
    }
    groups.push_back(g);
  }

  HermiteRows rows;
  rows.member_begin.assign(degrees, {0});
  rows.members.resize(degrees);
  rows.bound.resize(degrees);
  rows.owned.resize(degrees);
  rows.row.assign(n, 0);
  rows.row_degree.assign(n, 0);
  std::vector<std::vector<int>> of_degree(degrees);
  for (int g = 0; g < static_cast<int>(groups.size()); ++g)
    of_degree[groups[g].degree].push_back(g);
  for (int d = 0; d < degrees; ++d) {
    std::stable_sort(of_degree[d].begin(), of_degree[d].end(),
                     [&](int x, int y) { return groups[x].bound > groups[y].bound; });
    for (const int g : of_degree[d]) {
      const int r = rows.rows(d);
      for (int i = groups[g].first; i < groups[g].first + groups[g].count; ++i) {
        rows.members[d].push_back(order[i]);
        rows.row[order[i]] = r;
        rows.row_degree[order[i]] = d;
      }
      rows.member_begin[d].push_back(static_cast<int>(rows.members[d].size()));
      rows.bound[d].push_back(groups[g].bound);
      if (r % ranks == rank) rows.owned[d].push_back(r);
    }
  }
  return rows;
}

}  // namespace kmini::hf
