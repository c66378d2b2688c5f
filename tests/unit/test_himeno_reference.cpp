// The himeno app's validation reference (src/himeno/reference.hpp) and its split of the grid over
// ranks (src/himeno/grid.hpp), in-process: the reference against the original program's printed
// output and a hand computation, and against itself over split grids; the split gives every
// interior point one owner and consistent neighbours, and refuses what cannot work.
//
// Plain host code: no Kokkos runtime and no MPI (choose_dims is only given explicit dims here;
// MPI_Dims_create's choice is covered by the MPI tests).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/interrupt.hpp"
#include "himeno/grid.hpp"
#include "himeno/initial_state.hpp"
#include "himeno/reference.hpp"
#include "support/expect.hpp"

namespace kmini::himeno {
namespace {

constexpr double kOmega = 0.8;  // the original's

Decomposition whole(const GlobalGrid& grid) {
  return decompose(grid, {1, 1, 1}, 0);
}

InitialValues original_values(const GlobalGrid& grid) {
  return InitialValues{InitialState::original, 0, grid.points(0)};
}

InitialValues random_values(const GlobalGrid& grid, std::uint64_t seed) {
  return InitialValues{InitialState::random, seed, grid.points(0)};
}

std::int64_t product(const Extents& e) {
  return e[0] * e[1] * e[2];
}

// ---- a signal -------------------------------------------------------------------------------

// The replay behind validation looks for a signal on every plane (an iteration of size XL takes
// seconds on one core): one pending from the start stops it before its first iteration. A
// replay that never looked would return all its iterations' gosa.
TEST(HimenoReferenceDeathTest, ASignalStopsTheReplay) {
  const GlobalGrid grid{{33, 33, 65}};
  EXPECT_EXIT(
      {
        interrupt::install();
        std::raise(SIGTERM);
        const ReferenceResult<double> ref =
            serial_reference<double>(grid, whole(grid), original_values(grid), kOmega, 50);
        std::exit(ref.gosa_each.empty() ? 7 : 8);
      },
      ::testing::ExitedWithCode(7), "");
}

// ---- the reference against known values -----------------------------------------------------

TEST(HimenoReference, MatchesTheOriginalsRehearsalAtSizeS) {
  // The original's printed rehearsal value for size S: himenoBMTxpa at size S (its 64x64x128
  // arrays are the grid of kmini's [65, 65, 129]) prints "MFLOPS: ... 3.288628e-03", its gosa
  // after the 3 rehearsal iterations, summed in float in its loop order.
  const GlobalGrid grid{{65, 65, 129}};
  const ReferenceResult<float> ref =
      serial_reference<float>(grid, whole(grid), original_values(grid), kOmega, 3);
  char printed[32];
  std::snprintf(printed, sizeof printed, "%e", ref.gosa_original_order);
  EXPECT_STREQ(printed, "3.288628e-03");
  EXPECT_EQ(ref.iterations, 3);
  ASSERT_EQ(ref.p.size(), 62u * 62u * 126u);
  // kmini's gosa sums the same float terms in double: near the original's float sum, which has
  // lost about 0.25% over its 484,344 terms.
  EXPECT_NEAR(ref.gosa, ref.gosa_original_order, 5e-3 * ref.gosa);
}

TEST(HimenoReference, TwoIterationsOnTheSmallestGridByHand) {
  // Array dims 5: points 0..3 on each axis, interior 1..2. The original's p = i^2 / 9, a = c = 1,
  // a3 = 1/6, b = 0, bnd = 1, wrk1 = 0. In units of 1/27: p(i=0..3) = 0, 3, 12, 27 on every j, k.
  //   1st sweep, i = 1: s0 = 12 + 0 + 4 * 3 = 24, ss = 24/6 - 3 = 1; i = 2: s0 = 27 + 3 + 4 * 12
  //   = 78, ss = 13 - 12 = 1. p += 0.8 ss: 3.8 and 12.8. gosa = 8 ss^2 = 8 / 27^2.
  //   2nd sweep, i = 1 (j, k neighbours: two interior at 3.8, two boundary at 3): s0 = 12.8 + 0
  //   + 2 * 3.8 + 2 * 3 = 26.4, ss = 4.4 - 3.8 = 0.6; i = 2: s0 = 27 + 3.8 + 2 * 12.8 + 2 * 12
  //   = 80.4, ss = 13.4 - 12.8 = 0.6. p: 4.28 and 13.28. gosa = 8 * 0.36 / 27^2.
  const GlobalGrid grid{{5, 5, 5}};
  const double unit = 1.0 / 27.0;
  const double tolerance = 1e-12;  // ss is a difference of nearby values: cancellation
  const ReferenceResult<double> one =
      serial_reference<double>(grid, whole(grid), original_values(grid), kOmega, 1);
  EXPECT_NEAR(one.gosa, 8.0 * unit * unit, tolerance * one.gosa);
  const ReferenceResult<double> two =
      serial_reference<double>(grid, whole(grid), original_values(grid), kOmega, 2);
  EXPECT_NEAR(two.gosa, 8.0 * 0.36 * unit * unit, tolerance * two.gosa);
  // In double, one rank, the original's order is kmini's: the same sum, bit for bit.
  EXPECT_EQ(two.gosa_original_order, two.gosa);
  ASSERT_EQ(two.p.size(), 8u);
  for (std::size_t n = 0; n < two.p.size(); ++n) {
    const double expected = (n < 4 ? 4.28 : 13.28) * unit;  // i = 1, then i = 2
    EXPECT_NEAR(two.p[n], expected, tolerance * expected) << "point " << n;
  }
}

// One term of the original's s0: coefficient array times p at an offset, with a sign (the b-terms'
// four corners), transcribed from himenoBMTxpa.c's jacobi.
struct StencilTerm {
  int coefficient;
  int di, dj, dk;
  double sign;
};
const StencilTerm kStencil[] = {
    {kA0, 1, 0, 0, 1},   {kA1, 0, 1, 0, 1},   {kA2, 0, 0, 1, 1},   {kB0, 1, 1, 0, 1},
    {kB0, 1, -1, 0, -1}, {kB0, -1, 1, 0, -1}, {kB0, -1, -1, 0, 1}, {kB1, 0, 1, 1, 1},
    {kB1, 0, -1, 1, -1}, {kB1, 0, 1, -1, -1}, {kB1, 0, -1, -1, 1}, {kB2, 1, 0, 1, 1},
    {kB2, -1, 0, 1, -1}, {kB2, 1, 0, -1, -1}, {kB2, -1, 0, -1, 1}, {kC0, -1, 0, 0, 1},
    {kC1, 0, -1, 0, 1},  {kC2, 0, 0, -1, 1},
};

TEST(HimenoReference, RandomValuesAsTheOriginalsFormulaGivesThem) {
  // Random coefficients make every one of the 19 points count (the original's b = 0 hides the
  // b-terms). The original's sweep as a table of terms, in double, over the whole grid, against
  // the reference: equal to double rounding (the table sums in another order).
  const GlobalGrid grid{{7, 8, 10}};
  const InitialValues initial = random_values(grid, 5);
  const std::int64_t ni = grid.points(0), nj = grid.points(1), nk = grid.points(2);
  const auto at = [&](std::int64_t i, std::int64_t j, std::int64_t k) {
    return static_cast<std::size_t>((i * nj + j) * nk + k);
  };
  std::vector<double> p(static_cast<std::size_t>(ni * nj * nk));
  for (std::int64_t i = 0; i < ni; ++i)
    for (std::int64_t j = 0; j < nj; ++j)
      for (std::int64_t k = 0; k < nk; ++k)
        p[at(i, j, k)] = initial.pressure<double>(i, j, k);
  double gosa = 0.0;
  for (int iteration = 1; iteration <= 3; ++iteration) {
    std::vector<double> next = p;
    gosa = 0.0;
    for (std::int64_t i = 1; i < ni - 1; ++i)
      for (std::int64_t j = 1; j < nj - 1; ++j)
        for (std::int64_t k = 1; k < nk - 1; ++k) {
          double s0 = initial.coefficient<double>(kWrk1, i, j, k);
          for (const StencilTerm& t : kStencil) {
            s0 += t.sign * initial.coefficient<double>(t.coefficient, i, j, k) *
                  p[at(i + t.di, j + t.dj, k + t.dk)];
          }
          const double ss = (s0 * initial.coefficient<double>(kA3, i, j, k) - p[at(i, j, k)]) *
                            initial.coefficient<double>(kBnd, i, j, k);
          gosa += ss * ss;
          next[at(i, j, k)] = p[at(i, j, k)] + kOmega * ss;
        }
    p = next;

    const ReferenceResult<double> ref =
        serial_reference<double>(grid, whole(grid), initial, kOmega, iteration);
    SCOPED_TRACE(std::to_string(iteration) + " iterations");
    EXPECT_NEAR(ref.gosa, gosa, 1e-12 * gosa);
    ASSERT_EQ(static_cast<double>(ref.p.size()), grid.interior_points());
    std::size_t n = 0;
    double worst = 0.0;
    for (std::int64_t i = 1; i < ni - 1; ++i)
      for (std::int64_t j = 1; j < nj - 1; ++j)
        for (std::int64_t k = 1; k < nk - 1; ++k)
          worst = std::max(worst, std::fabs(ref.p[n++] - p[at(i, j, k)]));
    EXPECT_LT(worst, 1e-14);  // p and its terms are of order 1
  }
  EXPECT_GT(gosa, 0.0);
}

// ---- the reference over a split grid ------------------------------------------------------------

template <class T>
class HimenoReferenceSplit : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(HimenoReferenceSplit, Precisions);

// Each rank's reference, computed on its widened block alone, against the one-rank reference
// over the whole grid: the same p on the rank's points, bit for bit, and the ranks' gosa adding up
// to the whole grid's.
template <class T>
void expect_ranks_agree_with_whole_grid(const GlobalGrid& grid, const Extents& dims,
                                        const InitialValues& initial, std::int64_t iterations) {
  SCOPED_TRACE("dims [" + std::to_string(dims[0]) + ", " + std::to_string(dims[1]) + ", " +
               std::to_string(dims[2]) + "], " + std::to_string(iterations) + " iterations");
  const ReferenceResult<T> all =
      serial_reference<T>(grid, whole(grid), initial, kOmega, iterations);
  ASSERT_EQ(static_cast<double>(all.p.size()), grid.interior_points());
  ASSERT_GT(all.gosa, 0.0);
  const auto global_index = [&](std::int64_t i, std::int64_t j, std::int64_t k) {
    return static_cast<std::size_t>(((i - 1) * grid.interior(1) + (j - 1)) * grid.interior(2) +
                                    (k - 1));
  };
  double gosa_sum = 0.0;
  for (int rank = 0; rank < product(dims); ++rank) {
    const Decomposition d = decompose(grid, dims, rank);
    const ReferenceResult<T> part = serial_reference<T>(grid, d, initial, kOmega, iterations);
    ASSERT_EQ(static_cast<double>(part.p.size()), d.owned_points()) << "rank " << rank;
    std::size_t n = 0;
    int mismatches = 0;
    std::string first_mismatch;
    for (std::int64_t i = d.first[0]; i < d.first[0] + d.owned[0]; ++i)
      for (std::int64_t j = d.first[1]; j < d.first[1] + d.owned[1]; ++j)
        for (std::int64_t k = d.first[2]; k < d.first[2] + d.owned[2]; ++k, ++n) {
          const T expected = all.p[global_index(i, j, k)];
          if (part.p[n] != expected && mismatches++ == 0) {
            first_mismatch = "(" + std::to_string(i) + ", " + std::to_string(j) + ", " +
                             std::to_string(k) + "): " + std::to_string(part.p[n]) + " vs " +
                             std::to_string(expected);
          }
        }
    EXPECT_EQ(mismatches, 0) << "rank " << rank << ", first at " << first_mismatch;
    // The original's order exists for the whole grid only.
    EXPECT_TRUE(std::isnan(part.gosa_original_order)) << "rank " << rank;
    EXPECT_EQ(part.iterations, iterations);
    gosa_sum += part.gosa;
  }
  EXPECT_NEAR(gosa_sum, all.gosa, 1e-12 * all.gosa);
}

TYPED_TEST(HimenoReferenceSplit, EachRanksBlockMatchesTheWholeGrid) {
  const GlobalGrid grid{{13, 14, 17}};  // interior 10 x 11 x 14: uneven blocks
  // 7 iterations reach further than a block is wide: the widened region is clipped at the grid.
  for (const std::int64_t iterations : {1, 3, 7}) {
    for (const Extents dims : {Extents{2, 1, 1}, Extents{1, 2, 2}, Extents{2, 2, 2}}) {
      expect_ranks_agree_with_whole_grid<TypeParam>(grid, dims, random_values(grid, 42),
                                                    iterations);
    }
  }
}

TYPED_TEST(HimenoReferenceSplit, ThinBlocksOfTheOriginalsValues) {
  // One interior plane per rank along k, three along i: every rank's region is mostly halo.
  const GlobalGrid grid{{8, 7, 9}};  // interior 5 x 4 x 6
  expect_ranks_agree_with_whole_grid<TypeParam>(grid, {3, 1, 6}, original_values(grid), 4);
}

TYPED_TEST(HimenoReferenceSplit, TheSeedChangesTheRandomValues) {
  const GlobalGrid grid{{7, 7, 7}};
  const auto a = serial_reference<TypeParam>(grid, whole(grid), random_values(grid, 1), kOmega, 2);
  const auto b = serial_reference<TypeParam>(grid, whole(grid), random_values(grid, 2), kOmega, 2);
  const auto a_again =
      serial_reference<TypeParam>(grid, whole(grid), random_values(grid, 1), kOmega, 2);
  EXPECT_NE(a.p, b.p);
  EXPECT_EQ(a.p, a_again.p);
  EXPECT_EQ(a.gosa, a_again.gosa);
}

// ---- the decomposition ------------------------------------------------------------------------

// Every interior point owned by exactly one rank; blocks near-equal, in rank order; neighbours
// the adjacent blocks, each naming the other.
void expect_consistent_split(const GlobalGrid& grid, const Extents& dims) {
  SCOPED_TRACE("grid [" + std::to_string(grid.array_dims[0]) + ", " +
               std::to_string(grid.array_dims[1]) + ", " + std::to_string(grid.array_dims[2]) +
               "], dims [" + std::to_string(dims[0]) + ", " + std::to_string(dims[1]) + ", " +
               std::to_string(dims[2]) + "]");
  const int ranks = static_cast<int>(product(dims));
  EXPECT_EQ(choose_dims(grid, ranks, {dims[0], dims[1], dims[2]}), dims);
  std::vector<int> owners(static_cast<std::size_t>(grid.interior_points()), 0);
  std::vector<Decomposition> parts;
  for (int rank = 0; rank < ranks; ++rank)
    parts.push_back(decompose(grid, dims, rank));
  for (int rank = 0; rank < ranks; ++rank) {
    const Decomposition& d = parts[static_cast<std::size_t>(rank)];
    EXPECT_EQ(d.dims, dims);
    EXPECT_EQ(d.single(), ranks == 1);
    EXPECT_EQ(d.local_dims(), (Extents{d.owned[0] + 2, d.owned[1] + 2, d.owned[2] + 2}));
    EXPECT_EQ((d.coords[0] * dims[1] + d.coords[1]) * dims[2] + d.coords[2], rank);
    for (int axis = 0; axis < kAxes; ++axis) {
      // Near-equal: the interior's share, rounded down or up.
      EXPECT_GE(d.owned[axis], grid.interior(axis) / dims[axis]) << "rank " << rank;
      EXPECT_LE(d.owned[axis], (grid.interior(axis) + dims[axis] - 1) / dims[axis]);
      EXPECT_GE(d.first[axis], 1);
      EXPECT_LE(d.first[axis] + d.owned[axis], grid.points(axis) - 1);
      for (int side = 0; side < 2; ++side) {
        const int neighbour = d.neighbours[axis][side];
        const bool at_boundary = side == 0 ? d.coords[axis] == 0 : d.coords[axis] == dims[axis] - 1;
        if (at_boundary) {
          EXPECT_EQ(neighbour, -1) << "rank " << rank << " axis " << axis << " side " << side;
          EXPECT_EQ(side == 0 ? d.first[axis] : d.first[axis] + d.owned[axis],
                    side == 0 ? 1 : grid.points(axis) - 1);
          continue;
        }
        ASSERT_GE(neighbour, 0) << "rank " << rank << " axis " << axis << " side " << side;
        ASSERT_LT(neighbour, ranks);
        const Decomposition& n = parts[static_cast<std::size_t>(neighbour)];
        EXPECT_EQ(n.neighbours[axis][1 - side], rank);
        for (int other = 0; other < kAxes; ++other) {
          if (other == axis) continue;
          EXPECT_EQ(n.coords[other], d.coords[other]);
          EXPECT_EQ(n.first[other], d.first[other]);
          EXPECT_EQ(n.owned[other], d.owned[other]);
        }
        // Adjacent blocks: the low neighbour ends where this one starts, and the reverse.
        if (side == 0) {
          EXPECT_EQ(n.first[axis] + n.owned[axis], d.first[axis]);
        } else {
          EXPECT_EQ(d.first[axis] + d.owned[axis], n.first[axis]);
        }
      }
    }
    for (std::int64_t i = d.first[0]; i < d.first[0] + d.owned[0]; ++i)
      for (std::int64_t j = d.first[1]; j < d.first[1] + d.owned[1]; ++j)
        for (std::int64_t k = d.first[2]; k < d.first[2] + d.owned[2]; ++k)
          ++owners.at(static_cast<std::size_t>(
              ((i - 1) * grid.interior(1) + (j - 1)) * grid.interior(2) + (k - 1)));
  }
  std::size_t unowned = 0, shared = 0;
  for (const int count : owners) {
    unowned += count == 0;
    shared += count > 1;
  }
  EXPECT_EQ(unowned, 0u);
  EXPECT_EQ(shared, 0u);
}

TEST(HimenoDecomposition, EveryInteriorPointHasOneOwner) {
  expect_consistent_split(GlobalGrid{{5, 5, 5}}, {1, 1, 1});
  expect_consistent_split(GlobalGrid{{5, 5, 5}}, {2, 2, 2});  // one point per rank
  for (const Extents dims : {Extents{2, 1, 1}, Extents{1, 2, 2}, Extents{2, 2, 2}, Extents{3, 1, 4},
                             Extents{2, 3, 2}, Extents{1, 1, 14}, Extents{10, 1, 1}}) {
    expect_consistent_split(GlobalGrid{{13, 14, 17}}, dims);
  }
  expect_consistent_split(GlobalGrid{{20, 37, 45}}, {4, 3, 5});
  expect_consistent_split(GlobalGrid{{33, 33, 65}}, {2, 2, 2});
}

// The message of the std::invalid_argument `action` throws; a test failure if it throws none.
template <class Action>
std::string invalid_argument_of(Action&& action) {
  try {
    action();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected std::invalid_argument";
  return "";
}

TEST(HimenoDecomposition, RequestsThatCannotWorkAreRefused) {
  const GlobalGrid grid{{13, 14, 17}};  // interior 10 x 11 x 14
  EXPECT_CONTAINS(invalid_argument_of([&] {
                    choose_dims(grid, 4, {1, 1, 3});
                  }),
                  "[1, 1, 3] makes 3 ranks, but the job has 4");
  EXPECT_CONTAINS(invalid_argument_of([&] {
                    choose_dims(grid, 1, {1, 1, 3});
                  }),
                  "makes 3 ranks, but the job has 1");
  EXPECT_CONTAINS(invalid_argument_of([&] {
                    choose_dims(grid, 4, {2, 2});
                  }),
                  "needs three entries [px, py, pz], got 2");
  EXPECT_CONTAINS(invalid_argument_of([&] {
                    choose_dims(grid, 11, {11, 1, 1});
                  }),
                  "puts 11 ranks along i, which has only 10 interior planes");
  EXPECT_CONTAINS(invalid_argument_of([&] {
                    choose_dims(grid, 30, {2, 1, 15});
                  }),
                  "puts 15 ranks along k, which has only 14 interior planes");
  EXPECT_CONTAINS(invalid_argument_of([&] {
                    choose_dims(GlobalGrid{{5, 5, 5}}, 3, {1, 3, 1});
                  }),
                  "along j, which has only 2 interior planes");
  // As many ranks as planes is fine.
  EXPECT_EQ(choose_dims(grid, 10 * 11, {10, 11, 1}), (Extents{10, 11, 1}));
}

}  // namespace
}  // namespace kmini::himeno
