// Primitives shared between a contraction and an uncontracted shell of the same element and l.
//
// Correlation-consistent sets are general contractions written as segmented shells: cc-pVDZ's
// oxygen 1s and 2s each contract all nine s primitives, and the most diffuse of them is also the
// 3s shell on its own. A contraction minus its coefficient times that uncontracted function is the
// contraction without that primitive (a Gaussian94 coefficient multiplies a normalised primitive),
// so leaving the primitive out keeps the span of the element's functions, and every energy, as it
// was. The contraction loses its most diffuse primitive, the one whose products with other atoms'
// shells survive the distance: quartets between atoms get shorter or drop under the screen
// (Hashimoto, Hirao and Tatewaki's optimised general contractions; the Basis Set Exchange's
// optimize_general).
#pragma once

#include <map>

#include "hf/basis_set.hpp"

namespace kmini::hf {

// Leaves out of each contraction of two or more primitives every primitive whose exponent (to a
// relative 1e-12) is the one primitive of another shell of the element with the same l. A
// contraction that would be left with none, or with zero coefficients only, stays as it is (it
// repeats the uncontracted shells; linear dependence is the SCF's to report). Returns how many
// primitives each element's shells lost.
std::map<int, int> remove_shared_primitives(BasisSet& basis);

}  // namespace kmini::hf
