// Brownian-bridge construction orders: which time point is built when. Any permutation of the
// time indices 1..N is valid; the k-th point of the order uses the path's k-th normal (and, with
// quasi-random numbers, dimension k of the sequence, so the first points get the best ones).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bridge/time_grid.hpp"

namespace kmini::bridge {

// Time indices 1..N in construction order.
using Order = std::vector<int>;

// t_1, t_2, ..., t_N: each point extrapolated from its left neighbour (a forward Euler path).
Order sequential_order(int steps);

// t_N first, then breadth first: in each gap between known points, the time nearest the
// middle of the gap in time (the earlier of two equally near, to within 1e-9 of the gap), all
// gaps of one level left to right before the next level.
Order bisection_order(const TimeGrid& grid);

// QuantLib's BrownianBridge order: t_N first, then repeated sweeps over the gaps, left to right,
// each filling the middle index of a gap (the lower middle of an even gap). It bisects indices,
// not times, so it equals `bisection` on a uniform grid and may differ on others.
Order quantlib_order(int steps);

// Why `order` is not a permutation of 1..steps (an index out of range, a repeat, a missing
// index), naming the offending entry by its position; empty when it is one.
// Takes the entries as given, before they are known to fit an int.
std::string order_problem(const std::vector<std::int64_t>& order, int steps);

// Integers separated by white space or commas; '#' starts a comment. Throws InputError naming
// the file and line of anything that is not an integer.
Order read_order_file(const std::string& path);

// A point's nearest already-known neighbours when it is built: left is a time index 0..N-1 (0
// is t_0, always known), right is a time index, or kNoRight while no later point is known.
struct Neighbours {
  int left = 0;
  int right = 0;
};
constexpr int kNoRight = -1;

// For each position k of the order, the neighbours point order[k] is interpolated between.
std::vector<Neighbours> neighbours_in_order(const Order& order);

}  // namespace kmini::bridge
