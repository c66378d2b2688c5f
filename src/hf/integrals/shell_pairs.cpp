#include "hf/integrals/shell_pairs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace kmini::hf {

const char* pair_kind_name(int kind) {
  static const char* const names[kPairKinds] = {"ss", "ps", "pp", "ds", "dp", "dd"};
  return names[kind];
}

std::vector<std::array<int, 2>> canonical_pairs(const MolecularBasis& basis) {
  std::vector<std::array<int, 2>> pairs;
  const int n = static_cast<int>(basis.shells.size());
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      const int la = basis.shells[a].l, lb = basis.shells[b].l;
      if (la > lb || (la == lb && a >= b)) pairs.push_back({a, b});
    }
  }
  return pairs;
}

namespace {

// One primitive product of a pair, before it is stored.
struct Product {
  double zeta, weight, center[3];
};

// On one centre a product depends on its two primitives only through zeta: the products of
// (alpha, beta) and (beta, alpha) are one Gaussian, so their weights are summed into one product.
// A contraction paired with itself, or with another over the same exponents (cc-pVDZ's 1s and
// 2s, a Pople SP shell's s and p), then has n (n + 1) / 2 products, not n^2.
std::vector<Product> products_of(const PlacedShell& a, const PlacedShell& b) {
  double ab2 = 0.0;
  for (int x = 0; x < 3; ++x)
    ab2 += (a.center[x] - b.center[x]) * (a.center[x] - b.center[x]);
  const bool one_centre = a.center == b.center;
  std::vector<Product> out;
  for (std::size_t pa = 0; pa < a.exponents.size(); ++pa) {
    for (std::size_t pb = 0; pb < b.exponents.size(); ++pb) {
      const double alpha = a.exponents[pa], beta = b.exponents[pb];
      const double weight = a.coefficients[pa] * b.coefficients[pb];
      if (one_centre) {
        const auto same = std::find_if(out.begin(), out.end(), [&](const Product& product) {
          return product.zeta == alpha + beta;
        });
        if (same != out.end()) {
          same->weight += weight;
          continue;
        }
      }
      Product product;
      product.zeta = alpha + beta;
      product.weight = weight * std::exp(-alpha * beta / product.zeta * ab2);
      for (int x = 0; x < 3; ++x)
        product.center[x] = (alpha * a.center[x] + beta * b.center[x]) / product.zeta;
      out.push_back(product);
    }
  }
  return out;
}

// sqrt(2 pi^{5/2}).
constexpr double kRootPrefactor = 5.914967172795613;

// The square root of the product's own s-type repulsion integral (see shell_pairs.hpp).
double product_bound(const Product& product) {
  return std::abs(product.weight) * kRootPrefactor / product.zeta /
         std::pow(2.0 * product.zeta, 0.25);
}

}  // namespace

ShellPairs<Kokkos::HostSpace> make_shell_pairs(const MolecularBasis& basis,
                                               const std::vector<std::array<int, 2>>& pairs,
                                               double product_cutoff) {
  using Host = Kokkos::HostSpace;
  const std::size_t n = pairs.size();
  std::vector<std::vector<Product>> all(n);
  double largest_bound = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const PlacedShell& a = basis.shells.at(static_cast<std::size_t>(pairs[i][0]));
    const PlacedShell& b = basis.shells.at(static_cast<std::size_t>(pairs[i][1]));
    if (a.l < b.l) throw std::logic_error("make_shell_pairs: pair not in canonical order");
    all[i] = products_of(a, b);
    for (const Product& product : all[i])
      largest_bound = std::max(largest_bound, product_bound(product));
  }
  for (std::vector<Product>& products : all)
    products.erase(std::remove_if(products.begin(), products.end(),
                                  [&](const Product& product) {
                                    return product_bound(product) * largest_bound < product_cutoff;
                                  }),
                   products.end());

  ShellPairs<Host> out;
  out.shells = Kokkos::View<int* [2], Kokkos::LayoutRight, Host>("hf::pair_shells", n);
  out.first_functions = Kokkos::View<int* [2], Kokkos::LayoutRight, Host>("hf::pair_functions", n);
  out.ab = Kokkos::View<double* [3], Kokkos::LayoutRight, Host>("hf::pair_ab", n);
  out.primitives_begin = Kokkos::View<int*, Host>("hf::pair_primitives_begin", n + 1);
  std::size_t products = 0;
  for (std::size_t i = 0; i < n; ++i) {
    out.primitives_begin(i) = static_cast<int>(products);
    products += all[i].size();
  }
  out.primitives_begin(n) = static_cast<int>(products);
  out.products = Kokkos::View<PrimitiveProduct*, Host>("hf::pair_products", products);
  constexpr double kUnknown = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < n; ++i) {
    const PlacedShell& a = basis.shells[static_cast<std::size_t>(pairs[i][0])];
    const PlacedShell& b = basis.shells[static_cast<std::size_t>(pairs[i][1])];
    out.shells(i, 0) = pairs[i][0];
    out.shells(i, 1) = pairs[i][1];
    out.first_functions(i, 0) = a.first_function;
    out.first_functions(i, 1) = b.first_function;
    for (int x = 0; x < 3; ++x)
      out.ab(i, x) = a.center[x] - b.center[x];
    int k = out.primitives_begin(i);
    for (const Product& product : all[i]) {
      PrimitiveProduct& stored = out.products(k++);
      stored = PrimitiveProduct{};
      stored.zeta = product.zeta;
      stored.half_inverse_zeta = 0.5 / product.zeta;
      stored.coulomb_weight = product.weight * kRootPrefactor / product.zeta;
      for (int x = 0; x < 3; ++x) {
        stored.center[x] = product.center[x];
        stored.from_a[x] = product.center[x] - a.center[x];
      }
      stored.bound = kUnknown;
      stored.tail = kUnknown;
    }
  }
  return out;
}

void order_products_by_bound(ShellPairs<Kokkos::HostSpace>& pairs,
                             const std::vector<double>& bounds) {
  if (bounds.size() != pairs.products.extent(0))
    throw std::logic_error("order_products_by_bound: one bound per product");
  for (std::size_t k = 0; k < bounds.size(); ++k)
    pairs.products(k).bound = bounds[k];
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    PrimitiveProduct* first = pairs.products.data() + pairs.primitives_begin(i);
    PrimitiveProduct* last = pairs.products.data() + pairs.primitives_begin(i + 1);
    std::stable_sort(first, last, [](const PrimitiveProduct& x, const PrimitiveProduct& y) {
      return x.bound > y.bound;
    });
    double tail = 0.0;
    for (PrimitiveProduct* p = last; p != first; --p) {
      tail += (p - 1)->bound;
      (p - 1)->tail = tail;
    }
  }
}

}  // namespace kmini::hf
