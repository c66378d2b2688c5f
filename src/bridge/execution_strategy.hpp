// The initialization step of seed 004 (section 2.2): from a user's construction order, an
// equivalent order that needs a small local stack, with every index the generation step needs
// (where to read the neighbours, which normal, where to store) precomputed and packed into one
// 64-bit word per step, and the interpolation coefficients beside it.
//
// Reordering changes nothing in the result: a point's value depends only on its two neighbours
// and its normal, which stay those of the user's order (the k-th normal still builds the k-th
// point of the user's order). Only the order of evaluation, and so the number of points that
// must be held at once, changes.
#pragma once

#include <cstdint>
#include <vector>

#include <Kokkos_Core.hpp>

#include "bridge/construction_order.hpp"
#include "bridge/time_grid.hpp"

namespace kmini::bridge {

// The packed step's limits: time and normal indices in 16 bits, stack slots in 8.
constexpr int kMaxSteps = 65535;
constexpr int kMaxSlots = 255;

// Where the fused generator (seed 004's fifth strategy) finds a neighbour: x_0, the point built
// one or two steps before (kept in registers), or the stack.
enum Source : unsigned { kFromX0 = 0, kFromPrevious = 1, kFromBeforePrevious = 2, kFromStack = 3 };

// One generation step: bits 0-15 the normal (its position in the user's order), 16-31 the time
// index of the point built (1..N), 32-39 / 40-47 the stack slots of the left and right
// neighbours, 48-55 the slot the point is stored to, 56-63 flags.
struct Step {
  static constexpr unsigned kIncrementAtPoint = 1u;     // write (x_p - x_{p-1}) / dt: left is p-1
  static constexpr unsigned kIncrementAfterPoint = 2u;  // write (x_{p+1} - x_p) / dt: right is p+1
  static constexpr unsigned kStore = 64u;               // fused: the point goes to the stack

  KOKKOS_INLINE_FUNCTION static int normal(std::uint64_t s) { return int(s & 0xffffu); }
  KOKKOS_INLINE_FUNCTION static int point(std::uint64_t s) { return int((s >> 16) & 0xffffu); }
  KOKKOS_INLINE_FUNCTION static int left_slot(std::uint64_t s) { return int((s >> 32) & 0xffu); }
  KOKKOS_INLINE_FUNCTION static int right_slot(std::uint64_t s) { return int((s >> 40) & 0xffu); }
  KOKKOS_INLINE_FUNCTION static int store_slot(std::uint64_t s) { return int((s >> 48) & 0xffu); }
  KOKKOS_INLINE_FUNCTION static unsigned flags(std::uint64_t s) { return unsigned(s >> 56); }
  KOKKOS_INLINE_FUNCTION static unsigned left_source(std::uint64_t s) {
    return (flags(s) >> 2) & 3u;
  }
  KOKKOS_INLINE_FUNCTION static unsigned right_source(std::uint64_t s) {
    return (flags(s) >> 4) & 3u;
  }

  static std::uint64_t pack(int normal, int point, int left_slot, int right_slot, int store_slot,
                            unsigned flags);
};

// What a generator reads per evaluated step, in its evaluation order.
struct StepTables {
  std::vector<int> schedule;         // positions in the user's order, in evaluation order
  std::vector<std::uint64_t> steps;  // packed
  // x = left_weight x_left + right_weight x_right + sigma C z (equation (5)).
  std::vector<double> left_weight, right_weight, sigma;
  // For increments: 1 / (t_p - t_{p-1}) and 1 / (t_{p+1} - t_p), 0 where the step writes no
  // such increment.
  std::vector<double> scale_at_point, scale_after_point;
};

struct ExecutionStrategy {
  int steps = 0;
  // For the generators that keep every point on a stack: slot 0 holds x_0, slots 1..stack the
  // points still needed, slot stack + 1 takes points nobody reads again (so the loop is the same
  // for every step). A point without a right neighbour reads slot 0 with weight 0. Its order is
  // chosen for the smallest stack.
  StepTables stacked;
  // For the fused generator: neighbours from registers where they were built one or two steps
  // before, else from slots 0..fused_stack-1; only points read later than that are stored. Its
  // order is chosen for the least stack traffic.
  StepTables fused;

  int user_stack = 0;           // points held at once when evaluating in the user's order
  int stack = 0;                // ... in the stacked order (never more than user_stack)
  int fused_stack = 0;          // slots the fused generator needs
  int depth = 0;                // the longest chain of interpolations behind one point
  double register_reads = 0.0;  // fraction of the fused generator's neighbour reads from registers

  int stack_slots() const { return stack + 2; }  // with x_0's and the discard slot
};

// Throws std::length_error when the order needs more than kMaxSlots slots or N > kMaxSteps.
ExecutionStrategy build_strategy(const TimeGrid& grid, const Order& order);

}  // namespace kmini::bridge
