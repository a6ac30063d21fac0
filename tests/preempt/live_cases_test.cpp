// The cases of the live tests t_live_pv_easy.sh and t_live_timed_run.sh, in the
// simulator: the same jobs, times in seconds, so that the schedule the plugin must keep
// live is the one the simulator makes (a decision made in simulation and in slurmctld on
// the same state is the same). Each case has a job that may not be requeued (sbatch
// --no-requeue live, Job::requeueable false here) where a requeueable one would be the
// victim; a control run with it requeueable shows the flag is what spares it. Every
// expected time below was worked out by hand (comments).
#include <gtest/gtest.h>

#include "core/policy.h"
#include "sim/simulator.h"
#include "support.h"

namespace easypp {
namespace {

using preempt_test::workload;

void expect_run(const measure::JobOutcome& j, Time start, Time end, int restarts,
                Time run_before_final) {
  EXPECT_EQ(j.start, start);
  EXPECT_EQ(j.end, end);
  EXPECT_EQ(j.restarts, restarts);
  EXPECT_EQ(j.run_before_final, run_before_final);
}

// Paper 002 (PV-EASY, section 4): a venture backfill, then a shadow-load preemption.
// 14 CPUs (one node of 14 live). All jobs of one user (root live), so the default Last
// Model predictor sees the history it sees live; nothing has ended when the venture
// decisions are made, so every prediction is the user's estimate (the time limit).
//   A  ( 0 s,  6 CPUs, runs 20 s, limit 3 min)  starts at 0: regular.
//   H  ( 1 s, 12 CPUs, runs  5 s, limit 1 min)  blocked: 8 idle. No shadow load yet.
//      Its reservation, from the sunny load (A) on predictions: A's end, 0 + 180.
//   V1, V2 (1 s, 2 CPUs, run 8 s, limit 1 min)  VB step 1: predicted end 61 <= 180,
//      nearest completion first: both start at 1 (4 idle left).
//   L  ( 1 s,  2 CPUs, runs 40 s, limit 5 min)  VB step 2: 301 > 180, but processors are
//      idle: starts at 1 by priority "regardless of predictions" (2 idle left).
//   N  ( 1 s,  2 CPUs, runs 40 s, limit 5 min, --no-requeue)  VB step 2 likewise: 0 idle.
//   At 9 V1, V2 end: 4 idle + the shadow load one may kill (L: 2) = 6 < 12: no kill.
//   At 20 A ends: 10 idle. SLP kills lowest priority first: N is the lowest, but may not
//      be requeued; L (2) is next and enough (12): L is killed (ran 19 s: 2 x 19 = 38
//      CPU-seconds lost) and H starts at 20, ends at 25. N runs on to 41.
//   At 25 L restarts (2 CPUs idle: 14 - N's 2) and runs 40 s to 65.
sim::Workload pv_easy_case(bool n_requeueable) {
  sim::Workload w = workload(14, {{0, 6, 20, 180}, {1, 12, 5, 60}, {1, 2, 8, 60}, {1, 2, 8, 60},
                                  {1, 2, 40, 300}, {1, 2, 40, 300}});
  for (sim::SimJob& j : w.jobs) j.job.user = 0;
  w.jobs[5].job.requeueable = n_requeueable;
  return w;
}

TEST(LiveCasePvEasy, ShadowLoadPreemptionSparesTheJobThatMayNotBeRequeued) {
  auto policy = make_policy("pv-easy");
  measure::SimOutcome o = sim::simulate(pv_easy_case(false), *policy);
  expect_run(o.jobs[0], 0, 20, 0, 0);   // A
  expect_run(o.jobs[1], 20, 25, 0, 0);  // H
  expect_run(o.jobs[2], 1, 9, 0, 0);    // V1
  expect_run(o.jobs[3], 1, 9, 0, 0);    // V2
  EXPECT_TRUE(o.jobs[2].backfilled);
  EXPECT_TRUE(o.jobs[3].backfilled);
  expect_run(o.jobs[4], 25, 65, 1, 19);  // L: killed at 20, restarted when H ends
  expect_run(o.jobs[5], 1, 41, 0, 0);    // N: never killed
  ASSERT_EQ(o.killed_runs.size(), 1u);
  EXPECT_EQ(o.killed_runs[0].job, 4u);  // index of L
  EXPECT_EQ(o.killed_runs[0].start, 1);
  EXPECT_EQ(o.killed_runs[0].end, 20);
  EXPECT_DOUBLE_EQ(o.lost_proc_seconds, 2.0 * 19);
}

// Control: were N requeueable, it would be the victim (lowest priority first).
TEST(LiveCasePvEasy, ARequeueableLowestPriorityJobWouldBeTheVictim) {
  auto policy = make_policy("pv-easy");
  measure::SimOutcome o = sim::simulate(pv_easy_case(true), *policy);
  EXPECT_EQ(o.jobs[4].restarts, 0);
  EXPECT_EQ(o.jobs[5].restarts, 1);
  expect_run(o.jobs[1], 20, 25, 0, 0);
}

// Paper 004 Fig. 2 (section 2.1: "a 100-processor machine with 90-second trial runs and
// a FCFS base scheduler"; A(0, 80, 300), B(100, 100, 40), C(110, 20, > 190)), with every
// size and time divided by 10: 10 CPUs, 9-second trials (timed-run:base=fcfs:trial=9).
//   A ( 0 s,  8 CPUs, runs 30 s)  trial at 0; at 9 nothing else waits: FCFS commits it.
//   B (10 s, 10 CPUs, runs  4 s)  no trial (A holds 8); heads the FCFS queue.
//   C (11 s,  2 CPUs, runs 25 s)  trial at 11 on the 2 idle CPUs; trial ends at 20, but B
//      cannot start before A ends: C runs on (lazy termination).
//   N (12 s,  2 CPUs, runs 10 s, --no-requeue)  no trial (it could not be terminated):
//      waits in FCFS order behind B.
//   At 30 A ends: B's trial needs all 10 CPUs; C is terminable: killed (ran 19 s: 2 x 19
//      = 38 CPU-seconds lost). B ends at 34, within its trial.
//   At 34 C (restarted once: no second trial, committed in FCFS order) and N start; C
//      ends at 59, N at 44.
sim::Workload timed_run_case(bool n_requeueable) {
  sim::Workload w = workload(10, {{0, 8, 30, 120}, {10, 10, 4, 60}, {11, 2, 25, 120},
                                  {12, 2, 10, 60}});
  w.jobs[3].job.requeueable = n_requeueable;
  return w;
}

TEST(LiveCaseTimedRun, Fig2ScaledWithAJobThatMayNotBeRequeued) {
  auto policy = make_policy("timed-run:base=fcfs:trial=9");
  measure::SimOutcome o = sim::simulate(timed_run_case(false), *policy);
  expect_run(o.jobs[0], 0, 30, 0, 0);    // A
  expect_run(o.jobs[1], 30, 34, 0, 0);   // B
  expect_run(o.jobs[2], 34, 59, 1, 19);  // C
  expect_run(o.jobs[3], 34, 44, 0, 0);   // N
  ASSERT_EQ(o.killed_runs.size(), 1u);
  EXPECT_EQ(o.killed_runs[0].job, 2u);
  EXPECT_EQ(o.killed_runs[0].start, 11);
  EXPECT_EQ(o.killed_runs[0].end, 30);
  EXPECT_DOUBLE_EQ(o.lost_proc_seconds, 2.0 * 19);
}

// Control: were N requeueable, it would get its trial as soon as CPUs count as free: at
// 20 C's trial ends, C is terminable, and N's trial takes its CPUs (C killed after 9 s).
// N ends at 30 (runs 10 s, just past its 9-second trial, with nothing needing its CPUs
// before A ends at 30). C restarts at 34 as before.
TEST(LiveCaseTimedRun, ARequeueableJobWouldHaveHadATrialOnCsProcessors) {
  auto policy = make_policy("timed-run:base=fcfs:trial=9");
  measure::SimOutcome o = sim::simulate(timed_run_case(true), *policy);
  expect_run(o.jobs[2], 34, 59, 1, 9);
  expect_run(o.jobs[3], 20, 30, 0, 0);
}

// A job that may not be requeued gets no trial run (lazy termination could not end it):
// the FCFS base scheduler starts it in its turn. 4 CPUs, 10-second trials. X (0 s,
// 2 CPUs, 100 s) starts its trial at 0. Y (1 s, 2 CPUs, 100 s, may not be requeued) gets
// no trial; FCFS puts it behind X, whose trial is running ("the base scheduler acts as if
// the job cannot fit"), so Y waits until X's trial ends at 10: X is committed (nothing
// else wants its CPUs) and Y starts then. Z (20 s, 4 CPUs, 5 s) waits for both: X ends
// at 100, Y at 110 (committed, never killed); Z runs 110-115.
TEST(LiveCaseTimedRun, AJobThatMayNotBeRequeuedGetsNoTrial) {
  sim::Workload w = workload(4, {{0, 2, 100, 200}, {1, 2, 100, 200}, {20, 4, 5, 60}});
  w.jobs[1].job.requeueable = false;
  auto policy = make_policy("timed-run:base=fcfs:trial=10");
  measure::SimOutcome o = sim::simulate(w, *policy);
  expect_run(o.jobs[0], 0, 100, 0, 0);    // X
  expect_run(o.jobs[1], 10, 110, 0, 0);   // Y
  expect_run(o.jobs[2], 110, 115, 0, 0);  // Z
  EXPECT_TRUE(o.killed_runs.empty());
}

}  // namespace
}  // namespace easypp
