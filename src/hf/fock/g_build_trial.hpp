// auto's trial in GBuilder::build_trial (g_build_trial.cpp): how much of each class its
// candidates build and time, in stripes, before the class's choice, and how the stripes follow a
// rank's share of the class.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace kmini::hf::trial {

// Up to this share of each class's quartets, spread along its lists, is split into stripes of
// consecutive bras. A stripe holds about kShare / candidates of its segment's quartets times
// stripe_share of the candidate's timings so far.
constexpr double kShare = 0.25;

// Each candidate takes at least this many stripes, one in each segment of a class's lists: the
// lists start with their longest ket prefixes (whose quartets share a bra, and so its G block, run
// after run) and end with their shortest, and a stripe of consecutive bras measured only one end.
constexpr std::size_t kStripesPerCandidate = 4;

// Candidate k's next stripe, as a share of a full one, from the candidates' seconds and quartets
// computed on their stripes so far: the fastest one's time per quartet over candidate k's
// (rate_ratio), so that every candidate spends about the same time on a stripe, but never under
// kLeastStripeShare; 1 while candidate k has no timing yet. With stripes of equal size, a
// candidate r times slower than the fastest lost r - 1 of the fastest's stripe times on each of
// its stripes, and kernel_split's loss was most of auto_trial_overhead (docs/notes/hf-kernels.md,
// auto's trial in stripes of equal time).
constexpr double kLeastStripeShare = 1.0 / 16.0;
double stripe_share(const std::vector<double>& seconds, const std::vector<double>& computed,
                    std::size_t k);
// That ratio unclamped; 1 while candidate k has no timing yet.
double rate_ratio(const std::vector<double>& seconds, const std::vector<double>& computed,
                  std::size_t k);

// A candidate whose best ratio in every class so far stayed at or under this starts the next class
// at that ratio (kLeastStripeShare at least) instead of a full stripe: kernel_split's first stripe
// of each class, untimed and many times slower, had cost more than all its others.
constexpr double kHopelessShare = 0.25;

// A place in a rank's share of a class: bra `bra` of its range `range`. Before its range's end,
// except at the share's end, so that places compare in the share's order.
struct Cursor {
  std::size_t range = 0;
  int bra = 0;
  friend bool operator<(const Cursor& x, const Cursor& y) {
    return x.range < y.range || (x.range == y.range && x.bra < y.bra);
  }
};

// A rank's share of a class, its ranges of bras one after another, as one sequence of quartets.
class ShareSequence {
 public:
  // The ranges [first, last) of bras, and `at`, each bra's first quartet.
  ShareSequence(const std::vector<std::array<int, 2>>& ranges, const std::vector<std::int64_t>& at);
  // The first bra whose quartets start at or past `fraction` of the share's.
  Cursor at(double fraction) const;
  // The place one bra after `c`, or the share's end.
  Cursor after_one_bra(const Cursor& c) const;

 private:
  // A range's end stands for the next range's first bra, but for the last range's.
  Cursor normal(const Cursor& c) const;

  const std::vector<std::array<int, 2>>& ranges_;
  const std::vector<std::int64_t>& at_;
  std::vector<std::int64_t> before_;  // quartets of the ranges before range r
};

}  // namespace kmini::hf::trial
