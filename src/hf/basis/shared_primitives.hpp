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

#include "hf/basis/basis_set.hpp"

namespace kmini::hf {

// Leaves out of each contraction of two or more primitives every primitive whose exponent (to a
// relative 1e-12) is the one primitive of another shell of the element with the same l. A
// contraction that would be left with none, or with zero coefficients only, stays as it is (it
// repeats the uncontracted shells; linear dependence is the SCF's to report). Returns how many
// primitives each element's shells lost.
std::map<int, int> remove_shared_primitives(BasisSet& basis);

// Recombines each set of an element's contractions of one l that run over the same primitives
// (cc-pVDZ's oxygen 1s and 2s, once the shared primitive is out) into as many combinations of
// them, each without the primitives where the others carry a pivot: the general contraction's
// span, and so every energy, stays as it was, but a contraction no longer needs every primitive
// (Raffenetti's recombination of general contractions). Of every choice of pivots, the one whose
// functions cost least is taken: a function's cost is the sum of |c_k| / sqrt(alpha_k) over its
// normalised primitives, relative to its norm, which is how (for s functions) a primitive's
// products with a diffuse shell on another atom scale in their bounds (shell_pairs.hpp), the
// products the primitive loop visits most. Oxygen's 1s then has no primitive below 5, and its 2s
// none at 5.025. A set is left as it was when no choice costs less, when its contractions are
// linearly dependent, or when the choices are too many to try (over 100000). Returns how many
// primitives each element's shells lost.
std::map<int, int> recombine_shared_contractions(BasisSet& basis);

}  // namespace kmini::hf
