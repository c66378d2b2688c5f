// The validation reference: the original's Jacobi iteration as plain serial host loops, written
// independently of the sweeps under test (it shares only the initial values with them).
//
// It computes what one rank should hold after n iterations without computing the whole grid: a
// point's value after n iterations depends only on points within n steps of it, so the rank's
// block widened by n layers (clipped to the grid) is enough, and its outer layers may go stale.
#pragma once

#include <cstdint>
#include <vector>

#include "himeno/grid.hpp"
#include "himeno/initial_state.hpp"

namespace kmini::himeno {

template <class T>
struct ReferenceResult {
  std::int64_t iterations = 0;
  std::vector<T> p;   // the rank's owned points after the iterations, (i, j, k) row-major
  double gosa = 0.0;  // the last iteration's sum of ss^2 over the owned points, in double
  std::vector<double> gosa_each;  // every iteration's, in order (gosa is the last)
  // The original's own gosa: a sum in the working precision, in its loop order, over the whole
  // interior. Only where the rank owns the whole grid; NaN elsewhere.
  double gosa_original_order = 0.0;
};

// The rank's region replayed on the host. A signal (core/interrupt.hpp) stops it unfinished,
// for the caller's safe point.
template <class T>
ReferenceResult<T> serial_reference(const GlobalGrid& grid, const Decomposition& decomposition,
                                    const InitialValues& initial, double omega,
                                    std::int64_t iterations);

}  // namespace kmini::himeno
