// PV-EASY (paper 002 section 4) on hand-made cases, planning on user estimates
// (--predictor estimate) so every prediction is known: shadow-load preemption and the two
// steps of venture backfilling, with exact times.
#include <gtest/gtest.h>

#include "core/policy.h"
#include "core/pv_easy.h"
#include "../core/snapshot.h"
#include "sim/simulator.h"
#include "support.h"

namespace easypp {
namespace {

using preempt_test::workload;

measure::SimOutcome run_pv(const sim::Workload& w) {
  PolicyOptions o;
  o.predictor = "estimate";
  auto policy = make_policy("pv-easy", o);
  return sim::simulate(w, *policy);
}

// 10 processors. J1 runs 0-100 on 6. J2 (10 procs) is blocked: reservation 100 from the
// sunny load (J1). J3, J4, J5 (2 procs each) arrive with it. Venture backfilling step 3
// takes those predicted to end by 100, nearest completion first: J5 (ends 81), then J4
// (91); J3 (300 s) does not fit the reservation. At 61 J4 ends and step 4 starts J3 on
// the idle processors regardless of its prediction. At 100 J1 ends: 8 idle, J2 needs 10;
// J3 is shadow load, killing it lets J2 start now, so it is killed (39 s lost) and
// restarts when J2 ends.
TEST(PvEasy, VentureBackfillingThenShadowLoadPreemption) {
  sim::Workload w = workload(10, {{0, 6, 100, 100}, {1, 10, 50, 50}, {1, 2, 300, 300},
                                  {1, 2, 60, 90}, {1, 2, 80, 80}});
  measure::SimOutcome o = run_pv(w);
  EXPECT_EQ(o.jobs[0].start, 0);
  EXPECT_EQ(o.jobs[1].start, 100);
  EXPECT_EQ(o.jobs[1].first_reservation, 100);
  EXPECT_FALSE(o.jobs[1].backfilled);
  EXPECT_EQ(o.jobs[4].start, 1);
  EXPECT_TRUE(o.jobs[4].backfilled);
  EXPECT_EQ(o.jobs[3].start, 1);
  EXPECT_TRUE(o.jobs[3].backfilled);
  EXPECT_EQ(o.jobs[2].restarts, 1);
  EXPECT_EQ(o.jobs[2].run_before_final, 39);
  EXPECT_EQ(o.jobs[2].start, 150);
  EXPECT_EQ(o.jobs[2].end, 450);
  EXPECT_FALSE(o.jobs[2].backfilled);
  ASSERT_EQ(o.killed_runs.size(), 1u);
  EXPECT_EQ(o.killed_runs[0].start, 61);
  EXPECT_EQ(o.killed_runs[0].end, 100);
  EXPECT_DOUBLE_EQ(o.lost_proc_seconds, 2.0 * 39);
}

// 4 processors. J2 (3 procs) blocked behind J1 (2 procs, 0-100); J3 and J4 (1 proc,
// 500 s) venture-backfilled at 2 and 3. At 100, 2 idle + shadow load J3, J4: killing the
// lowest priority one (J4) is enough, so J3 keeps running.
TEST(PvEasy, KillsLowestPriorityFirstAndOnlyAsManyAsNeeded) {
  sim::Workload w = workload(4, {{0, 2, 100, 100}, {1, 3, 100, 100}, {2, 1, 500, 500},
                                 {3, 1, 500, 500}});
  measure::SimOutcome o = run_pv(w);
  EXPECT_EQ(o.jobs[1].start, 100);
  EXPECT_EQ(o.jobs[2].start, 2);
  EXPECT_EQ(o.jobs[2].restarts, 0);
  EXPECT_EQ(o.jobs[3].restarts, 1);
  EXPECT_EQ(o.jobs[3].run_before_final, 97);
  EXPECT_EQ(o.jobs[3].start, 200);
  EXPECT_EQ(o.jobs[3].end, 700);
}

// Preemption only if it lets the head start now: 2 idle + 1 shadow < 4 needed, so the
// shadow job keeps running.
TEST(PvEasy, NoKillWhenPreemptionWouldNotStartTheHead) {
  sim::Workload w = workload(4, {{0, 1, 100, 100}, {1, 4, 10, 10}, {2, 1, 50, 500}});
  measure::SimOutcome o = run_pv(w);
  // J3 (step 4 at 2) would not let J2 start at any moment before J1 ends: 2 + 1 < 4.
  EXPECT_EQ(o.jobs[2].start, 2);
  EXPECT_EQ(o.jobs[2].restarts, 0);
  EXPECT_EQ(o.jobs[1].start, 100);
  EXPECT_TRUE(o.killed_runs.empty());
}

// A victim killed by an earlier decision is still completing (the plugin: Slurm cleans
// up after it; Job::releasing): its processors come back without another kill. 14 at
// t=100: X (2, --no-requeue), L1 (6, requeueable) and L2 (6, the completing victim) run,
// all of lower priority than the head H (6). Counting L2 as holding its 6 would kill L1
// too (0 idle, L1 the only shadow load); as releasing, H fits now on L2's processors and
// is started (the plugin's select_nodes waits for the clean-up), nothing is killed.
TEST(PvEasy, NoFurtherKillWhileAVictimIsStillCompleting) {
  for (bool releasing : {false, true}) {
    PvEasyPolicy policy("pv-easy", PolicyTraits{});
    ClusterState s;
    s.now = 100;
    s.procs = 14;
    auto run = [](JobId id, int procs, bool requeueable) {
      RunningJob r = test::running(id, procs, 10, 1000);
      r.job.submit = 10 + static_cast<Time>(id);
      r.job.priority = -r.job.submit;
      r.job.requeueable = requeueable;
      return r;
    };
    RunningJob l2 = run(3, 6, false);
    l2.job.releasing = releasing;
    s.running = {run(1, 2, false), run(2, 6, true), l2};
    Job h = test::waiting(4, 6, 50);
    h.submit = 0;
    h.priority = 0;
    s.waiting = {h};
    const Decision d = policy.plan(s);
    if (releasing) {
      EXPECT_TRUE(d.kill_requeue.empty());
      EXPECT_EQ(d.start, (std::vector<JobId>{4}));
    } else {
      EXPECT_EQ(d.kill_requeue, (std::vector<JobId>{2})) << "the control: L1 is killed";
    }
  }
}

// A running job of lower priority than the head that may not be requeued (the plugin:
// outside easypp_requeue_partitions) is never killed, so it holds its processors to its
// predicted end in the head's reservation too. 5 processors at t=10: J1 (2, higher
// priority, ends 100) and J3 (2, lower, not requeueable, ends 1002) run; the head J2 needs
// all 5: 3 are free at 100, 5 only at 1002. So the reservation is at 1002, and venture
// backfilling within it takes the nearest completion first: J4 (ends 610) before J6 (900);
// one idle processor, so J4 alone. (Counted as ending now, J3 gave a reservation at 100,
// which no 1-processor job fits, and step 4 started J6, the higher priority.)
TEST(PvEasy, ShadowJobThatMayNotBeRequeuedHoldsItsProcessors) {
  auto job = [](JobId id, Time submit, int procs, Time prediction) {
    Job j = test::waiting(id, procs, prediction);
    j.submit = submit;
    j.priority = -submit;
    return j;
  };
  PvEasyPolicy policy("pv-easy", PolicyTraits{});
  ClusterState s;
  s.now = 10;
  s.procs = 5;
  RunningJob j1{job(1, 0, 2, 100), 0};
  RunningJob j3{job(3, 2, 2, 1000), 2};
  j3.job.requeueable = false;
  s.running = {j1, j3};
  s.waiting = {job(2, 1, 5, 10), job(6, 3, 1, 890), job(4, 4, 1, 600)};
  const Decision d = policy.plan(s);
  ASSERT_EQ(d.reservations.size(), 1u);
  EXPECT_EQ(d.reservations[0].job, 2u);
  EXPECT_EQ(d.reservations[0].start, 1002);
  EXPECT_EQ(d.start, (std::vector<JobId>{4}));
  EXPECT_TRUE(d.kill_requeue.empty());
}

}  // namespace
}  // namespace easypp
