#include "bridge/construction_order.hpp"

#include <cmath>
#include <deque>
#include <fstream>
#include <iterator>
#include <set>
#include <utility>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/text.hpp"

namespace kmini::bridge {

Order sequential_order(int steps) {
  Order order(static_cast<std::size_t>(steps));
  for (int i = 0; i < steps; ++i)
    order[static_cast<std::size_t>(i)] = i + 1;
  return order;
}

Order bisection_order(const TimeGrid& grid) {
  const int steps = grid.steps();
  Order order{steps};
  std::deque<std::pair<int, int>> gaps{{0, steps}};  // known ends, unknown points between
  while (!gaps.empty()) {
    const auto [a, b] = gaps.front();
    gaps.pop_front();
    if (b - a < 2) continue;
    const double middle = 0.5 * (grid.at(a) + grid.at(b));
    // Times equally near in exact arithmetic (a uniform grid's) may differ by rounding: a later
    // time must be nearer by more than that to win the tie.
    const double tie = 1e-9 * (grid.at(b) - grid.at(a));
    int nearest = a + 1;
    for (int m = a + 2; m < b; ++m) {
      if (std::fabs(grid.at(m) - middle) < std::fabs(grid.at(nearest) - middle) - tie) nearest = m;
    }
    order.push_back(nearest);
    gaps.emplace_back(a, nearest);
    gaps.emplace_back(nearest, b);
  }
  return order;
}

Order quantlib_order(int steps) {
  // QuantLib's loop over 0-based indices: `filled` marks built points.
  std::vector<bool> filled(static_cast<std::size_t>(steps), false);
  filled.back() = true;
  Order order{steps};
  std::size_t j = 0;
  for (int i = 1; i < steps; ++i) {
    while (filled[j])
      ++j;
    std::size_t k = j;
    while (!filled[k])
      ++k;
    const std::size_t middle = j + ((k - 1 - j) >> 1);
    filled[middle] = true;
    order.push_back(static_cast<int>(middle) + 1);
    j = k + 1;
    if (j >= filled.size()) j = 0;
  }
  return order;
}

std::string order_problem(const std::vector<std::int64_t>& order, int steps) {
  std::vector<int> first_seen(static_cast<std::size_t>(steps) + 1, -1);
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::int64_t index = order[k];
    const std::string entry = "entry " + std::to_string(k + 1) + " (" + std::to_string(index) + ")";
    if (index < 1 || index > steps) {
      return entry + " is not a time index in 1.." + std::to_string(steps);
    }
    if (first_seen[static_cast<std::size_t>(index)] >= 0) {
      return entry + " repeats entry " +
             std::to_string(first_seen[static_cast<std::size_t>(index)] + 1);
    }
    first_seen[static_cast<std::size_t>(index)] = static_cast<int>(k);
  }
  for (int index = 1; index <= steps; ++index) {
    if (first_seen[static_cast<std::size_t>(index)] < 0) {
      return "time index " + std::to_string(index) + " is missing (the order has " +
             std::to_string(order.size()) + " entries for " + std::to_string(steps) + " times)";
    }
  }
  return "";
}

Order read_order_file(const std::string& path) {
  std::ifstream in = open_input_file(path, "the order file");
  Order order;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    line = line.substr(0, line.find('#'));
    for (char& c : line) {
      if (c == ',') c = ' ';
    }
    for (const std::string& word : split_words(line)) {
      std::size_t used = 0;
      long long value = 0;
      try {
        value = std::stoll(word, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != word.size() || value < INT32_MIN || value > INT32_MAX) {
        throw InputError(path + ":" + std::to_string(number) +
                         ": expected an integer time index, found " + quoted(word));
      }
      order.push_back(static_cast<int>(value));
    }
  }
  if (order.empty()) throw InputError(path + ": holds no time indices");
  return order;
}

std::vector<Neighbours> neighbours_in_order(const Order& order) {
  std::set<int> known{0};
  std::vector<Neighbours> out;
  out.reserve(order.size());
  for (const int point : order) {
    const auto after = known.upper_bound(point);
    Neighbours n;
    n.right = after == known.end() ? kNoRight : *after;
    n.left = *std::prev(after);
    known.insert(point);
    out.push_back(n);
  }
  return out;
}

}  // namespace kmini::bridge
