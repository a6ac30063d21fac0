// History per user is capped as documented (easypp-predict(1), admin guide): the 30 most
// recent runs, whatever the number of jobs; out-of-order ends keep the 30 latest ends.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "predictor_fixture.h"

namespace easypp::test {
namespace {

TEST(Bounds, AThousandRunsKeepTheThirtyMostRecent) {
  auto p = make_predictor("");
  for (int i = 1; i <= 1000; ++i) teach(p.get(), i, 7, 3600, i, 100000 + 10 * i);
  EXPECT_EQ(epp_predictor_records(p.get()), 30u);
  std::vector<epp_run> runs(40);
  ASSERT_EQ(epp_user_runs(p.get(), 7, runs.data(), runs.size()), 30u);
  EXPECT_EQ(runs[0].runtime, 971);   // oldest kept: run 971 (1000 - 30 + 1)
  EXPECT_EQ(runs[29].runtime, 1000);  // newest
  EXPECT_EQ(predict(p.get(), 7, 3600), 1000);  // window=2: (999 + 1000) / 2 rounded up
}

// Ends arriving out of order while the ring fills and after: the ring keeps the 30 latest
// ends in end order (worked by hand: ends 100..139 fed as 139, 100, 138, 101, ...).
TEST(Bounds, OutOfOrderEndsKeepTheLatestInOrder) {
  auto p = make_predictor("history:window=30");
  for (int k = 0; k < 20; ++k) {
    teach(p.get(), 1000 + 2 * k, 7, 3600, 50, 10000 + 139 - k);
    teach(p.get(), 1001 + 2 * k, 7, 3600, 50, 10000 + 100 + k);
  }
  std::vector<epp_run> runs(30);
  ASSERT_EQ(epp_user_runs(p.get(), 7, runs.data(), runs.size()), 30u);
  for (int i = 0; i < 30; ++i) EXPECT_EQ(runs[i].end, 10000 + 110 + i) << i;
}

// Times are int64 and unchecked by callers (a simulated clock, an accounting import): a
// run longer than 2^40 s is refused, so sums of kept runtimes cannot overflow (two runs
// of INT64_MAX seconds once made the mean of the last two wrap to a 1 s prediction), and
// a submit far before the user's last end still gives a prediction within its limit.
TEST(Bounds, AbsurdTimesTeachNothingAndPredictionsStayInRange) {
  const std::int64_t max = std::numeric_limits<std::int64_t>::max();
  for (const char* spec : {"", "history:metric=median", "learned"}) {
    auto p = make_predictor(spec);
    epp_job j = job(1, 7, 3600, 0);
    EXPECT_EQ(epp_learn(p.get(), &j, 0, max, EPP_END_COMPLETED), 0) << spec;
    j.job_id = 2;
    EXPECT_EQ(epp_learn(p.get(), &j, 0, max, EPP_END_COMPLETED), 0) << spec;
    j.job_id = 3;
    EXPECT_EQ(epp_learn(p.get(), &j, 0, std::int64_t{1} << 40, EPP_END_COMPLETED), 1) << spec;  // the longest taught
    EXPECT_EQ(predict(p.get(), 7, 3600), 3600) << spec;
    epp_job early = job(4, 7, 3600, std::numeric_limits<std::int64_t>::min());
    const std::int64_t e = epp_predict(p.get(), &early);
    EXPECT_GE(e, 1) << spec;
    EXPECT_LE(e, 3600) << spec;
  }
}

// Products that do not fit int64 saturate: std::llround of them was undefined (INT64_MIN,
// then clamped to a 1 s prediction), and corrections near 2^63 wrapped negative.
TEST(Bounds, HugeEstimatesTimesScaleSaturate) {
  const std::int64_t max = std::numeric_limits<std::int64_t>::max();
  auto p = make_predictor("history:scale=1.5");
  for (const std::int64_t estimate : {max / 3 * 2, max - 1000, max}) {
    epp_job j = job(1, 7, estimate);
    EXPECT_EQ(epp_predict(p.get(), &j), max) << estimate;
  }
  for (const std::int64_t estimate : {std::int64_t{1000}, std::int64_t{1} << 62}) {  // in range: unchanged
    epp_job j = job(1, 7, estimate);
    EXPECT_EQ(epp_predict(p.get(), &j), estimate / 2 * 3) << estimate;
  }
}

// Last Model: the last run's runtime/estimate (2^39 here) times a year's estimate is far
// beyond int64; the prediction is the estimate, not 1 s. The same for fallback=relative.
TEST(Bounds, HugeAccuracyTimesEstimateGivesTheEstimate) {
  for (const char* spec : {"last", "history:fallback=relative,fullness=full,window=5"}) {
    auto p = make_predictor(spec);
    epp_job j = job(1, 5, 1, 0);
    ASSERT_EQ(epp_learn(p.get(), &j, 0, std::int64_t{1} << 39, EPP_END_COMPLETED), 1) << spec;
    EXPECT_EQ(predict(p.get(), 5, 31536000), 31536000) << spec;
    EXPECT_EQ(predict(p.get(), 5, std::int64_t{1} << 25), std::int64_t{1} << 25) << spec;
  }
}

// epp_correct answers > elapsed (the header's promise) for any estimate, however large,
// and saturates at INT64_MAX rather than wrapping negative.
TEST(Bounds, CorrectionsNearTheLimitOfInt64StayAboveElapsed) {
  const std::int64_t max = std::numeric_limits<std::int64_t>::max();
  for (const char* spec : {"history", "history:correction=gradual", "history:correction=exponential",
                           "double", "history:scale=1.5"}) {
    auto p = make_predictor(spec);
    for (const std::int64_t estimate : {std::int64_t{1} << 62, max - 1000, max - 1, max}) {
      epp_job j = job(1, 7, estimate);
      const std::int64_t pred = epp_predict(p.get(), &j);
      for (const std::int64_t elapsed : {std::min(pred, max - 1), max - 30, max - 1}) {
        const std::int64_t next = epp_correct(p.get(), &j, elapsed, elapsed, 3);
        EXPECT_GT(next, elapsed) << spec << " estimate " << estimate << " elapsed " << elapsed;
      }
      EXPECT_EQ(epp_correct(p.get(), &j, max, max, 0), max) << spec << " estimate " << estimate;
    }
  }
  EXPECT_EQ(epp_correct(nullptr, nullptr, 0, max, 0), max);
}

}  // namespace
}  // namespace easypp::test
