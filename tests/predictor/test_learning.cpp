// What teaches the predictor: end states (learn=), bad times, and job-id dedupe.
#include <gtest/gtest.h>

#include "predictor_fixture.h"

namespace easypp::test {
namespace {

TEST(LearnRule, FinishedTeachesCompletedTimeoutAndLongFailures) {
  auto p = make_predictor("");  // learn=finished, failed_min=60
  EXPECT_EQ(teach(p.get(), 1, 7, 3600, 100, 10000, EPP_END_COMPLETED), 1);
  EXPECT_EQ(teach(p.get(), 2, 7, 3600, 3600, 14000, EPP_END_TIMEOUT), 1);
  EXPECT_EQ(teach(p.get(), 3, 7, 3600, 59, 15000, EPP_END_FAILED), 0);
  EXPECT_EQ(teach(p.get(), 4, 7, 3600, 60, 16000, EPP_END_FAILED), 1);
  EXPECT_EQ(teach(p.get(), 5, 7, 3600, 900, 17000, EPP_END_CANCELLED), 0);
  EXPECT_EQ(epp_predictor_records(p.get()), 3u);
}

TEST(LearnRule, FailedMinIsConfigurable) {
  auto p = make_predictor("history:failed_min=0");
  EXPECT_EQ(teach(p.get(), 3, 7, 3600, 1, 15000, EPP_END_FAILED), 1);
}

TEST(LearnRule, CompletedTeachesOnlyCompletedRuns) {
  auto p = make_predictor("history:learn=completed");
  EXPECT_EQ(teach(p.get(), 1, 7, 3600, 100, 10000, EPP_END_COMPLETED), 1);
  EXPECT_EQ(teach(p.get(), 2, 7, 3600, 3600, 14000, EPP_END_TIMEOUT), 0);
  EXPECT_EQ(teach(p.get(), 3, 7, 3600, 600, 15000, EPP_END_FAILED), 0);
}

TEST(LearnRule, AllTeachesEveryEndIncludingCancelled) {
  auto p = make_predictor("last:learn=all");
  EXPECT_EQ(teach(p.get(), 1, 7, 3600, 900, 17000, EPP_END_CANCELLED), 1);
  EXPECT_EQ(teach(p.get(), 2, 7, 3600, 5, 18000, EPP_END_FAILED), 1);
}

TEST(LearnRule, RejectsUnknownStatesAndImpossibleTimes) {
  auto p = make_predictor("history:learn=all");
  epp_job j = job(1, 7, 3600);
  EXPECT_EQ(epp_learn(p.get(), &j, 100, 200, 9), 0);
  EXPECT_EQ(epp_learn(p.get(), &j, 100, 200, -1), 0);
  EXPECT_EQ(epp_learn(p.get(), &j, -1, 200, EPP_END_COMPLETED), 0);   // never started
  EXPECT_EQ(epp_learn(p.get(), &j, 300, 200, EPP_END_COMPLETED), 0);  // ends before start
  EXPECT_EQ(epp_learn(p.get(), nullptr, 100, 200, EPP_END_COMPLETED), 0);
  EXPECT_EQ(epp_learn(nullptr, &j, 100, 200, EPP_END_COMPLETED), 0);
  EXPECT_EQ(epp_predictor_records(p.get()), 0u);
}

TEST(Dedupe, ReimportingTheSameJobsDoesNotCountTwice) {
  auto p = make_predictor("history:window=3");
  for (int round = 0; round < 2; ++round) {
    EXPECT_EQ(teach(p.get(), 10, 7, 3600, 100, 10000), round == 0 ? 1 : 0);
    EXPECT_EQ(teach(p.get(), 11, 7, 3600, 200, 10100), round == 0 ? 1 : 0);
    EXPECT_EQ(teach(p.get(), 12, 7, 3600, 900, 10200), round == 0 ? 1 : 0);
  }
  EXPECT_EQ(epp_predictor_records(p.get()), 3u);
  EXPECT_EQ(predict(p.get(), 7, 3600), 400);
}

TEST(Dedupe, IsPerUser) {
  auto p = make_predictor("");
  EXPECT_EQ(teach(p.get(), 10, 7, 3600, 100, 10000), 1);
  EXPECT_EQ(teach(p.get(), 10, 8, 3600, 100, 10000), 1);
}

TEST(Dedupe, IdZeroIsUnknownAndNeverDeduplicated) {
  auto p = make_predictor("");
  EXPECT_EQ(teach(p.get(), 0, 7, 3600, 100, 10000), 1);
  EXPECT_EQ(teach(p.get(), 0, 7, 3600, 100, 10000), 1);
}

TEST(Dedupe, BoundedSetTreatsRunsEndingBeforeItsWindowAsKnown) {
  auto p = make_predictor("");
  for (int id = 1000; id < 1200; ++id) teach(p.get(), id, 7, 3600, 100, 10000 + id);
  // The 128 latest ends are kept (jobs 1072..1199, ends 11072..11199).
  EXPECT_EQ(teach(p.get(), 5, 7, 3600, 100, 11000), 0);     // ended before all of them
  EXPECT_EQ(teach(p.get(), 6, 7, 3600, 100, 11072), 0);     // ties with the oldest kept
  EXPECT_EQ(teach(p.get(), 1150, 7, 3600, 100, 50000), 0);  // kept id, whatever its end
  EXPECT_EQ(teach(p.get(), 1200, 7, 3600, 100, 50001), 1);  // new
}

TEST(Dedupe, ALongJobWithASmallIdEndingLateIsLearnt) {
  auto p = make_predictor("history:window=1");
  for (int id = 1000; id < 1200; ++id) teach(p.get(), id, 7, 3600, 100, 10000 + id);
  EXPECT_EQ(teach(p.get(), 3, 7, 90000, 80000, 100000), 1);
  EXPECT_EQ(predict(p.get(), 7, 90000), 80000);
}

TEST(Dedupe, GapsInsideTheWindowAreStillLearned) {
  auto p = make_predictor("");
  teach(p.get(), 10, 7, 3600, 100, 10000);
  teach(p.get(), 30, 7, 3600, 100, 10100);
  EXPECT_EQ(teach(p.get(), 20, 7, 3600, 100, 10050), 1);  // ended out of id order
}

TEST(Inspection, UsersRunsAndAccuracy) {
  auto p = make_predictor("");
  teach(p.get(), 1, 30, 1000, 500, 10000);
  teach(p.get(), 2, 10, 1000, 250, 10100);
  teach(p.get(), 3, 20, 1000, 100, 10200);
  teach(p.get(), 4, 10, 2000, 500, 10050);  // ended before job 2
  std::uint32_t ids[2] = {0, 0};
  EXPECT_EQ(epp_predictor_user_ids(p.get(), ids, 2), 3u);  // the two smallest, sorted
  EXPECT_EQ(ids[0], 10u);
  EXPECT_EQ(ids[1], 20u);
  epp_run runs[4];
  ASSERT_EQ(epp_user_runs(p.get(), 10, runs, 4), 2u);
  EXPECT_EQ(runs[0].job_id, 4u);  // oldest first, by end time
  EXPECT_EQ(runs[1].job_id, 2u);
  EXPECT_EQ(runs[1].runtime, 250);
  EXPECT_EQ(runs[1].end, 10100);
  EXPECT_EQ(epp_user_runs(p.get(), 99, runs, 4), 0u);
  double mean = 0;
  std::uint64_t count = 0;
  ASSERT_EQ(epp_user_accuracy(p.get(), 10, &mean, &count), 1);
  EXPECT_DOUBLE_EQ(mean, 0.25);  // (0.25 + 0.25) / 2
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(epp_user_accuracy(p.get(), 99, &mean, &count), 0);
}

}  // namespace
}  // namespace easypp::test
