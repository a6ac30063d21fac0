// OutcomeRecorder on hand-made events (no simulator): each expected value is worked out by
// hand in the comment above it.
#include <gtest/gtest.h>

#include "measure/outcome_recorder.h"

namespace easypp::measure {
namespace {

SimOutcome skeleton(std::initializer_list<std::pair<int, Time>> procs_runtime) {
  SimOutcome s;
  s.procs = 10;
  for (auto [procs, runtime] : procs_runtime) {
    JobOutcome o;
    o.procs = procs;
    o.runtime = runtime;
    s.jobs.push_back(o);
  }
  return s;
}

Job job(JobId id, int procs, Time prediction, Time submit = 0) {
  Job j;
  j.id = id;
  j.procs = procs;
  j.prediction = prediction;
  j.estimate = prediction;
  j.submit = submit;
  return j;
}

// Submitted at 0 predicted 100 s, runtime 200 s; corrected to 200 at 50; runs 10..210.
// Accuracy is min/max weighted by time in effect: 0.5 x 50 s + 1 x 160 s over the 210 s
// of its life = 185/210.
TEST(OutcomeRecorder, AccuracyIsWeightedByTimeInEffect) {
  OutcomeRecorder r(skeleton({{4, 200}}));
  Job j = job(1, 4, 100);
  r.arrived(0, j, 0);
  r.started(0, j, 10, 210);
  r.prediction_changed(0, 200, 50);
  j.prediction = 200;
  j.corrections = 1;
  r.ended(0, j, 10, 210, false);
  const JobOutcome& o = r.outcome().jobs[0];
  EXPECT_DOUBLE_EQ(o.accuracy, 185.0 / 210.0);
  EXPECT_EQ(o.start, 10);
  EXPECT_EQ(o.end, 210);
  EXPECT_EQ(o.corrections, 1);
  EXPECT_EQ(o.prediction_at_start, 100);
  EXPECT_DOUBLE_EQ(r.outcome().busy_proc_seconds, 4.0 * 200);
}

// A killed run (2 procs, 30..80) counts as a restart, 50 s run before the final one and
// 100 processor-seconds of lost (and busy) work.
TEST(OutcomeRecorder, KillsAreRestartsAndLostWork) {
  OutcomeRecorder r(skeleton({{2, 100}}));
  const Job j = job(1, 2, 100);
  r.arrived(0, j, 0);
  r.started(0, j, 30, 130);
  r.killed(0, j, 30, 80);
  r.started(0, j, 90, 190);
  r.ended(0, j, 90, 190, false);
  const SimOutcome& out = r.outcome();
  EXPECT_EQ(out.jobs[0].restarts, 1);
  EXPECT_EQ(out.jobs[0].run_before_final, 50);
  EXPECT_DOUBLE_EQ(out.lost_proc_seconds, 100.0);
  EXPECT_DOUBLE_EQ(out.busy_proc_seconds, 100.0 + 200.0);
  ASSERT_EQ(out.killed_runs.size(), 1u);
  EXPECT_EQ(out.killed_runs[0].end, 80);
}

// Heel and toe on a pool of 10: A (5 procs) really ends at 100; the head B (10 procs) could
// start at 100 with real ends. Then C (5 procs, really ending at 300) is backfilled: B's
// earliest start with real ends becomes 300, one pushback. B's first reservation is the
// one of the first pass (100), kept when a later pass moves it; C is marked backfilled.
TEST(OutcomeRecorder, HeelAndToeCountsPushbacks) {
  OutcomeRecorder r(skeleton({{5, 100}, {10, 50}, {5, 300}}));
  ClusterState s;
  s.procs = 10;
  const Job a = job(1, 5, 100);
  const Job b = job(2, 10, 50);
  const Job c = job(3, 5, 100);
  r.arrived(0, a, 0);
  r.started(0, a, 0, 100);
  r.arrived(1, b, 0);
  r.arrived(2, c, 0);
  s.running.push_back({a, 0, nullptr});
  s.waiting = {b, c};
  Decision d;
  d.reservations.push_back({2, 100, nullptr});
  r.planned(s, d);
  EXPECT_EQ(r.outcome().jobs[1].first_perfect_start, 100);
  EXPECT_EQ(r.outcome().jobs[1].first_reservation, 100);

  r.started(2, c, 0, 300);
  s.running.push_back({c, 0, nullptr});
  s.waiting = {b};
  d.start = {3};
  d.backfilled = {3};
  d.reservations = {{2, 150, nullptr}};
  r.planned(s, d);
  const SimOutcome& out = r.outcome();
  EXPECT_EQ(out.jobs[1].pushbacks, 1);
  EXPECT_EQ(out.jobs[1].first_perfect_start, 100);
  EXPECT_EQ(out.jobs[1].first_reservation, 100);
  EXPECT_TRUE(out.jobs[2].backfilled);
  EXPECT_EQ(out.passes, 2);
}

}  // namespace
}  // namespace easypp::measure
