#include "bridge/execution_strategy.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <string>

namespace kmini::bridge {

std::uint64_t Step::pack(int normal, int point, int left_slot, int right_slot, int store_slot,
                         unsigned flags) {
  return std::uint64_t(normal) | (std::uint64_t(point) << 16) | (std::uint64_t(left_slot) << 32) |
         (std::uint64_t(right_slot) << 40) | (std::uint64_t(store_slot) << 48) |
         (std::uint64_t(flags) << 56);
}

namespace {

constexpr int kNone = -1;

// The dependency structure of a user's order, by position in that order.
struct Dependencies {
  std::vector<int> point;                    // the time index built at each position
  std::vector<Neighbours> neighbours;        // of the point built at each position
  std::vector<int> made_at;                  // position that builds each time index (index 0: none)
  std::vector<int> left_maker, right_maker;  // positions whose points a position reads, or kNone
  std::vector<std::vector<int>> readers;     // positions that read a position's point
};

Dependencies dependencies_of(const Order& order) {
  Dependencies d;
  const std::size_t n = order.size();
  d.point = order;
  d.neighbours = neighbours_in_order(order);
  d.made_at.assign(n + 1, kNone);
  for (std::size_t k = 0; k < n; ++k)
    d.made_at[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
  d.left_maker.assign(n, kNone);
  d.right_maker.assign(n, kNone);
  d.readers.assign(n, {});
  for (std::size_t k = 0; k < n; ++k) {
    const Neighbours& nb = d.neighbours[k];
    if (nb.left > 0) d.left_maker[k] = d.made_at[static_cast<std::size_t>(nb.left)];
    if (nb.right != kNoRight) d.right_maker[k] = d.made_at[static_cast<std::size_t>(nb.right)];
    for (const int maker : {d.left_maker[k], d.right_maker[k]}) {
      if (maker != kNone) d.readers[static_cast<std::size_t>(maker)].push_back(static_cast<int>(k));
    }
  }
  return d;
}

// Slots for the points of a schedule: a point built at schedule position m holds a slot from m to
// its last read when `keeps(m, last_read)`; a slot freed by a step's reads can take the point the
// same step stores, since a thread reads before it writes. Lowest free slot first, so the count
// is the largest number held at once.
struct SlotPlan {
  std::vector<int> slot;  // per schedule position; kNone where the point is not kept
  int slots = 0;
};

template <class Keeps>
SlotPlan plan_slots(const Dependencies& d, const std::vector<int>& schedule, int first_slot,
                    Keeps keeps) {
  const std::size_t n = schedule.size();
  std::vector<int> position(n);
  for (std::size_t m = 0; m < n; ++m)
    position[static_cast<std::size_t>(schedule[m])] = static_cast<int>(m);
  // The schedule position of each point's last read (its own position when nobody reads it).
  std::vector<int> last(n);
  for (std::size_t m = 0; m < n; ++m) {
    last[m] = static_cast<int>(m);
    for (const int reader : d.readers[static_cast<std::size_t>(schedule[m])])
      last[m] = std::max(last[m], position[static_cast<std::size_t>(reader)]);
  }
  SlotPlan plan;
  plan.slot.assign(n, kNone);
  std::set<int> free;
  int next = first_slot;
  for (std::size_t m = 0; m < n; ++m) {
    const std::size_t k = static_cast<std::size_t>(schedule[m]);
    for (const int maker : {d.left_maker[k], d.right_maker[k]}) {
      if (maker == kNone) continue;
      const std::size_t at = static_cast<std::size_t>(position[static_cast<std::size_t>(maker)]);
      if (last[at] == static_cast<int>(m) && plan.slot[at] != kNone) free.insert(plan.slot[at]);
    }
    if (keeps(static_cast<int>(m), last[m])) {
      if (free.empty()) {
        plan.slot[m] = next++;
      } else {
        plan.slot[m] = *free.begin();
        free.erase(free.begin());
      }
    }
  }
  plan.slots = next - first_slot;
  return plan;
}

SlotPlan stack_plan(const Dependencies& d, const std::vector<int>& schedule) {
  return plan_slots(d, schedule, 1, [](int m, int last_read) { return last_read > m; });
}

SlotPlan fused_plan(const Dependencies& d, const std::vector<int>& schedule) {
  return plan_slots(d, schedule, 0, [](int m, int last_read) { return last_read > m + 2; });
}

// Depth first over the dependencies: after a point, the points it makes ready, so that a gap is
// finished before the next is opened and few points wait on the stack. `earlier_first` picks
// which of the newly ready points goes first: the earlier or the later in time.
std::vector<int> depth_first_schedule(const Dependencies& d, bool earlier_first) {
  const std::size_t n = d.readers.size();
  std::vector<int> waiting(n, 0);
  for (std::size_t k = 0; k < n; ++k)
    waiting[k] = (d.left_maker[k] != kNone) + (d.right_maker[k] != kNone);
  std::vector<int> ready;  // a stack: the top is evaluated next
  for (std::size_t k = n; k-- > 0;) {
    if (waiting[k] == 0) ready.push_back(static_cast<int>(k));
  }
  std::vector<int> schedule;
  schedule.reserve(n);
  while (!ready.empty()) {
    const int k = ready.back();
    ready.pop_back();
    schedule.push_back(k);
    std::vector<int> now_ready;
    for (const int reader : d.readers[static_cast<std::size_t>(k)]) {
      if (--waiting[static_cast<std::size_t>(reader)] == 0) now_ready.push_back(reader);
    }
    // The preferred point is pushed last, onto the top.
    std::sort(now_ready.begin(), now_ready.end(), [&](int a, int b) {
      const int ta = d.point[static_cast<std::size_t>(a)];
      const int tb = d.point[static_cast<std::size_t>(b)];
      return earlier_first ? ta > tb : ta < tb;
    });
    ready.insert(ready.end(), now_ready.begin(), now_ready.end());
  }
  return schedule;
}

// Like depth_first_schedule, but looks first among the ready readers of the last two points
// built, for the one with most neighbours in registers (built one or two steps before, or x_0):
// the fused generator reads those without touching its stack.
std::vector<int> register_seeking_schedule(const Dependencies& d, bool earlier_first) {
  const std::size_t n = d.readers.size();
  std::vector<int> waiting(n, 0);
  for (std::size_t k = 0; k < n; ++k)
    waiting[k] = (d.left_maker[k] != kNone) + (d.right_maker[k] != kNone);
  std::vector<int> ready;
  for (std::size_t k = n; k-- > 0;) {
    if (waiting[k] == 0) ready.push_back(static_cast<int>(k));
  }
  std::vector<bool> done(n, false);
  std::vector<int> schedule;
  schedule.reserve(n);
  const auto in_registers = [&](int maker) {
    const std::size_t m = schedule.size();
    return maker == kNone || (m >= 1 && schedule[m - 1] == maker) ||
           (m >= 2 && schedule[m - 2] == maker);
  };
  const auto preferred = [&](int a, int b) {  // a before b
    const int ta = d.point[static_cast<std::size_t>(a)];
    const int tb = d.point[static_cast<std::size_t>(b)];
    return earlier_first ? ta < tb : ta > tb;
  };
  while (schedule.size() < n) {
    int chosen = kNone, chosen_hits = 0;
    for (std::size_t back = 1; back <= 2 && back <= schedule.size(); ++back) {
      for (const int reader :
           d.readers[static_cast<std::size_t>(schedule[schedule.size() - back])]) {
        const std::size_t r = static_cast<std::size_t>(reader);
        if (done[r] || waiting[r] != 0) continue;
        const int hits = in_registers(d.left_maker[r]) + in_registers(d.right_maker[r]);
        if (hits > chosen_hits ||
            (hits == chosen_hits && chosen != kNone && preferred(reader, chosen))) {
          chosen = reader;
          chosen_hits = hits;
        }
      }
    }
    while (chosen == kNone) {
      const int top = ready.back();
      ready.pop_back();
      if (!done[static_cast<std::size_t>(top)]) chosen = top;
    }
    done[static_cast<std::size_t>(chosen)] = true;
    schedule.push_back(chosen);
    std::vector<int> now_ready;
    for (const int reader : d.readers[static_cast<std::size_t>(chosen)]) {
      if (--waiting[static_cast<std::size_t>(reader)] == 0) now_ready.push_back(reader);
    }
    std::sort(now_ready.begin(), now_ready.end(), [&](int a, int b) { return preferred(b, a); });
    ready.insert(ready.end(), now_ready.begin(), now_ready.end());
  }
  return schedule;
}

std::vector<int> positions_of(const std::vector<int>& schedule) {
  std::vector<int> position(schedule.size());
  for (std::size_t m = 0; m < schedule.size(); ++m)
    position[static_cast<std::size_t>(schedule[m])] = static_cast<int>(m);
  return position;
}

// The fused generator's neighbour reads from registers, and its stack loads plus stores.
struct FusedTraffic {
  int register_reads = 0;
  int reads = 0;
  int stack_accesses = 0;
};

FusedTraffic fused_traffic(const Dependencies& d, const std::vector<int>& schedule) {
  const std::vector<int> position = positions_of(schedule);
  const SlotPlan plan = fused_plan(d, schedule);
  FusedTraffic t;
  for (std::size_t m = 0; m < schedule.size(); ++m) {
    const std::size_t k = static_cast<std::size_t>(schedule[m]);
    for (const int maker : {d.left_maker[k], d.right_maker[k]}) {
      if (maker == kNone) continue;
      ++t.reads;
      if (static_cast<int>(m) - position[static_cast<std::size_t>(maker)] <= 2) {
        ++t.register_reads;
      } else {
        ++t.stack_accesses;
      }
    }
    if (plan.slot[m] != kNone) ++t.stack_accesses;
  }
  return t;
}

unsigned source_of(int maker, int m, const std::vector<int>& position) {
  if (maker == kNone) return kFromX0;
  const int age = m - position[static_cast<std::size_t>(maker)];
  if (age == 1) return kFromPrevious;
  if (age == 2) return kFromBeforePrevious;
  return kFromStack;
}

// The coefficients of equation (5) and the increments' scales of each step of `schedule`.
void fill_coefficients(const TimeGrid& grid, const Order& order, const Dependencies& d,
                       StepTables& tables) {
  for (const int position : tables.schedule) {
    const std::size_t k = static_cast<std::size_t>(position);
    const int p = order[k];
    const Neighbours nb = d.neighbours[k];
    const bool has_right = nb.right != kNoRight;
    const double t = grid.at(p), tl = grid.at(nb.left);
    if (has_right) {
      const double tr = grid.at(nb.right);
      tables.left_weight.push_back((tr - t) / (tr - tl));
      tables.right_weight.push_back((t - tl) / (tr - tl));
      // Divided first: the product of two small steps underflows where their ratio does not.
      tables.sigma.push_back(std::sqrt((t - tl) * ((tr - t) / (tr - tl))));
    } else {
      tables.left_weight.push_back(1.0);
      tables.right_weight.push_back(0.0);
      tables.sigma.push_back(std::sqrt(t - tl));
    }
    const bool at_point = nb.left == p - 1;
    const bool after_point = has_right && nb.right == p + 1;
    tables.scale_at_point.push_back(at_point ? 1.0 / (t - grid.at(p - 1)) : 0.0);
    tables.scale_after_point.push_back(after_point ? 1.0 / (grid.at(p + 1) - t) : 0.0);
  }
}

unsigned increment_flags(const Neighbours& nb, int p) {
  unsigned flags = 0;
  if (nb.left == p - 1) flags |= Step::kIncrementAtPoint;
  if (nb.right != kNoRight && nb.right == p + 1) flags |= Step::kIncrementAfterPoint;
  return flags;
}

}  // namespace

ExecutionStrategy build_strategy(const TimeGrid& grid, const Order& order) {
  const int n = grid.steps();
  if (n > kMaxSteps) {
    throw std::length_error("the packed strategy holds at most " + std::to_string(kMaxSteps) +
                            " steps, got " + std::to_string(n));
  }
  const Dependencies d = dependencies_of(order);
  std::vector<std::vector<int>> candidates(1, std::vector<int>(static_cast<std::size_t>(n)));
  for (int k = 0; k < n; ++k)
    candidates[0][static_cast<std::size_t>(k)] = k;  // the user's own order
  for (const bool earlier_first : {true, false}) {
    candidates.push_back(depth_first_schedule(d, earlier_first));
    candidates.push_back(register_seeking_schedule(d, earlier_first));
  }

  ExecutionStrategy s;
  s.steps = n;
  s.user_stack = stack_plan(d, candidates[0]).slots;
  // Stacked: the smallest stack (the user's order is a candidate, so never more than it).
  // Fused: the fewest stack accesses, then the fewest slots.
  s.stack = s.user_stack;
  s.stacked.schedule = candidates[0];
  FusedTraffic best = fused_traffic(d, candidates[0]);
  s.fused.schedule = candidates[0];
  s.fused_stack = fused_plan(d, candidates[0]).slots;
  for (const auto& candidate : candidates) {
    const int stack = stack_plan(d, candidate).slots;
    if (stack < s.stack) {
      s.stack = stack;
      s.stacked.schedule = candidate;
    }
    const FusedTraffic traffic = fused_traffic(d, candidate);
    const int slots = fused_plan(d, candidate).slots;
    if (traffic.stack_accesses < best.stack_accesses ||
        (traffic.stack_accesses == best.stack_accesses && slots < s.fused_stack)) {
      best = traffic;
      s.fused.schedule = candidate;
      s.fused_stack = slots;
    }
  }
  s.register_reads = best.reads == 0 ? 1.0 : static_cast<double>(best.register_reads) / best.reads;
  if (s.stack_slots() > kMaxSlots || s.fused_stack > kMaxSlots) {
    throw std::length_error("the order needs a stack of " + std::to_string(s.stack) +
                            " points even when reordered; the packed strategy holds at most " +
                            std::to_string(kMaxSlots - 2));
  }

  // Stacked steps.
  {
    const SlotPlan plan = stack_plan(d, s.stacked.schedule);
    const std::vector<int> position = positions_of(s.stacked.schedule);
    const int discard = s.stack + 1;
    const auto slot_of = [&](int maker) {
      return maker == kNone
                 ? 0
                 : plan.slot[static_cast<std::size_t>(position[static_cast<std::size_t>(maker)])];
    };
    for (std::size_t m = 0; m < s.stacked.schedule.size(); ++m) {
      const std::size_t k = static_cast<std::size_t>(s.stacked.schedule[m]);
      const int stored = plan.slot[m];
      s.stacked.steps.push_back(Step::pack(
          static_cast<int>(k), order[k], slot_of(d.left_maker[k]), slot_of(d.right_maker[k]),
          stored == kNone ? discard : stored, increment_flags(d.neighbours[k], order[k])));
    }
  }
  // Fused steps.
  {
    const SlotPlan plan = fused_plan(d, s.fused.schedule);
    const std::vector<int> position = positions_of(s.fused.schedule);
    for (std::size_t m = 0; m < s.fused.schedule.size(); ++m) {
      const std::size_t k = static_cast<std::size_t>(s.fused.schedule[m]);
      const int im = static_cast<int>(m);
      const unsigned left = source_of(d.left_maker[k], im, position);
      const unsigned right = source_of(d.right_maker[k], im, position);
      const auto slot_of = [&](int maker, unsigned source) {
        return source == kFromStack
                   ? plan.slot[static_cast<std::size_t>(position[static_cast<std::size_t>(maker)])]
                   : 0;
      };
      unsigned flags = increment_flags(d.neighbours[k], order[k]) | (left << 2) | (right << 4);
      if (plan.slot[m] != kNone) flags |= Step::kStore;
      s.fused.steps.push_back(Step::pack(
          static_cast<int>(k), order[k], slot_of(d.left_maker[k], left),
          slot_of(d.right_maker[k], right), plan.slot[m] == kNone ? 0 : plan.slot[m], flags));
    }
  }
  fill_coefficients(grid, order, d, s.stacked);
  fill_coefficients(grid, order, d, s.fused);

  std::vector<int> depth(static_cast<std::size_t>(n) + 1, 0);
  for (std::size_t k = 0; k < order.size(); ++k) {
    const Neighbours nb = d.neighbours[k];
    const int right_depth = nb.right == kNoRight ? 0 : depth[static_cast<std::size_t>(nb.right)];
    depth[static_cast<std::size_t>(order[k])] =
        1 + std::max(depth[static_cast<std::size_t>(nb.left)], right_depth);
    s.depth = std::max(s.depth, depth[static_cast<std::size_t>(order[k])]);
  }
  return s;
}

}  // namespace kmini::bridge
