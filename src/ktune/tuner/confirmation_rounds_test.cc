#include "ktune/tuner/confirmation_rounds.h"

#include <algorithm>
#include <set>

#include <gtest/gtest.h>

namespace ktune::tuner {
namespace {

measure::Policy full_policy() {
  measure::Policy p;
  p.warmup_seconds = 0.01;
  p.min_samples = 10;
  p.min_seconds = 0.01;
  p.max_seconds = 0.1;
  p.max_samples = 500;
  p.racing = true;
  return p;
}

TEST(ConfirmationRounds, OneRoundIsTheFullPolicy) {
  EXPECT_EQ(confirmation_round_policy(full_policy(), 1, false), full_policy());
  EXPECT_EQ(confirmation_round_policy(full_policy(), 0, true), full_policy());
}

// The measured time and samples are shared out; warmup only in full for the phase's first call;
// a round never races (it is a contender's measurement, not a screening).
TEST(ConfirmationRounds, RoundsShareTheFullPolicy) {
  const measure::Policy first = confirmation_round_policy(full_policy(), 3, true);
  EXPECT_DOUBLE_EQ(first.min_seconds, 0.01 / 3);
  EXPECT_DOUBLE_EQ(first.max_seconds, 0.1 / 3);
  EXPECT_EQ(first.min_samples, 4);
  EXPECT_EQ(first.max_samples, 166);
  EXPECT_DOUBLE_EQ(first.warmup_seconds, 0.01);
  EXPECT_FALSE(first.racing);
  const measure::Policy later = confirmation_round_policy(full_policy(), 3, false);
  EXPECT_DOUBLE_EQ(later.warmup_seconds, 0.01 / 3);
  EXPECT_NO_THROW(measure::validate(later));
  // No cap stays no cap; a few samples are always taken.
  measure::Policy uncapped = full_policy();
  uncapped.max_seconds = 0;
  uncapped.min_samples = 1;
  uncapped.max_samples = 2;
  const measure::Policy few = confirmation_round_policy(uncapped, 5, false);
  EXPECT_EQ(few.max_seconds, 0);
  EXPECT_EQ(few.min_samples, 3);
  EXPECT_EQ(few.max_samples, 3);
}

// Over as many rounds as contenders, each takes every place once; round 0 is the listed order.
TEST(ConfirmationRounds, EveryContenderTakesEveryPlace) {
  EXPECT_EQ(confirmation_round_order(4, 0), (std::vector<std::size_t>{0, 1, 2, 3}));
  EXPECT_EQ(confirmation_round_order(4, 1), (std::vector<std::size_t>{3, 0, 1, 2}));
  for (std::size_t n : {1u, 2u, 3u, 5u}) {
    std::vector<std::set<std::size_t>> places(n);
    for (int round = 0; round < static_cast<int>(n); ++round) {
      const std::vector<std::size_t> order = confirmation_round_order(n, round);
      ASSERT_EQ(order.size(), n);
      EXPECT_EQ(std::set<std::size_t>(order.begin(), order.end()).size(), n) << "round " << round << " repeats";
      for (std::size_t place = 0; place < n; ++place) places[order[place]].insert(place);
    }
    for (std::size_t m = 0; m < n; ++m) EXPECT_EQ(places[m].size(), n) << "contender " << m << " of " << n;
  }
  EXPECT_TRUE(confirmation_round_order(0, 2).empty());
}

// The middle round by median; failed rounds do not count; the lower middle of an even count.
TEST(ConfirmationRounds, TheMedianRound) {
  EXPECT_EQ(median_round({5.0, 3.0, 4.0}), 2u);
  EXPECT_EQ(median_round({6.0, std::nullopt, 4.0}), 2u);
  EXPECT_EQ(median_round({6.0, 4.0, 5.0, 9.0}), 2u);
  EXPECT_EQ(median_round({7.0}), 0u);
  EXPECT_FALSE(median_round({std::nullopt, std::nullopt}).has_value());
  EXPECT_FALSE(median_round({}).has_value());
  // Equal medians keep their round order: the middle one of three.
  EXPECT_EQ(median_round({4.0, 4.0, 4.0}), 1u);
}

}  // namespace
}  // namespace ktune::tuner
