// auto's choice (hf/auto_update.hpp): per class, the candidate with the least time; ties and
// untimed candidates go as documented. The trials themselves run in the regression tests.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "hf/auto_update.hpp"

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

}  // namespace
}  // namespace kmini::hf
