// auto's choice (hf/fock/auto_update.hpp): per class, the candidate with the least time; ties and
// untimed candidates go as documented. The trials themselves run in the regression tests.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "hf/fock/auto_update.hpp"
#include "hf/fock/g_build_trial.hpp"

namespace kmini::hf {
namespace {

TEST(HfAutoUpdate, EachClassTakesItsFastestCandidate) {
  // Three candidates, four classes; every candidate wins somewhere.
  const std::vector<std::vector<double>> seconds{
      {1.0, 5.0, 3.0, 2.0},
      {2.0, 4.0, 1.0, 2.5},
      {3.0, 6.0, 2.0, 0.5},
  };
  EXPECT_EQ(fastest_per_class(seconds), (std::vector<std::size_t>{0, 1, 1, 2}));
}

TEST(HfAutoUpdate, TiesGoToTheEarlierCandidate) {
  EXPECT_EQ(fastest_per_class({{2.0, 1.0}, {2.0, 1.0}}), (std::vector<std::size_t>{0, 0}));
}

TEST(HfAutoUpdate, ACandidateNeverTimedIsNeverChosen) {
  // The SCF converged before the second candidate's trial: its row is empty.
  EXPECT_EQ(fastest_per_class({{9.0, 9.0}, {}, {8.0, 10.0}}), (std::vector<std::size_t>{2, 0}));
}

// The trial's stripes: a part slower than the fastest gets a stripe its rate's share of a full
// one, so that each part spends about the same time; the fastest and the untimed get full ones,
// and none less than the floor. Shrinking the fastest part's stripes (the ratio upside down), or
// every part's by the slowest, fails here.
TEST(HfAutoUpdate, TrialStripesShrinkForTheSlowerPartsAlone) {
  const std::vector<double> seconds{2.0, 3.0, 8.0, 0.0};
  const std::vector<double> computed{100.0, 100.0, 200.0, 0.0};  // 0.02, 0.03, 0.04 s a quartet
  EXPECT_DOUBLE_EQ(trial::stripe_share(seconds, computed, 0), 1.0);
  EXPECT_DOUBLE_EQ(trial::stripe_share(seconds, computed, 1), 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(trial::stripe_share(seconds, computed, 2), 0.5);
  EXPECT_DOUBLE_EQ(trial::stripe_share(seconds, computed, 3), 1.0);  // not yet timed
  // Ten times slower: a tenth; forty times: the floor, though the ratio goes on.
  EXPECT_DOUBLE_EQ(trial::stripe_share({1.0, 10.0}, {10.0, 10.0}, 1), 0.1);
  EXPECT_DOUBLE_EQ(trial::stripe_share({1.0, 40.0}, {10.0, 10.0}, 1), trial::kLeastStripeShare);
  EXPECT_DOUBLE_EQ(trial::rate_ratio({1.0, 40.0}, {10.0, 10.0}, 1), 1.0 / 40.0);
  // Nothing timed yet: full stripes for all.
  EXPECT_DOUBLE_EQ(trial::stripe_share({0.0, 0.0}, {0.0, 0.0}, 1), 1.0);
}

}  // namespace
}  // namespace kmini::hf
