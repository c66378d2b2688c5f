// The bridge app's host pieces, in-process: construction orders (by hand, and QuantLib's loop
// transcribed independently), the execution strategy's step tables replayed by an interpreter of
// their documented encoding against the plain reference, Philox4x32-10 against Random123's
// known answers, the inverse normal CDF, the Cholesky factor, and the reference bridge by hand.
//
// Plain host code: no Kokkos runtime (the headers' KOKKOS_INLINE_FUNCTIONs are called directly).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "bridge/bridge_model.hpp"
#include "bridge/construction_order.hpp"
#include "bridge/execution_strategy.hpp"
#include "bridge/normals.hpp"
#include "bridge/time_grid.hpp"
#include "support/expect.hpp"
#include "support/process.hpp"
#include "support/quantlib_order.hpp"

namespace kmini::bridge {
namespace {

using testing::input_error_of;
using testing::TempDir;

constexpr double kEps = std::numeric_limits<double>::epsilon();

// ---- construction orders ------------------------------------------------------------------------

TimeGrid grid_of(double t0, std::vector<double> times) {
  TimeGrid grid;
  grid.t0 = t0;
  grid.times = std::move(times);
  return grid;
}

// t_i = i: every midpoint and every distance to it is exact, so ties are ties in floating point.
TimeGrid integer_grid(int steps) {
  return uniform_grid(0.0, static_cast<double>(steps), steps);
}

TEST(BridgeOrder, BisectionByHand) {
  // N = 8: t_8; the middle of (0, 8) is t_4; of (0, 4) and (4, 8) t_2 and t_6; then the odd ones.
  EXPECT_EQ(bisection_order(uniform_grid(0.0, 1.0, 8)), (Order{8, 4, 2, 6, 1, 3, 5, 7}));
  // N = 12: t_12, t_6, then t_3 and t_9; the gaps (0, 3), (3, 6), (6, 9), (9, 12) each have two
  // points equally near their middle, so the earlier: t_1, t_4, t_7, t_10; then what is left.
  EXPECT_EQ(bisection_order(integer_grid(12)), (Order{12, 6, 3, 9, 1, 4, 7, 10, 2, 5, 8, 11}));
  EXPECT_EQ(bisection_order(integer_grid(3)), (Order{3, 1, 2}));
}

TEST(BridgeOrder, BisectionTiesOnTheUnitIntervalGoToTheEarlier) {
  // The same rule on the grid `steps: 12` makes on [0, 1]: t_1 and t_2 are equally near 1/8 in
  // exact arithmetic; rounding t_i = i / 12 must not decide (fl(1/12) < 1/12 puts t_2 nearer in
  // double). Likewise t_1, t_2 around 1/2 for N = 3.
  EXPECT_EQ(bisection_order(uniform_grid(0.0, 1.0, 12)),
            (Order{12, 6, 3, 9, 1, 4, 7, 10, 2, 5, 8, 11}));
  EXPECT_EQ(bisection_order(uniform_grid(0.0, 1.0, 3)), (Order{3, 1, 2}));
}

TEST(BridgeOrder, BisectionFollowsTimesNotIndices) {
  // t_1..t_5 = 1, 2, 3, 4, 10: the middle of (0, 10) is 5, nearest t_4; then (0, 4) -> t_2 and
  // (4, 10): only t_5 is left; then (0, 2) -> t_1, (2, 4) -> t_3.
  EXPECT_EQ(bisection_order(grid_of(0.0, {1, 2, 3, 4, 10})), (Order{5, 4, 2, 1, 3}));
  // t0 shifts nothing: the same gaps from t0 = 100.
  EXPECT_EQ(bisection_order(grid_of(100.0, {101, 102, 103, 104, 110})), (Order{5, 4, 2, 1, 3}));
  EXPECT_EQ(bisection_order(grid_of(0.0, {0.5})), (Order{1}));
}

TEST(BridgeOrder, Sequential) {
  EXPECT_EQ(sequential_order(1), (Order{1}));
  EXPECT_EQ(sequential_order(5), (Order{1, 2, 3, 4, 5}));
}

TEST(BridgeOrder, QuantlibIsQuantlibsLoop) {
  for (int n = 1; n <= 100; ++n) {
    EXPECT_EQ(quantlib_order(n), testing::quantlib_loop(n)) << "N = " << n;
  }
  // Index bisection by hand: N = 6 -> t_6, middle of 1..5 is t_3, then t_1 (lower middle of 1..2)
  // and t_4 (of 4..5), then t_2 and t_5.
  EXPECT_EQ(quantlib_order(6), (Order{6, 3, 1, 4, 2, 5}));
}

TEST(BridgeOrder, QuantlibEqualsBisectionOnExactUniformGrids) {
  for (int n = 1; n <= 100; ++n) {
    EXPECT_EQ(bisection_order(integer_grid(n)), quantlib_order(n)) << "N = " << n;
  }
}

TEST(BridgeOrder, QuantlibEqualsBisectionOnTheUnitIntervalsUniformGrids) {
  // The documented promise, on the grids `steps` and `T: 1` make: equal midpoints in exact
  // arithmetic must not be split by how t_i = i / N rounds.
  std::vector<int> differ;
  for (int n = 1; n <= 100; ++n) {
    if (bisection_order(uniform_grid(0.0, 1.0, n)) != quantlib_order(n)) differ.push_back(n);
  }
  EXPECT_TRUE(differ.empty()) << "bisection differs from quantlib on uniform_grid(0, 1, N) for "
                              << ::testing::PrintToString(differ);
}

TEST(BridgeOrder, QuantlibDiffersFromBisectionOnANonUniformGrid) {
  // t = 0.1, 0.25, 0.3, 5: the middle of (0, 5) in time is nearest t_3, then of (0, 0.3) t_1;
  // QuantLib takes the middle index, t_2.
  const TimeGrid grid = grid_of(0.0, {0.1, 0.25, 0.3, 5.0});
  EXPECT_EQ(bisection_order(grid), (Order{4, 3, 1, 2}));
  EXPECT_EQ(quantlib_order(4), (Order{4, 2, 1, 3}));
}

TEST(BridgeOrder, ProblemsNameTheOffendingEntry) {
  EXPECT_EQ(order_problem({2, 1, 3}, 3), "");
  EXPECT_EQ(order_problem({1, 2, 5, 4}, 4), "entry 3 (5) is not a time index in 1..4");
  EXPECT_EQ(order_problem({0, 1}, 2), "entry 1 (0) is not a time index in 1..2");
  EXPECT_EQ(order_problem({1, -3}, 2), "entry 2 (-3) is not a time index in 1..2");
  EXPECT_EQ(order_problem({4, 1, 2, 1}, 4), "entry 4 (1) repeats entry 2");
  EXPECT_EQ(order_problem({1, 2, 3}, 4),
            "time index 4 is missing (the order has 3 entries for 4 times)");
  EXPECT_EQ(order_problem({}, 2), "time index 1 is missing (the order has 0 entries for 2 times)");
  // Too many entries: the first extra one is a repeat or out of range.
  EXPECT_EQ(order_problem({1, 2, 3}, 2), "entry 3 (3) is not a time index in 1..2");
}

TEST(BridgeOrder, ReadsAFileWithCommentsAndCommas) {
  TempDir dir;
  const std::string path =
      dir.write("order.txt", "# a user's order\n4, 2,3\n\n  1 # last\n5,6 , 7,\n");
  EXPECT_EQ(read_order_file(path), (Order{4, 2, 3, 1, 5, 6, 7}));
}

TEST(BridgeOrder, FileErrorsNameFileAndLine) {
  TempDir dir;
  const std::string bad = dir.write("bad.txt", "1 2\n# fine\n3, 4.5\n");
  EXPECT_EQ(input_error_of([&] { read_order_file(bad); }),
            bad + ":3: expected an integer time index, found '4.5'");
  const std::string word = dir.write("word.txt", "1\n2 x\n");
  EXPECT_CONTAINS(input_error_of([&] { read_order_file(word); }), word + ":2: ");
  const std::string huge = dir.write("huge.txt", "99999999999\n");
  EXPECT_CONTAINS(input_error_of([&] { read_order_file(huge); }), huge + ":1: ");
  const std::string empty = dir.write("empty.txt", "# nothing\n");
  EXPECT_EQ(input_error_of([&] { read_order_file(empty); }), empty + ": holds no time indices");
  EXPECT_EQ(input_error_of([&] { read_order_file(dir.file("none.txt")); }),
            "cannot read the order file '" + dir.file("none.txt") + "': no such file");
  EXPECT_EQ(input_error_of([&] { read_order_file(dir.path()); }),
            "cannot read the order file '" + dir.path() + "': it is a directory");
}

TEST(BridgeOrder, NeighboursAreTheNearestKnownPoints) {
  // Order 4, 2, 1, 3 over t_1..t_4: t_4 from t_0; t_2 between t_0 and t_4; t_1 between t_0 and
  // t_2; t_3 between t_2 and t_4.
  const std::vector<Neighbours> nb = neighbours_in_order({4, 2, 1, 3});
  ASSERT_EQ(nb.size(), 4u);
  const int expected[4][2] = {{0, kNoRight}, {0, 4}, {0, 2}, {2, 4}};
  for (std::size_t k = 0; k < nb.size(); ++k) {
    EXPECT_EQ(nb[k].left, expected[k][0]) << "k = " << k;
    EXPECT_EQ(nb[k].right, expected[k][1]) << "k = " << k;
  }
}

TEST(BridgeGrid, Problems) {
  EXPECT_EQ(time_grid_problem(grid_of(0.0, {0.5, 1.0})), "");
  EXPECT_EQ(time_grid_problem(grid_of(0.0, {})), "there are no times after t0");
  EXPECT_EQ(time_grid_problem(grid_of(1.0, {1.0, 2.0})),
            "times must increase strictly from t0: t_1 = 1 is not after t0 = 1");
  EXPECT_EQ(time_grid_problem(grid_of(0.0, {0.25, 0.75, 0.5})),
            "times must increase strictly from t0: t_3 = 0.5 is not after t_2 = 0.75");
  EXPECT_CONTAINS(time_grid_problem(grid_of(0.0, {0.25, NAN})), "t_2 = nan");
  // The last time is T itself, not t0 plus rounded steps.
  EXPECT_EQ(uniform_grid(0.1, 0.7, 3).times.back(), 0.7);
}

// ---- the execution strategy, replayed -----------------------------------------------------------

// The points a schedule holds at once: after position m's step, those built at m or before and
// read after m (a point read at m frees its slot for the point built at m).
int most_held(const Order& order, const std::vector<int>& schedule) {
  const std::size_t n = order.size();
  std::vector<int> made_at(n + 1, -1), position(n);
  for (std::size_t k = 0; k < n; ++k)
    made_at[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
  for (std::size_t m = 0; m < n; ++m)
    position[static_cast<std::size_t>(schedule[m])] = static_cast<int>(m);
  std::vector<int> last_read(n, -1);
  const std::vector<Neighbours> nb = neighbours_in_order(order);
  for (std::size_t k = 0; k < n; ++k) {
    for (const int q : {nb[k].left, nb[k].right}) {
      if (q <= 0) continue;
      const std::size_t maker = static_cast<std::size_t>(made_at[static_cast<std::size_t>(q)]);
      last_read[maker] = std::max(last_read[maker], position[k]);
    }
  }
  int most = 0;
  for (std::size_t m = 0; m < n; ++m) {
    int held = 0;
    for (std::size_t k = 0; k < n; ++k)
      held += position[k] <= static_cast<int>(m) && last_read[k] > static_cast<int>(m);
    most = std::max(most, held);
  }
  return most;
}

// The user's own order as a schedule: position k evaluated k-th.
std::vector<int> identity_schedule(int n) {
  std::vector<int> schedule(static_cast<std::size_t>(n));
  std::iota(schedule.begin(), schedule.end(), 0);
  return schedule;
}

struct Replayed {
  std::vector<double> path;        // X(t_1..t_N), d components together
  std::vector<double> increments;  // the same shape
  std::vector<int> increment_writes;
};

// Checks shared by both tables: the schedule is a permutation of the order's positions, and each
// step names the normal and the point of its position (the replays check the rest).
void expect_consistent_steps(const BridgeModel& model, const StepTables& tables) {
  const int n = model.grid.steps();
  ASSERT_EQ(tables.schedule.size(), static_cast<std::size_t>(n));
  ASSERT_EQ(tables.steps.size(), static_cast<std::size_t>(n));
  ASSERT_EQ(tables.left_weight.size(), static_cast<std::size_t>(n));
  ASSERT_EQ(tables.right_weight.size(), static_cast<std::size_t>(n));
  ASSERT_EQ(tables.sigma.size(), static_cast<std::size_t>(n));
  ASSERT_EQ(tables.scale_at_point.size(), static_cast<std::size_t>(n));
  ASSERT_EQ(tables.scale_after_point.size(), static_cast<std::size_t>(n));
  std::vector<int> sorted = tables.schedule;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> all(static_cast<std::size_t>(n));
  std::iota(all.begin(), all.end(), 0);
  ASSERT_EQ(sorted, all) << "the schedule is not a permutation of the order's positions";
  for (std::size_t m = 0; m < tables.steps.size(); ++m) {
    const std::uint64_t s = tables.steps[m];
    ASSERT_EQ(Step::normal(s), tables.schedule[m]) << "step " << m;
    ASSERT_EQ(Step::point(s), model.order[static_cast<std::size_t>(tables.schedule[m])])
        << "step " << m;
  }
}

// Evaluates step m of `t` from its neighbours' values (equation (5) as the generators compute
// it), records the point in out.path and the increments its flags say it writes, checking that
// the flags name the point's true neighbours. Returns the point.
std::vector<double> apply_step(const BridgeModel& model, const StepTables& t, std::size_t m,
                               const std::vector<double>& z, const double* left_values,
                               const double* right_values, const Neighbours& expected,
                               Replayed& out) {
  const int n = model.grid.steps(), d = model.dim;
  const std::uint64_t s = t.steps[m];
  const int k = Step::normal(s), p = Step::point(s);
  std::vector<double> x(static_cast<std::size_t>(d));
  for (int c = 0; c < d; ++c) {
    double cz = 0.0;
    for (int j = 0; j < d; ++j)
      cz += model.factor[static_cast<std::size_t>(c * d + j)] *
            z[static_cast<std::size_t>(k * d + j)];
    x[static_cast<std::size_t>(c)] =
        t.left_weight[m] * left_values[c] + t.right_weight[m] * right_values[c] + t.sigma[m] * cz;
    out.path[static_cast<std::size_t>((p - 1) * d + c)] = x[static_cast<std::size_t>(c)];
  }
  const unsigned flags = Step::flags(s);
  if (flags & Step::kIncrementAtPoint) {
    EXPECT_EQ(expected.left, p - 1);
    ++out.increment_writes[static_cast<std::size_t>(p - 1)];
    for (int c = 0; c < d; ++c)
      out.increments[static_cast<std::size_t>((p - 1) * d + c)] =
          (x[static_cast<std::size_t>(c)] - left_values[c]) * t.scale_at_point[m];
  }
  if (flags & Step::kIncrementAfterPoint) {
    EXPECT_EQ(expected.right, p + 1);
    EXPECT_LT(p, n);
    if (::testing::Test::HasFailure()) return x;
    ++out.increment_writes[static_cast<std::size_t>(p)];
    for (int c = 0; c < d; ++c)
      out.increments[static_cast<std::size_t>(p * d + c)] =
          (right_values[c] - x[static_cast<std::size_t>(c)]) * t.scale_after_point[m];
  }
  return x;
}

// The stacked tables run as the naive generator runs them: slot 0 holds x_0, every point is
// stored to its slot, neighbours read from their slots. Each read is checked to find the
// neighbour the user's order gives the point.
Replayed replay_stacked(const BridgeModel& model, const ExecutionStrategy& strategy,
                        const std::vector<double>& z) {
  const int n = model.grid.steps(), d = model.dim;
  const StepTables& t = strategy.stacked;
  const std::vector<Neighbours> nb = neighbours_in_order(model.order);
  Replayed out{std::vector<double>(static_cast<std::size_t>(n * d), NAN),
               std::vector<double>(static_cast<std::size_t>(n * d), NAN),
               std::vector<int>(static_cast<std::size_t>(n), 0)};
  const int slots = strategy.stack_slots();
  std::vector<double> stack(static_cast<std::size_t>(slots * d), NAN);
  std::vector<int> holds(static_cast<std::size_t>(slots), -1);  // the time index in each slot
  for (int c = 0; c < d; ++c)
    stack[static_cast<std::size_t>(c)] = model.x0[static_cast<std::size_t>(c)];
  holds[0] = 0;
  std::vector<bool> built(static_cast<std::size_t>(n) + 1, false);
  built[0] = true;
  for (std::size_t m = 0; m < t.steps.size(); ++m) {
    const std::uint64_t s = t.steps[m];
    const int k = Step::normal(s), p = Step::point(s);
    const Neighbours expected = nb[static_cast<std::size_t>(k)];
    const int left = Step::left_slot(s), right = Step::right_slot(s), store = Step::store_slot(s);
    SCOPED_TRACE("stacked step " + std::to_string(m) + " (point " + std::to_string(p) + ")");
    EXPECT_GE(left, 0);
    EXPECT_LE(left, strategy.stack);
    EXPECT_GE(right, 0);
    EXPECT_LE(right, strategy.stack);
    EXPECT_GE(store, 1);  // slot 0 keeps x_0
    EXPECT_LE(store, strategy.stack + 1);
    if (::testing::Test::HasFailure()) return out;
    EXPECT_EQ(holds[static_cast<std::size_t>(left)], expected.left);
    if (expected.right == kNoRight) {
      EXPECT_EQ(right, 0);
      EXPECT_EQ(t.right_weight[m], 0.0);
    } else {
      EXPECT_EQ(holds[static_cast<std::size_t>(right)], expected.right);
    }
    EXPECT_TRUE(built[static_cast<std::size_t>(expected.left)]);
    if (::testing::Test::HasFailure()) return out;
    const std::vector<double> x =
        apply_step(model, t, m, z, &stack[static_cast<std::size_t>(left * d)],
                   &stack[static_cast<std::size_t>(right * d)], expected, out);
    if (::testing::Test::HasFailure()) return out;
    for (int c = 0; c < d; ++c)
      stack[static_cast<std::size_t>(store * d + c)] = x[static_cast<std::size_t>(c)];
    holds[static_cast<std::size_t>(store)] = p;
    built[static_cast<std::size_t>(p)] = true;
  }
  return out;
}

// The fused tables run as the fused generator runs them: x_0 and the two points built last in
// registers, the stack (slots 0..fused_stack-1) only for points stored with kStore.
Replayed replay_fused(const BridgeModel& model, const ExecutionStrategy& strategy,
                      const std::vector<double>& z, int* register_reads, int* reads) {
  const int n = model.grid.steps(), d = model.dim;
  const StepTables& t = strategy.fused;
  const std::vector<Neighbours> nb = neighbours_in_order(model.order);
  Replayed out{std::vector<double>(static_cast<std::size_t>(n * d), NAN),
               std::vector<double>(static_cast<std::size_t>(n * d), NAN),
               std::vector<int>(static_cast<std::size_t>(n), 0)};
  std::vector<double> stack(static_cast<std::size_t>(std::max(strategy.fused_stack, 1) * d), NAN);
  std::vector<int> holds(static_cast<std::size_t>(std::max(strategy.fused_stack, 1)), -1);
  std::vector<double> previous = model.x0, before_previous = model.x0;
  int previous_point = -1, before_previous_point = -1;  // none built yet
  *register_reads = 0;
  *reads = 0;
  for (std::size_t m = 0; m < t.steps.size(); ++m) {
    const std::uint64_t s = t.steps[m];
    const int k = Step::normal(s), p = Step::point(s);
    const Neighbours expected = nb[static_cast<std::size_t>(k)];
    SCOPED_TRACE("fused step " + std::to_string(m) + " (point " + std::to_string(p) + ")");
    std::vector<double> neighbour[2];
    const unsigned sources[2] = {Step::left_source(s), Step::right_source(s)};
    const int slots[2] = {Step::left_slot(s), Step::right_slot(s)};
    const int wanted[2] = {expected.left, expected.right};
    for (int side = 0; side < 2; ++side) {
      const int q = wanted[side];
      const bool from_x0 = q == 0 || q == kNoRight;
      if (!from_x0) ++*reads;
      switch (sources[side]) {
        case kFromX0:
          EXPECT_TRUE(from_x0) << "side " << side << " reads x_0 for point " << q;
          neighbour[side] = model.x0;
          break;
        case kFromPrevious:
          EXPECT_EQ(previous_point, q) << "side " << side;
          ++*register_reads;
          neighbour[side] = previous;
          break;
        case kFromBeforePrevious:
          EXPECT_EQ(before_previous_point, q) << "side " << side;
          ++*register_reads;
          neighbour[side] = before_previous;
          break;
        default:
          EXPECT_GE(slots[side], 0);
          EXPECT_LT(slots[side], strategy.fused_stack);
          if (::testing::Test::HasFailure()) return out;
          EXPECT_EQ(holds[static_cast<std::size_t>(slots[side])], q) << "side " << side;
          neighbour[side].assign(stack.begin() + slots[side] * d,
                                 stack.begin() + (slots[side] + 1) * d);
      }
      if (::testing::Test::HasFailure()) return out;
    }
    if (expected.right == kNoRight) {
      EXPECT_EQ(t.right_weight[m], 0.0);
    }
    const std::vector<double> x =
        apply_step(model, t, m, z, neighbour[0].data(), neighbour[1].data(), expected, out);
    if (::testing::Test::HasFailure()) return out;
    if (Step::flags(s) & Step::kStore) {
      const int store = Step::store_slot(s);
      EXPECT_GE(store, 0);
      EXPECT_LT(store, strategy.fused_stack);
      if (::testing::Test::HasFailure()) return out;
      std::copy(x.begin(), x.end(), stack.begin() + store * d);
      holds[static_cast<std::size_t>(store)] = p;
    }
    before_previous = previous;
    before_previous_point = previous_point;
    previous = x;
    previous_point = p;
  }
  return out;
}

// The largest |error| the tables' arithmetic may leave against the reference's (both double):
// a few roundings per interpolation along the longest chain, of the size of the values.
double replay_tolerance(const BridgeModel& model, const ExecutionStrategy& strategy,
                        const std::vector<double>& path, const std::vector<double>& z) {
  double magnitude = 1.0;
  for (const double v : path)
    magnitude = std::max(magnitude, std::fabs(v));
  for (const double v : model.x0)
    magnitude = std::max(magnitude, std::fabs(v));
  double largest_z = 0.0;
  for (const double v : z)
    largest_z = std::max(largest_z, std::fabs(v));
  double largest_factor = 0.0;
  for (const double v : model.factor)
    largest_factor = std::max(largest_factor, std::fabs(v));
  const double span = model.grid.times.back() - model.grid.t0;
  magnitude = std::max(magnitude, std::sqrt(span) * largest_z * largest_factor * model.dim);
  return 16.0 * (strategy.depth + 1) * kEps * magnitude;
}

// Builds the strategy for `model` and replays both tables on random normals: the reference's
// path and increments, every increment written once, the stack never above the user order's.
void expect_strategy_reproduces_reference(const BridgeModel& model, std::mt19937_64& rng) {
  const int n = model.grid.steps(), d = model.dim;
  const ExecutionStrategy s = build_strategy(model.grid, model.order);
  EXPECT_EQ(s.steps, n);
  EXPECT_LE(s.stack, s.user_stack);
  EXPECT_GE(s.stack, 0);
  EXPECT_EQ(s.user_stack, most_held(model.order, identity_schedule(n)));
  EXPECT_EQ(s.stack, most_held(model.order, s.stacked.schedule));
  EXPECT_GE(s.depth, 1);
  EXPECT_LE(s.depth, n);
  expect_consistent_steps(model, s.stacked);
  expect_consistent_steps(model, s.fused);
  if (::testing::Test::HasFailure()) return;

  std::normal_distribution<double> normal;
  std::vector<double> z(static_cast<std::size_t>(n * d));
  for (double& v : z)
    v = normal(rng);
  const std::vector<double> path = reference_path(model, z.data());
  const std::vector<double> increments = increments_of(model, path);
  const double tolerance = replay_tolerance(model, s, path, z);

  const Replayed stacked = replay_stacked(model, s, z);
  if (::testing::Test::HasFailure()) return;
  int register_reads = 0, reads = 0;
  const Replayed fused = replay_fused(model, s, z, &register_reads, &reads);
  if (::testing::Test::HasFailure()) return;
  EXPECT_DOUBLE_EQ(s.register_reads,
                   reads == 0 ? 1.0 : static_cast<double>(register_reads) / reads);
  for (const Replayed* replayed : {&stacked, &fused}) {
    SCOPED_TRACE(replayed == &stacked ? "stacked tables" : "fused tables");
    for (int i = 1; i <= n; ++i) {
      EXPECT_EQ(replayed->increment_writes[static_cast<std::size_t>(i - 1)], 1)
          << "increment " << i;
      const double dt = model.grid.at(i) - model.grid.at(i - 1);
      for (int c = 0; c < d; ++c) {
        const std::size_t j = static_cast<std::size_t>((i - 1) * d + c);
        EXPECT_NEAR(replayed->path[j], path[j], tolerance) << "t_" << i << ", component " << c;
        EXPECT_NEAR(replayed->increments[j], increments[j],
                    2.0 * tolerance / dt + 4.0 * kEps * std::fabs(increments[j]))
            << "increment " << i << ", component " << c;
      }
      if (::testing::Test::HasFailure()) return;
    }
  }
}

BridgeModel model_of(const TimeGrid& grid, const Order& order, int dim = 1) {
  BridgeModel model;
  model.grid = grid;
  model.order = order;
  model.dim = dim;
  model.x0.assign(static_cast<std::size_t>(dim), 0.0);
  model.factor.assign(static_cast<std::size_t>(dim * dim), 0.0);
  for (int c = 0; c < dim; ++c)
    model.factor[static_cast<std::size_t>(c * dim + c)] = 1.0;
  return model;
}

// Strictly increasing random times after a random t0, steps between 0.01 and 1.
TimeGrid random_grid(int steps, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> start(-2.0, 2.0), step(0.01, 1.0);
  TimeGrid grid;
  grid.t0 = start(rng);
  double t = grid.t0;
  for (int i = 0; i < steps; ++i) {
    t += step(rng);
    grid.times.push_back(t);
  }
  return grid;
}

TEST(BridgeStrategy, BuiltInOrdersUpTo200Steps) {
  std::mt19937_64 rng(20120);
  for (int n = 1; n <= 200; ++n) {
    const TimeGrid uniform = uniform_grid(0.0, 1.0, n);
    const TimeGrid irregular = random_grid(n, rng);
    const struct {
      const char* name;
      TimeGrid grid;
      Order order;
    } cases[] = {
        {"bisection", uniform, bisection_order(uniform)},
        {"bisection on random times", irregular, bisection_order(irregular)},
        {"sequential", uniform, sequential_order(n)},
        {"quantlib on random times", irregular, quantlib_order(n)},
    };
    for (const auto& c : cases) {
      SCOPED_TRACE(std::string(c.name) + ", N = " + std::to_string(n));
      expect_strategy_reproduces_reference(model_of(c.grid, c.order), rng);
      if (HasFailure()) return;
    }
  }
}

TEST(BridgeStrategy, RandomPermutations) {
  std::mt19937_64 rng(4004);
  std::uniform_int_distribution<int> steps(1, 300);
  int built = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const int n = steps(rng);
    Order order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 1);
    std::shuffle(order.begin(), order.end(), rng);
    const int dim = trial % 4 == 0 ? 3 : 1;
    BridgeModel model = model_of(random_grid(n, rng), order, dim);
    if (dim == 3) {
      model.x0 = {0.5, -1.0, 2.0};
      model.factor = {0.3, 0.0, 0.0, 0.1, 0.2, 0.0, -0.2, 0.05, 0.4};
    }
    SCOPED_TRACE("trial " + std::to_string(trial) + ", N = " + std::to_string(n));
    try {
      expect_strategy_reproduces_reference(model, rng);
      ++built;
    } catch (const std::length_error& e) {
      // Only an order that needs more than the packed slots may be refused.
      EXPECT_GT(most_held(order, identity_schedule(n)), kMaxSlots - 2) << e.what();
    }
    if (HasFailure()) return;
  }
  EXPECT_GE(built, 150);  // the check above must not turn into a skip
}

TEST(BridgeStrategy, StructuredOrders) {
  std::mt19937_64 rng(7);
  for (const int n : {2, 7, 64, 255}) {
    Order reversed(static_cast<std::size_t>(n)), evens_then_odds;
    std::iota(reversed.rbegin(), reversed.rend(), 1);
    for (int i = 2; i <= n; i += 2)
      evens_then_odds.push_back(i);
    for (int i = 1; i <= n; i += 2)
      evens_then_odds.push_back(i);
    for (const Order& order : {reversed, evens_then_odds}) {
      SCOPED_TRACE("N = " + std::to_string(n) + ", order starting " +
                   std::to_string(order.front()));
      expect_strategy_reproduces_reference(model_of(uniform_grid(0.5, 2.0, n), order), rng);
    }
  }
}

TEST(BridgeStrategy, BisectionOf64KeepsFewPoints) {
  // In bisection order the 32 even points are all built, and held, before the first odd point
  // reads two of them. Depth first, a gap is finished before the next is opened.
  const TimeGrid grid = uniform_grid(0.0, 1.0, 64);
  const ExecutionStrategy s = build_strategy(grid, bisection_order(grid));
  EXPECT_EQ(s.user_stack, 32);
  EXPECT_LE(s.stack, 7);
  EXPECT_LE(s.fused_stack, 7);
  EXPECT_EQ(s.depth, 7);  // t_64, t_32, t_16, t_8, t_4, t_2, t_1
  EXPECT_EQ(s.stack_slots(), s.stack + 2);
}

TEST(BridgeStrategy, SequentialHoldsOnePoint) {
  // Each point is read by the next step only: one slot on the stack, none in the fused
  // generator, which reads it from its register.
  const TimeGrid grid = uniform_grid(0.0, 1.0, 20);
  const ExecutionStrategy s = build_strategy(grid, sequential_order(20));
  EXPECT_EQ(s.user_stack, 1);
  EXPECT_EQ(s.stack, 1);
  EXPECT_EQ(s.fused_stack, 0);
  EXPECT_EQ(s.depth, 20);
  EXPECT_DOUBLE_EQ(s.register_reads, 1.0);
}

TEST(BridgeStrategy, RefusesMoreStepsThanThePackedIndicesHold) {
  const TimeGrid grid = uniform_grid(0.0, 1.0, kMaxSteps + 1);
  EXPECT_THROW(build_strategy(grid, sequential_order(kMaxSteps + 1)), std::length_error);
}

// ---- Philox4x32-10 ------------------------------------------------------------------------------

// Random123's kat_vectors, philox4x32 with 10 rounds: counter words 0..3, key words 0..1, then the
// four output words.
TEST(BridgePhilox, Random123KnownAnswers) {
  const std::uint32_t kat[3][10] = {
      {0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x6627e8d5,
       0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
      {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0x408f276d,
       0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
      {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0, 0xd16cfe09,
       0x94fdcceb, 0x5001e420, 0x24126ea1},
  };
  for (const auto& v : kat) {
    const Philox4x32 r = philox4x32_10(Philox4x32{{v[0], v[1], v[2], v[3]}}, v[4], v[5]);
    for (int w = 0; w < 4; ++w) {
      EXPECT_EQ(r.word[w], v[6 + w]) << std::hex << "counter " << v[0] << "..., word " << w;
    }
  }
}

// ---- the inverse normal CDF ---------------------------------------------------------------------

double normal_cdf(double x) {
  return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

TEST(BridgeInverseNormal, KnownValuesAndSymmetry) {
  EXPECT_NEAR(inverse_normal_cdf(0.975), 1.959963984540054, 1e-15 * 1.959963984540054);
  EXPECT_NEAR(inverse_normal_cdf(0.025), -1.959963984540054, 1e-15 * 1.959963984540054);
  EXPECT_NEAR(inverse_normal_cdf(0.8413447460685429), 1.0, 2e-15);  // Phi(1)
  // Where 1 - u is exact, the upper half is the lower half mirrored, bit for bit (u = 1/2, its
  // own mirror, is the next test's).
  for (int k = 1; k < 1024; ++k) {
    if (k == 512) continue;
    const double u = k / 1024.0;
    EXPECT_EQ(inverse_normal_cdf(1.0 - u), -inverse_normal_cdf(u)) << "u = " << u;
    EXPECT_EQ(inverse_normal_cdf(u) < 0.0, k < 512) << "u = " << u;
  }
}

TEST(BridgeInverseNormal, TheMedianIsZero) {
  // Sobol point 1 is 1/2 in every dimension: the first path's normals are Phi^-1(1/2).
  EXPECT_EQ(inverse_normal_cdf(0.5), 0.0);
}

TEST(BridgeInverseNormal, RoundTripFromTheDeepTailToJustBelowOne) {
  // Phi(x) for the double x nearest Phi^-1(u) is u to the conditioning of Phi at x: a relative
  // change of |x| phi(x) / Phi(x) per unit of relative change in x, which is about x^2 in the
  // lower tail (1369 at u = 1e-300). A few units in the last place of x, plus erfc's own rounding.
  std::mt19937_64 rng(975);
  std::uniform_real_distribution<double> exponent(std::log(1e-300), std::log(0.5));
  std::vector<double> us{1e-300, 2.2250738585072014e-308 * 1e8, 0.5, 1.0 - 0x1p-53, 1.0 - 0x1p-52};
  for (int i = 0; i < 2000; ++i) {
    const double v = std::exp(exponent(rng));
    us.push_back(v);
    us.push_back(1.0 - std::max(v, 0x1p-53));  // the upper half, down to 1 - 2^-53
  }
  int checked = 0;
  for (const double u : us) {
    const double x = inverse_normal_cdf(u);
    ASSERT_TRUE(std::isfinite(x)) << "u = " << u;
    const double phi = std::exp(-0.5 * x * x) / 2.5066282746310002;  // sqrt(2 pi)
    const double lower = normal_cdf(-std::fabs(x));  // the tail p the function solves for
    const double conditioning = std::fabs(x) * phi / lower;
    const double tolerance = (2.0 + 4.0 * conditioning) * kEps;
    EXPECT_NEAR(normal_cdf(x), u, tolerance * u) << "u = " << u << ", x = " << x;
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(us.size()));
}

// How many units in the last place of x `inverse_normal_cdf(u)` is from Phi^-1(u), found by
// Newton on Phi(x) - u in long double from the function's own answer. Near the median the
// residual is written with erf and u - 1/2 (exact there), so that it keeps its relative accuracy
// as x goes to 0.
double ulps_off(double u) {
  const double x = inverse_normal_cdf(u);
  long double root = x;
  const long double sqrt_two_pi = std::sqrt(2.0L * 3.14159265358979323846264338327950288L);
  for (int step = 0; step < 4; ++step) {
    const long double residual =
        u >= 0.25 ? 0.5L * std::erf(root / std::sqrt(2.0L)) - static_cast<long double>(u - 0.5)
                  : 0.5L * std::erfc(-root / std::sqrt(2.0L)) - static_cast<long double>(u);
    root -= residual / (std::exp(-0.5L * root * root) / sqrt_two_pi);
  }
  const double ulp = std::nextafter(std::fabs(x), INFINITY) - std::fabs(x);
  return static_cast<double>(std::fabs(static_cast<long double>(x) - root) / ulp);
}

bool long_double_is_wider() {
  return std::numeric_limits<long double>::digits > std::numeric_limits<double>::digits;
}

TEST(BridgeInverseNormal, WithinAFewUlpsInTheTails) {
  if (!long_double_is_wider()) GTEST_SKIP() << "long double is no wider than double here";
  std::mt19937_64 rng(1959);
  std::uniform_real_distribution<double> exponent(std::log(1e-300), std::log(0.4));
  for (int i = 0; i < 500; ++i) {
    const double u = i == 0 ? 0.975 : std::exp(exponent(rng));
    EXPECT_LE(ulps_off(u), 4.0) << "u = " << u;
  }
}

TEST(BridgeInverseNormal, WithinAFewUlpsNearTheMedian) {
  // The documented accuracy, a few units in the last place, where x is small: u in (0.4, 0.5).
  if (!long_double_is_wider()) GTEST_SKIP() << "long double is no wider than double here";
  int worse = 0;
  double worst = 0.0, worst_u = 0.0;
  for (int i = 1; i <= 200; ++i) {
    const double u = 0.5 - 0.1 * std::pow(2.0, -0.2 * i);  // 0.5 - 0.087 .. 0.5 - 1e-13
    const double off = ulps_off(u);
    worse += off > 4.0;
    if (off > worst) {
      worst = off;
      worst_u = u;
    }
  }
  EXPECT_EQ(worse, 0) << "the worst is " << worst << " ulps at u = " << worst_u;
}

// ---- the Cholesky factor ------------------------------------------------------------------------

TEST(BridgeCholesky, ReproducesRandomSpdMatrices) {
  std::mt19937_64 rng(8);
  std::normal_distribution<double> normal;
  for (int d = 1; d <= 8; ++d) {
    std::vector<std::vector<double>> b(static_cast<std::size_t>(d), std::vector<double>(d));
    for (auto& row : b)
      for (double& v : row)
        v = normal(rng);
    std::vector<std::vector<double>> sigma(static_cast<std::size_t>(d), std::vector<double>(d));
    for (int i = 0; i < d; ++i)
      for (int j = 0; j < d; ++j) {
        double s = i == j ? 0.1 : 0.0;
        for (int k = 0; k < d; ++k)
          s += b[i][k] * b[j][k];
        sigma[i][j] = s;
      }
    std::vector<double> c;
    ASSERT_EQ(cholesky_factor(sigma, c), "") << "d = " << d;
    ASSERT_EQ(c.size(), static_cast<std::size_t>(d * d));
    double largest = 0.0;
    for (const auto& row : sigma)
      for (const double v : row)
        largest = std::max(largest, std::fabs(v));
    for (int i = 0; i < d; ++i) {
      EXPECT_GT(c[static_cast<std::size_t>(i * d + i)], 0.0);
      for (int j = 0; j < d; ++j) {
        if (j > i) {
          EXPECT_EQ(c[static_cast<std::size_t>(i * d + j)], 0.0) << "upper triangle";
        }
        double s = 0.0;
        for (int k = 0; k < d; ++k)
          s += c[static_cast<std::size_t>(i * d + k)] * c[static_cast<std::size_t>(j * d + k)];
        EXPECT_NEAR(s, sigma[i][j], 64.0 * d * kEps * largest)
            << "d = " << d << " [" << i << "][" << j << "]";
      }
    }
  }
}

TEST(BridgeCholesky, ByHand) {
  // [[4, 2], [2, 5]] = [[2, 0], [1, 2]] [[2, 1], [0, 2]].
  std::vector<double> c;
  ASSERT_EQ(cholesky_factor({{4, 2}, {2, 5}}, c), "");
  EXPECT_EQ(c, (std::vector<double>{2, 0, 1, 2}));
}

TEST(BridgeCholesky, Refusals) {
  std::vector<double> c;
  EXPECT_EQ(cholesky_factor({{1, 0, 0}, {0, 1, 0}}, c), "is not square: 2 rows of 3 numbers");
  EXPECT_EQ(cholesky_factor({{1, 0.5}, {0.25, 1}}, c),
            "is not symmetric: entry [1][0] = 0.25 but [0][1] = 0.5");
  EXPECT_EQ(cholesky_factor({{1, 2}, {2, 1}}, c),
            "is not positive definite: its leading 2x2 minor is not positive");
  EXPECT_EQ(cholesky_factor({{-1}}, c),
            "is not positive definite: its leading 1x1 minor is not positive");
  // Singular (rank one): positive semi-definite is not enough.
  EXPECT_EQ(cholesky_factor({{1, 1, 0}, {1, 1, 0}, {0, 0, 1}}, c),
            "is not positive definite: its leading 2x2 minor is not positive");
  // The first asymmetric pair is named, below the diagonal first.
  EXPECT_EQ(cholesky_factor({{1, 0, 0}, {0, 1, 3}, {0, 2, 1}}, c),
            "is not symmetric: entry [2][1] = 2 but [1][2] = 3");
}

// ---- the reference bridge by hand ---------------------------------------------------------------

TEST(BridgeReference, ThreePointsByHand) {
  // t_0 = 0, x_0 = 1; t = 1, 3, 4; order t_3, t_1, t_2; normals 0.5, -1, 2.
  //   X(4) = 1 + sqrt(4) 0.5 = 2.
  //   X(1) between (0, 1) and (4, 2): (3 * 1 + 1 * 2) / 4 + sqrt(1 * 3 / 4) (-1) = 1.25 -
  //   sqrt(.75). X(3) between (1, X(1)) and (4, 2): (1 * X(1) + 2 * 2) / 3 + sqrt(2 * 1 / 3) 2.
  BridgeModel model = model_of(grid_of(0.0, {1.0, 3.0, 4.0}), {3, 1, 2});
  model.x0 = {1.0};
  const double z[] = {0.5, -1.0, 2.0};
  const std::vector<double> path = reference_path(model, z);
  const double x3 = 2.0;
  const double x1 = 1.25 - std::sqrt(0.75);
  const double x2 = (x1 + 4.0) / 3.0 + 2.0 * std::sqrt(2.0 / 3.0);
  ASSERT_EQ(path.size(), 3u);
  EXPECT_NEAR(path[0], x1, 4 * kEps);
  EXPECT_NEAR(path[1], x2, 8 * kEps);
  EXPECT_EQ(path[2], x3);
  const std::vector<double> inc = increments_of(model, path);
  ASSERT_EQ(inc.size(), 3u);
  EXPECT_NEAR(inc[0], (x1 - 1.0) / 1.0, 8 * kEps);
  EXPECT_NEAR(inc[1], (x2 - x1) / 2.0, 8 * kEps);
  EXPECT_NEAR(inc[2], (x3 - x2) / 1.0, 8 * kEps);
}

TEST(BridgeReference, OneStepCorrelatedByHand) {
  // d = 2, C = [[2, 0], [1, 1]], t_0 = 1, t_1 = 1.25: X = x_0 + sqrt(0.25) C z.
  BridgeModel model = model_of(grid_of(1.0, {1.25}), {1}, 2);
  model.x0 = {3.0, -1.0};
  model.factor = {2.0, 0.0, 1.0, 1.0};
  const double z[] = {1.0, -4.0};
  EXPECT_EQ(reference_path(model, z), (std::vector<double>{3.0 + 0.5 * 2.0, -1.0 + 0.5 * -3.0}));
}

TEST(BridgeReference, IncrementsSumBackToThePath) {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal;
  const TimeGrid grid = random_grid(40, rng);
  BridgeModel model = model_of(grid, bisection_order(grid), 2);
  model.x0 = {0.7, -0.2};
  model.factor = {1.0, 0.0, 0.6, 0.8};
  std::vector<double> z(80);
  for (double& v : z)
    v = normal(rng);
  const std::vector<double> path = reference_path(model, z.data());
  const std::vector<double> inc = increments_of(model, path);
  ASSERT_EQ(inc.size(), path.size());
  std::vector<double> x = model.x0;
  for (int i = 1; i <= 40; ++i) {
    for (int c = 0; c < 2; ++c) {
      x[c] += inc[static_cast<std::size_t>((i - 1) * 2 + c)] * (grid.at(i) - grid.at(i - 1));
      EXPECT_NEAR(x[c], path[static_cast<std::size_t>((i - 1) * 2 + c)], 1e-12)
          << "t_" << i << ", component " << c;
    }
  }
  // Each point of a bisection path depends on the others; the path is not constant.
  EXPECT_NE(path.front(), path.back());
}

}  // namespace
}  // namespace kmini::bridge
