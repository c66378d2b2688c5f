#include "hf/shared_primitives.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace kmini::hf {

namespace {

bool same_exponent(double a, double b) {
  return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b));
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

}  // namespace kmini::hf
