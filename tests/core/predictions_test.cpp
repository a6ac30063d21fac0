// Predictions: the C++ glue over libeasypp-predictor that both drivers use.
#include <gtest/gtest.h>

#include <stdexcept>

#include "core/policy.h"
#include "core/predictions.h"
#include "snapshot.h"

namespace easypp {
namespace {

using test::running;
using test::waiting;

Job submitted(JobId id, UserId user, Time estimate) {
  Job j = waiting(id, 4, 0, estimate);
  j.user = user;
  j.submit = 100'000;  // after every run the tests teach
  j.prediction = 0;
  return j;
}

// Teaches `p` that `user` ran jobs of these runtimes (completed, one after the other).
void history(Predictions& p, UserId user, std::initializer_list<Time> runtimes) {
  JobId id = 1000;
  Time t = 0;
  for (Time r : runtimes) {
    Job j = submitted(id++, user, 10'000);
    ASSERT_TRUE(p.job_ended(j, t, t + r, EPP_END_COMPLETED).learnt);
    t += r + 1;
  }
}

TEST(Predictions, BadSpecThrowsThePredictorsMessage) {
  PolicyTraits t;
  t.predictor = "history:window=zero";
  try {
    Predictions p(t);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("window"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Predictions(make_policy("easy")->traits(), "nonsense-kind"), std::invalid_argument);
}

TEST(Predictions, EasyPredictsTheEstimate) {
  Predictions p(make_policy("easy")->traits());
  Job j = submitted(1, 7, 3600);
  EXPECT_EQ(p.predict(j), 3600);
  EXPECT_EQ(j.prediction, 3600);
}

TEST(Predictions, EasyPlusAveragesTheLastTwoRunsCappedAtTheEstimate) {
  Predictions p(make_policy("easy+")->traits());
  Job first = submitted(1, 7, 3600);
  EXPECT_EQ(p.predict(first), 3600);  // no history: falls back on the estimate
  history(p, 7, {100, 500, 300});
  Job j = submitted(2, 7, 3600);
  EXPECT_EQ(p.predict(j), 400);  // (500 + 300) / 2
  Job capped = submitted(3, 7, 250);
  EXPECT_EQ(p.predict(capped), 250);
  Job other_user = submitted(4, 8, 3600);
  EXPECT_EQ(p.predict(other_user), 3600);
}

TEST(Predictions, SpecOverrideReplacesThePolicyDefault) {
  Predictions p(make_policy("easy++")->traits(), "history:type=immediate");
  EXPECT_NE(p.spec().find("type=immediate"), std::string::npos) << p.spec();
  EXPECT_EQ(p.traits().predictor, "history:type=immediate");
}

TEST(Predictions, X2PlusDoublesPredictionsUnderTheDoubledEstimate) {
  Predictions p(make_policy("x2+")->traits());
  history(p, 7, {100, 300});  // average 200
  Job j = submitted(1, 7, 2 * 3600);  // the driver already doubled the estimate
  EXPECT_EQ(p.predict(j), 400);
  Job tight = submitted(2, 7, 2 * 150);
  EXPECT_EQ(p.predict(tight), 300);  // 400 capped at the doubled estimate
  Job fresh = submitted(3, 9, 2 * 3600);
  EXPECT_EQ(p.predict(fresh), 2 * 3600);  // fallback: the doubled estimate, not 4x
}

TEST(Predictions, X2PlansOnTheDoubledEstimate) {
  Predictions p(make_policy("x2")->traits());
  Job j = submitted(1, 7, 2 * 3600);
  EXPECT_EQ(p.predict(j), 2 * 3600);
}

TEST(Predictions, PerfectUsesTheActualRuntimeCappedAtTheEstimate) {
  Predictions p(make_policy("perfect++")->traits());
  Job j = submitted(1, 7, 3600);
  EXPECT_EQ(p.predict(j, 123), 123);
  EXPECT_EQ(p.predict(j, 5000), 3600);
  EXPECT_EQ(p.predict(j, 0), 1);  // a prediction is at least one second
}

TEST(Predictions, CorrectionJumpsToTheEstimateThenGrowsGradually) {
  Predictions p(make_policy("easy+")->traits());
  RunningJob r = running(1, 4, 0, 200, 1000);
  ASSERT_EQ(p.next_correction_time(r), std::optional<Time>(200));
  EXPECT_FALSE(p.correct(r, 199));
  EXPECT_EQ(r.job.prediction, 200);
  EXPECT_TRUE(p.correct(r, 200));
  EXPECT_EQ(r.job.prediction, 1000);  // correction=estimate (section 3.2)
  EXPECT_EQ(r.job.corrections, 1);
  EXPECT_EQ(p.next_correction_time(r), std::optional<Time>(1000));
  EXPECT_TRUE(p.correct(r, 1000));
  EXPECT_EQ(r.job.prediction, 1060);  // beyond the estimate: +1 minute first
  EXPECT_TRUE(p.correct(r, 1060));
  EXPECT_EQ(r.job.prediction, 1060 + 900);  // then +15 minutes
  EXPECT_EQ(r.job.corrections, 3);
}

// A correction checked late (a plugin pass after the predicted end) takes the steps the
// simulator takes at each predicted end, and counts them: correction=gradual, limit 20000,
// prediction 100, started at 0. At each end: 100 -> 160 -> 1060 -> 2860 -> 6460 (steps of
// 1, 15, 30, 60 minutes). Checked first at 1100: 2860 with three corrections, then 6460
// at 2860 as at each end (a count of one made the next step 15 minutes: 3760).
TEST(Predictions, ALateCorrectionTakesAndCountsEveryStep) {
  Predictions at_each_end(make_policy("easy++")->traits(), "history:correction=gradual");
  Predictions late(make_policy("easy++")->traits(), "history:correction=gradual");
  RunningJob a = running(1, 4, 0, 100, 20000), b = a;
  for (Time t : {100, 160, 1060}) ASSERT_TRUE(at_each_end.correct(a, t));
  EXPECT_EQ(a.job.prediction, 2860);
  EXPECT_EQ(a.job.corrections, 3);
  ASSERT_TRUE(late.correct(b, 1100));
  EXPECT_EQ(b.job.prediction, 2860);
  EXPECT_EQ(b.job.corrections, 3);
  ASSERT_TRUE(at_each_end.correct(a, 2860));
  ASSERT_TRUE(late.correct(b, 2860));
  EXPECT_EQ(a.job.prediction, 6460);
  EXPECT_EQ(b.job.prediction, 6460);
}

TEST(Predictions, NoCorrectionForPoliciesThatDoNotCorrect) {
  Predictions p(make_policy("easy")->traits());
  RunningJob r = running(1, 4, 0, 1000, 1000);
  EXPECT_EQ(p.next_correction_time(r), std::nullopt);
  EXPECT_FALSE(p.correct(r, 5000));
  EXPECT_EQ(r.job.prediction, 1000);
  EXPECT_EQ(r.job.corrections, 0);
}

TEST(Predictions, PropagationNamesTheUserToRepredict) {
  Predictions off(make_policy("easy+")->traits());
  EXPECT_FALSE(off.propagates());
  Job j = submitted(1, 7, 3600);
  EXPECT_EQ(off.job_ended(j, 10, 100, EPP_END_COMPLETED).repredict_user, std::nullopt);

  Predictions on(make_policy("easy+")->traits(), "history:propagation=on");
  EXPECT_TRUE(on.propagates());
  const Predictions::JobEnd end = on.job_ended(j, 10, 100, EPP_END_COMPLETED);
  EXPECT_TRUE(end.learnt);
  EXPECT_EQ(end.repredict_user, std::optional<UserId>(7));
  // The same job id again is a duplicate: not learnt, nobody to re-predict.
  EXPECT_FALSE(on.job_ended(j, 10, 100, EPP_END_COMPLETED).learnt);
}

TEST(Predictions, MovedFromObjectIsEmptyAndTheTargetWorks) {
  Predictions a(make_policy("easy+")->traits());
  history(a, 7, {100, 300});
  Predictions b(std::move(a));
  Job j = submitted(1, 7, 3600);
  EXPECT_EQ(b.predict(j), 200);
}

}  // namespace
}  // namespace easypp

namespace easypp {
namespace {

// Paper 000 Fig. 5, as numbers. 10 processors, now 10. Job 1 (6 procs) started at 0,
// predicted 5 (so overdue), estimated 40; 4 idle. Job 2 needs all 10; job 3 (4 procs,
// predicted 20) waits behind it.
// Before correction the plan thinks job 1's processors are free now: job 2's reservation
// is now, and job 3 (ending at 30) cannot backfill. Correcting job 1 to its estimate
// moves the reservation to 40, and job 3 backfills.
TEST(PredictionsWithPolicy, Figure5CorrectionReenablesBackfilling) {
  const auto policy = make_policy("easy+");
  Predictions predictions(policy->traits());
  ClusterState s;
  s.now = 10;
  s.procs = 10;
  s.running = {test::running(1, 6, 0, 5, 40)};
  s.waiting = {test::waiting(2, 10, 30), test::waiting(3, 4, 20)};

  Decision before = policy->plan(s);
  EXPECT_EQ(before.reservations.at(0).start, 10);
  EXPECT_TRUE(before.start.empty());

  ASSERT_TRUE(predictions.correct(s.running[0], s.now));
  EXPECT_EQ(s.running[0].job.prediction, 40);
  Decision after = policy->plan(s);
  EXPECT_EQ(after.reservations.at(0).start, 40);
  EXPECT_EQ(after.start, std::vector<JobId>{3});
}

}  // namespace
}  // namespace easypp
