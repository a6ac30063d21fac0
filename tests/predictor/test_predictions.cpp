// Hand-computed predictions for every parameter value of the predictor spec.
#include <gtest/gtest.h>

#include "predictor_fixture.h"

namespace easypp::test {
namespace {

constexpr std::uint32_t kUser = 7;

TEST(DefaultPredictor, FallsBackToEstimateWithoutHistory) {
  auto p = make_predictor("");
  EXPECT_EQ(predict(p.get(), kUser, 3600), 3600);
}

TEST(DefaultPredictor, AveragesTheTwoMostRecentRunsRoundingHalfUp) {
  auto p = make_predictor("");
  ASSERT_EQ(teach(p.get(), 1, kUser, 3600, 100, 10000), 1);
  EXPECT_EQ(predict(p.get(), kUser, 7200), 100);  // partial window of one run
  ASSERT_EQ(teach(p.get(), 2, kUser, 3600, 201, 10100), 1);
  EXPECT_EQ(predict(p.get(), kUser, 7200), 151);  // (100 + 201) / 2 = 150.5
  ASSERT_EQ(teach(p.get(), 3, kUser, 3600, 300, 10200), 1);
  EXPECT_EQ(predict(p.get(), kUser, 7200), 251);  // (201 + 300) / 2
}

TEST(DefaultPredictor, NeverExceedsTheEstimateNorGoesBelowOneSecond) {
  auto p = make_predictor("");
  teach(p.get(), 1, kUser, 3600, 3000, 10000);
  EXPECT_EQ(predict(p.get(), kUser, 600), 600);
  auto q = make_predictor("");
  teach(q.get(), 1, kUser, 3600, 0, 10000);
  EXPECT_EQ(predict(q.get(), kUser, 600), 1);
}

TEST(DefaultPredictor, OtherUsersDoNotShareHistory) {
  auto p = make_predictor("");
  teach(p.get(), 1, kUser, 3600, 100, 10000);
  EXPECT_EQ(predict(p.get(), kUser + 1, 3600), 3600);
}

TEST(DefaultPredictor, HistoryIsOrderedByEndTimeNotArrival) {
  auto p = make_predictor("history:window=1");
  teach(p.get(), 2, kUser, 3600, 500, 20000);
  teach(p.get(), 1, kUser, 3600, 100, 10000);  // imported late, ended earlier
  EXPECT_EQ(predict(p.get(), kUser, 3600), 500);
}

TEST(WindowSize, OneUsesTheLastRun) {
  auto p = make_predictor("history:window=1");
  teach(p.get(), 1, kUser, 3600, 100, 10000);
  teach(p.get(), 2, kUser, 3600, 300, 10100);
  EXPECT_EQ(predict(p.get(), kUser, 3600), 300);
}

TEST(WindowSize, ThirtyAveragesTheLastThirtyOfThirtyOneRuns) {
  auto p = make_predictor("history:window=30");
  for (int i = 1; i <= 31; ++i) teach(p.get(), i, kUser, 3600, 10 * i, 10000 + i);
  // runs 20, 30, ..., 310: 10 * (2 + ... + 31) / 30 = 4950 / 30
  EXPECT_EQ(predict(p.get(), kUser, 3600), 165);
  EXPECT_EQ(epp_predictor_records(p.get()), 30u);  // bounded ring
}

TEST(Fullness, FullFallsBackUntilTheWindowIsFull) {
  auto p = make_predictor("history:window=3,fullness=full");
  teach(p.get(), 1, kUser, 3600, 100, 10000);
  teach(p.get(), 2, kUser, 3600, 200, 10100);
  EXPECT_EQ(predict(p.get(), kUser, 3600), 3600);
  teach(p.get(), 3, kUser, 3600, 600, 10200);
  EXPECT_EQ(predict(p.get(), kUser, 3600), 300);
}

TEST(Fullness, PartialUsesWhatThereIs) {
  auto p = make_predictor("history:window=3,fullness=partial");
  teach(p.get(), 1, kUser, 3600, 100, 10000);
  teach(p.get(), 2, kUser, 3600, 200, 10100);
  EXPECT_EQ(predict(p.get(), kUser, 3600), 150);
}

class MetricTest : public ::testing::Test {
 protected:
  // Runs in end order: 100, 400, 200, 300.
  Predictor with(const std::string& spec) {
    auto p = make_predictor(spec);
    teach(p.get(), 1, kUser, 3600, 100, 10000);
    teach(p.get(), 2, kUser, 3600, 400, 10100);
    teach(p.get(), 3, kUser, 3600, 200, 10200);
    teach(p.get(), 4, kUser, 3600, 300, 10300);
    return p;
  }
};

TEST_F(MetricTest, Avg) { EXPECT_EQ(predict(with("history:window=4,metric=avg").get(), kUser, 3600), 250); }
TEST_F(MetricTest, MedianOfEvenCountAveragesTheMiddleTwo) {
  EXPECT_EQ(predict(with("history:window=4,metric=median").get(), kUser, 3600), 250);
}
TEST_F(MetricTest, MedianOfOddCount) {
  EXPECT_EQ(predict(with("history:window=3,metric=median").get(), kUser, 3600), 300);  // 400 200 300
}
TEST_F(MetricTest, Min) { EXPECT_EQ(predict(with("history:window=4,metric=min").get(), kUser, 3600), 100); }
TEST_F(MetricTest, Max) { EXPECT_EQ(predict(with("history:window=3,metric=max").get(), kUser, 3600), 400); }

class WindowTypeTest : public ::testing::Test {
 protected:
  // (estimate, runtime) in end order: (3600,100) (1800,50) (3600,300) (7200,700).
  Predictor with(const std::string& spec) {
    auto p = make_predictor(spec);
    teach(p.get(), 1, kUser, 3600, 100, 10000);
    teach(p.get(), 2, kUser, 1800, 50, 10100);
    teach(p.get(), 3, kUser, 3600, 300, 10200);
    teach(p.get(), 4, kUser, 7200, 700, 10300);
    return p;
  }
};

TEST_F(WindowTypeTest, AllIgnoresEstimates) {
  EXPECT_EQ(predict(with("history:window=3,type=all").get(), kUser, 3600), 350);  // (50+300+700)/3
}

TEST_F(WindowTypeTest, ImmediateKeepsOnlyRecentRunsWithTheSameEstimate) {
  auto p = with("history:window=3,type=immediate");
  EXPECT_EQ(predict(p.get(), kUser, 3600), 300);  // run 1 is outside the 3 most recent
  EXPECT_EQ(predict(p.get(), kUser, 1800), 50);
  EXPECT_EQ(predict(p.get(), kUser, 900), 900);  // none similar: fallback
}

TEST_F(WindowTypeTest, ImmediateFullNeedsTheWholeWindowSimilar) {
  EXPECT_EQ(predict(with("history:window=3,type=immediate,fullness=full").get(), kUser, 3600), 3600);
}

TEST_F(WindowTypeTest, ExtendedSearchesTheWholeHistoryForTheSameEstimate) {
  auto p = with("history:window=2,type=extended");
  EXPECT_EQ(predict(p.get(), kUser, 3600), 200);  // runs 1 and 3
  EXPECT_EQ(predict(p.get(), kUser, 1800), 50);
  EXPECT_EQ(predict(p.get(), kUser, 900), 900);
}

TEST_F(WindowTypeTest, ExtendedFullFallsBackWithTooFewSimilarRuns) {
  auto p = with("history:window=2,type=extended,fullness=full");
  EXPECT_EQ(predict(p.get(), kUser, 3600), 200);
  EXPECT_EQ(predict(p.get(), kUser, 1800), 1800);
}

TEST(Fallback, RelativeScalesTheEstimateByTheUsersMeanAccuracy) {
  auto p = make_predictor("history:window=3,fullness=full,fallback=relative");
  EXPECT_EQ(predict(p.get(), kUser, 1000), 1000);  // no history at all: the estimate
  teach(p.get(), 1, kUser, 3600, 900, 10000);      // accuracy 0.25
  teach(p.get(), 2, kUser, 1800, 900, 10100);      // accuracy 0.5
  EXPECT_EQ(predict(p.get(), kUser, 1000), 375);   // 1000 * 0.375
}

TEST(Fallback, EstimateIsTheEstimate) {
  auto p = make_predictor("history:window=3,fullness=full,fallback=estimate");
  teach(p.get(), 1, kUser, 3600, 900, 10000);
  EXPECT_EQ(predict(p.get(), kUser, 1000), 1000);
}

TEST(Propagation, IsReportedToTheDriver) {
  EXPECT_EQ(epp_predictor_propagates(make_predictor("history:propagation=on").get()), 1);
  EXPECT_EQ(epp_predictor_propagates(make_predictor("history:propagation=off").get()), 0);
  EXPECT_EQ(epp_predictor_propagates(make_predictor("").get()), 0);
  EXPECT_EQ(epp_predictor_propagates(make_predictor("last").get()), 0);
}

TEST(Propagation, RepredictingSeesRunsThatEndedMeanwhile) {
  auto p = make_predictor("history:propagation=on,window=1");
  EXPECT_EQ(predict(p.get(), kUser, 3600), 3600);
  teach(p.get(), 1, kUser, 3600, 120, 10000);
  EXPECT_EQ(predict(p.get(), kUser, 3600), 120);
}

TEST(LastModel, ScalesThisEstimateByTheLastJobsAccuracy) {
  auto p = make_predictor("last");
  EXPECT_EQ(predict(p.get(), kUser, 1000), 1000);
  teach(p.get(), 1, kUser, 3600, 900, 10000);  // 0.25
  EXPECT_EQ(predict(p.get(), kUser, 1000), 250);
  teach(p.get(), 2, kUser, 1000, 1000, 10100);  // 1.0
  EXPECT_EQ(predict(p.get(), kUser, 7200), 7200);
  teach(p.get(), 3, kUser, 3600, 4000, 10200);  // overshoot: capped at the estimate
  EXPECT_EQ(predict(p.get(), kUser, 100), 100);
}

TEST(OtherKinds, EstimateDoubleAndPerfect) {
  auto e = make_predictor("estimate");
  auto d = make_predictor("double");
  auto c = make_predictor("perfect");
  epp_job j = job(1, kUser, 3600, 0, 500);
  EXPECT_EQ(epp_predict(e.get(), &j), 3600);
  EXPECT_EQ(epp_predict(d.get(), &j), 7200);
  EXPECT_EQ(epp_predict(c.get(), &j), 500);
  j.runtime = 5000;  // ran past its estimate: still capped
  EXPECT_EQ(epp_predict(c.get(), &j), 3600);
  j.runtime = -1;  // unknown: the estimate
  EXPECT_EQ(epp_predict(c.get(), &j), 3600);
  j.runtime = 0;
  EXPECT_EQ(epp_predict(c.get(), &j), 1);
  EXPECT_EQ(epp_learn(e.get(), &j, 100, 200, EPP_END_COMPLETED), 0);  // no history kept
}

TEST(Scale, DoublesHistoryPredictionsAndFallbacks) {
  auto p = make_predictor("history:scale=2");
  EXPECT_EQ(predict(p.get(), kUser, 3600), 7200);
  teach(p.get(), 1, kUser, 3600, 100, 10000);
  teach(p.get(), 2, kUser, 3600, 200, 10100);
  EXPECT_EQ(predict(p.get(), kUser, 3600), 300);
}

// --- correction ---------------------------------------------------------------------

std::int64_t correct(const std::string& spec, std::int64_t estimate, std::int64_t current, std::int64_t elapsed,
                     int corrections) {
  auto p = make_predictor(spec);
  epp_job j = job(1, kUser, estimate);
  return epp_correct(p.get(), &j, current, elapsed, corrections);
}

TEST(Correction, EstimateJumpsToTheEstimate) { EXPECT_EQ(correct("", 3600, 100, 100, 0), 3600); }

TEST(Correction, PostEstimateAddsOneMinuteThenFifteenTimesPowersOfTwo) {
  EXPECT_EQ(correct("", 3600, 3600, 3600, 1), 3660);
  EXPECT_EQ(correct("", 3600, 3660, 3660, 2), 4560);  // +15 min
  EXPECT_EQ(correct("", 3600, 4560, 4560, 3), 6360);  // +30 min
  EXPECT_EQ(correct("", 3600, 6360, 6360, 4), 9960);  // +1 h
}

TEST(Correction, ALateCheckSkipsToTheFirstPredictionBeyondElapsed) {
  EXPECT_EQ(correct("", 3600, 100, 5000, 0), 6360);
}

TEST(Correction, GradualUsesThePapersIncrementsCappedAtTheEstimate) {
  const std::string g = "history:correction=gradual";
  EXPECT_EQ(correct(g, 3600, 100, 100, 0), 160);     // 1st: +1 min
  EXPECT_EQ(correct(g, 3600, 160, 160, 1), 1060);    // 2nd: +15 min
  EXPECT_EQ(correct(g, 3600, 1060, 1060, 2), 2860);  // 3rd: +30 min
  EXPECT_EQ(correct(g, 3600, 2860, 2860, 3), 3600);  // 4th: +1 h, capped
  EXPECT_EQ(correct(g, 3600, 3600, 3600, 4), 3660);  // then post-estimate
}

TEST(Correction, ExponentialAddsTwentyPercent) {
  const std::string x = "history:correction=exponential";
  EXPECT_EQ(correct(x, 3600, 100, 100, 0), 120);
  EXPECT_EQ(correct(x, 3600, 120, 120, 1), 144);
  EXPECT_EQ(correct(x, 3600, 3500, 3500, 5), 3600);
  EXPECT_EQ(correct(x, 3600, 3600, 3600, 6), 3660);
}

TEST(Correction, DoubleGrowsPastTwiceTheEstimate) { EXPECT_EQ(correct("double", 3600, 7200, 7200, 0), 7260); }

}  // namespace
}  // namespace easypp::test
