// Timed-run scheduling on the hand-made instances of paper 004 section 2.1 (100
// processors, 90-second trial runs, FCFS base), with the schedules of its Figs. 2 and 3.
#include <gtest/gtest.h>

#include <memory>

#include "core/job_request.h"
#include "core/machine.h"
#include "core/policy.h"
#include "core/timed_run.h"
#include "../core/snapshot.h"
#include "sim/simulator.h"
#include "support.h"

namespace easypp {
namespace {

using preempt_test::workload;

measure::SimOutcome run_timed(const sim::Workload& w, const std::string& base, Time trial = 90) {
  auto policy = make_policy("timed-run:base=" + base + ",trial=" + std::to_string(trial));
  return sim::simulate(w, *policy);
}

void expect_run(const measure::JobOutcome& j, Time start, Time end, int restarts,
                Time run_before_final) {
  EXPECT_EQ(j.start, start);
  EXPECT_EQ(j.end, end);
  EXPECT_EQ(j.restarts, restarts);
  EXPECT_EQ(j.run_before_final, run_before_final);
}

// Fig. 2: A(0, 80 procs, 300 s), B(100, 100, 40), C(110, 20, > 90). A continues after its
// trial (nothing else is there at 90: FCFS commits it). C's trial ends at 200, but B
// cannot start before 300, so C keeps its processors until B's trial needs them.
TEST(TimedRunFig2, JobPastItsTrialRunsUntilItsProcessorsAreNeeded) {
  // C needs 250 s: killed at 300 for B's trial, restarted (committed) when B ends at 340.
  sim::Workload w = workload(100, {{0, 80, 300, 1000}, {100, 100, 40, 1000},
                                   {110, 20, 250, 1000}});
  measure::SimOutcome o = run_timed(w, "fcfs");
  expect_run(o.jobs[0], 0, 300, 0, 0);
  expect_run(o.jobs[1], 300, 340, 0, 0);
  expect_run(o.jobs[2], 340, 590, 1, 190);
  ASSERT_EQ(o.killed_runs.size(), 1u);
  EXPECT_EQ(o.killed_runs[0].job, 2u);
  EXPECT_EQ(o.killed_runs[0].start, 110);
  EXPECT_EQ(o.killed_runs[0].end, 300);
  EXPECT_DOUBLE_EQ(o.lost_proc_seconds, 20.0 * 190);
}

TEST(TimedRunFig2, JobBetween90And190SecondsCompletesInItsExtension) {
  sim::Workload w = workload(100, {{0, 80, 300, 1000}, {100, 100, 40, 1000},
                                   {110, 20, 150, 1000}});
  measure::SimOutcome o = run_timed(w, "fcfs");
  expect_run(o.jobs[0], 0, 300, 0, 0);
  expect_run(o.jobs[1], 300, 340, 0, 0);
  expect_run(o.jobs[2], 110, 260, 0, 0);
  EXPECT_TRUE(o.killed_runs.empty());
}

// Fig. 3 (b), the schedule the paper chose: A(0, 70, 90), B(5, 70, 60), C(10, 50, 200),
// D(20, 20, 140), E(25, 30, 40). D's trial (20-110) is cut at 110 by E's trial; at 150 D
// waits for C, which only now starts its trial, to be committed at 240.
TEST(TimedRunFig3, CommitsFollowTheBaseOrderSoDWaitsForC) {
  sim::Workload w = workload(100, {{0, 70, 90, 1000}, {5, 70, 60, 1000}, {10, 50, 200, 1000},
                                   {20, 20, 140, 1000}, {25, 30, 40, 1000}});
  measure::SimOutcome o = run_timed(w, "fcfs");
  expect_run(o.jobs[0], 0, 90, 0, 0);     // A: short, finishes in its trial
  expect_run(o.jobs[1], 90, 150, 0, 0);   // B: trial as soon as A's processors free
  expect_run(o.jobs[2], 150, 350, 0, 0);  // C: trial at 150, continues when committed
  expect_run(o.jobs[3], 240, 380, 1, 90); // D: trial 20-110 killed, committed after C
  expect_run(o.jobs[4], 110, 150, 0, 0);  // E: trial on D's processors
  ASSERT_EQ(o.killed_runs.size(), 1u);
  EXPECT_EQ(o.killed_runs[0].job, 3u);
  EXPECT_EQ(o.killed_runs[0].end, 110);
  // The wait the paper counts: completion - arrival - runtime.
  EXPECT_EQ(o.jobs[3].end - 20 - 140, 220);
}

// With EASY as base, C on its trial gets the reservation (at its trial end, 240) and D
// backfills on the processors C will not need: the schedule of Fig. 3 (a).
TEST(TimedRunFig3, EasyBaseBackfillsDAroundCsTrial) {
  sim::Workload w = workload(100, {{0, 70, 90, 1000}, {5, 70, 60, 1000}, {10, 50, 200, 1000},
                                   {20, 20, 140, 1000}, {25, 30, 40, 1000}});
  measure::SimOutcome o = run_timed(w, "easy");
  expect_run(o.jobs[2], 150, 350, 0, 0);
  expect_run(o.jobs[3], 150, 290, 1, 90);
  EXPECT_TRUE(o.jobs[3].backfilled);
  expect_run(o.jobs[4], 110, 150, 0, 0);
}

TEST(TimedRun, ZeroTrialLengthIsTheBaseScheduler) {
  sim::Workload w = workload(100, {{0, 70, 90, 1000}, {5, 70, 60, 1000}, {10, 50, 200, 1000},
                                   {20, 20, 140, 1000}, {25, 30, 40, 1000}});
  for (const char* base : {"fcfs", "easy"}) {
    measure::SimOutcome timed = run_timed(w, base, 0);
    auto plain = make_policy(base);
    measure::SimOutcome ref = sim::simulate(w, *plain);
    for (std::size_t i = 0; i < w.jobs.size(); ++i) {
      EXPECT_EQ(timed.jobs[i].start, ref.jobs[i].start) << base << " job " << i + 1;
      EXPECT_EQ(timed.jobs[i].restarts, 0);
    }
  }
}

// On nodes (two of 4 CPUs, 90-second trials, FCFS base, estimates exact), lazy
// termination kills the terminable job on the node a start needs, not simply the one
// whose trial ended first. X (1 CPU, 300 s) runs on node0 and is committed at 90. H
// (8 CPUs, 100 s) cannot have a trial and blocks the FCFS queue. Ta and Tb (2 CPUs on
// one node, 1000 s) get trials at 2 on node0 and at 3 on node1 (node0 has 1 CPU left);
// their trials end at 92 and 93 and they keep running, uncommitted, behind H. N (4 CPUs
// on one node, 50 s) arrives at 150: node0 has room for 3 (Ta's CPUs count as free),
// node1 for 4, so its trial takes node1 and Tb, on node1, is killed (ran 147 s). On a pool
// of 8 the rule would have killed Ta (ended first), which frees nothing on node1. At 300
// X ends and H's trial takes both nodes: Ta is killed (ran 298 s); H ends at 400, when
// Ta and Tb restart (committed at once) and run to 1400.
TEST(TimedRunNodes, LazyTerminationKillsOnTheNodeTheStartNeeds) {
  sim::Workload w = workload(8, {{0, 1, 300, 300}, {1, 8, 100, 100}, {2, 2, 1000, 1000},
                                 {3, 2, 1000, 1000}, {150, 4, 50, 50}});
  auto m = std::make_shared<Machine>();
  for (const char* name : {"n0", "n1"}) {
    Node n;
    n.name = name;
    n.capacity[kCpu] = 4;
    m->add_node(n);
  }
  w.machine = m;
  for (sim::SimJob& j : w.jobs) {
    JobRequest r = JobRequest::cpus(j.job.procs);
    if (j.job.id >= 3) r.max_nodes = 1;  // Ta, Tb, N: one node each
    j.job.request = std::make_shared<const JobRequest>(r);
  }
  measure::SimOutcome o = run_timed(w, "fcfs");
  expect_run(o.jobs[0], 0, 300, 0, 0);       // X
  expect_run(o.jobs[1], 300, 400, 0, 0);     // H
  expect_run(o.jobs[2], 400, 1400, 1, 298);  // Ta
  expect_run(o.jobs[3], 400, 1400, 1, 147);  // Tb
  expect_run(o.jobs[4], 150, 200, 0, 0);     // N
  ASSERT_EQ(o.killed_runs.size(), 2u);
  EXPECT_EQ(o.killed_runs[0].job, 3u);  // Tb first, at 150
  EXPECT_EQ(o.killed_runs[0].end, 150);
  EXPECT_EQ(o.killed_runs[1].job, 2u);
  EXPECT_EQ(o.killed_runs[1].end, 300);
}

// Lazy termination does not kill again for a start a victim still completing makes room
// for (the plugin: Slurm cleans up after the killed job; Job::releasing). Pool of 10,
// 90-s trials, FCFS base. H (8, may not be requeued: no trial) heads the queue and blocks
// every commit. Pass at 0: A, B, C, E, F (2 each) get trials. Pass at 100 (all past their
// trials): D (4) arrives and its trial needs 4: A and B, first trials ended (ties by id),
// are killed. Pass at 101: A and B still completing, D not started yet. Counting them as
// holding their 4 would kill C and E too (D's trial on their shares); as releasing, their
// 4 are D's and nothing more is killed.
TEST(TimedRun, NoFurtherKillWhileAVictimIsStillCompleting) {
  for (bool releasing : {false, true}) {
    TimedRunPolicy policy("timed-run", PolicyTraits{}, BaseScheduler::fcfs, 90);
    ClusterState s;
    s.procs = 10;
    s.now = 0;
    Job h = test::waiting(9, 8, 100);
    h.requeueable = false;
    h.priority = 100;  // above the others (0)
    s.waiting = {h};
    for (JobId id : {1, 2, 3, 4, 5}) s.waiting.push_back(test::waiting(id, 2, 1000));
    ASSERT_EQ(policy.plan(s).start, (std::vector<JobId>{1, 2, 3, 4, 5}));
    for (JobId id : {1, 2, 3, 4, 5}) s.running.push_back(test::running(id, 2, 0, 1000));
    s.waiting = {h, test::waiting(6, 4, 50)};
    s.now = 100;
    ASSERT_EQ(policy.plan(s).kill_requeue, (std::vector<JobId>{1, 2}));
    s.now = 101;
    for (std::size_t k : {0, 1}) {
      s.running[k].job.requeueable = false;  // completing: Slurm would not requeue it
      s.running[k].job.releasing = releasing;
    }
    const Decision d = policy.plan(s);
    if (releasing) {
      EXPECT_TRUE(d.kill_requeue.empty());
      EXPECT_EQ(d.start, (std::vector<JobId>{6}));
    } else {
      EXPECT_EQ(d.kill_requeue, (std::vector<JobId>{3, 4})) << "the control: C and E are killed";
    }
  }
}

// One trial per job: a killed job that another scheduler restarts (Slurm's main one, on
// a job's end) runs committed and is never killed again. Pool of 4, 90-s trials, FCFS.
// At 0 X (4) gets a trial. At 100 D (4) arrives: X, past its trial, is killed for D's
// trial. At 150 X waits again (1 restart) behind D. At 300 X runs, started at 250 by
// Slurm's main scheduler, and E (4) arrives: X is committed, E waits; nothing is killed
// (before, X counted as on a trial from 250 and was killed again at 340).
TEST(TimedRun, AJobRestartedByAnotherSchedulerIsNeverKilledAgain) {
  TimedRunPolicy policy("timed-run", PolicyTraits{}, BaseScheduler::fcfs, 90);
  ClusterState s;
  s.procs = 4;
  s.now = 0;
  s.waiting = {test::waiting(1, 4, 1000)};
  ASSERT_EQ(policy.plan(s).start, (std::vector<JobId>{1}));
  s.running = {test::running(1, 4, 0, 1000)};
  s.waiting = {test::waiting(2, 4, 100)};
  s.now = 100;
  ASSERT_EQ(policy.plan(s).kill_requeue, (std::vector<JobId>{1}));
  Job x = test::waiting(1, 4, 1000);
  x.restarts = 1;
  s.running = {test::running(2, 4, 100, 100)};
  s.waiting = {x};
  s.now = 150;
  EXPECT_TRUE(policy.plan(s).start.empty());
  RunningJob restarted = test::running(1, 4, 250, 1000);
  restarted.job.restarts = 1;
  s.running = {restarted};
  s.waiting = {test::waiting(3, 4, 100)};
  for (Time now : {Time{300}, Time{341}, Time{400}}) {
    s.now = now;
    const Decision d = policy.plan(s);
    EXPECT_TRUE(d.kill_requeue.empty()) << "at " << now;
    EXPECT_TRUE(d.start.empty()) << "at " << now;
  }
}

TEST(TimedRun, BadOptionsAreNamed) {
  EXPECT_THROW(
      {
        try {
          make_policy("timed-run:base=sjf");
        } catch (const std::invalid_argument& e) {
          EXPECT_NE(std::string(e.what()).find("base=sjf"), std::string::npos);
          throw;
        }
      },
      std::invalid_argument);
  EXPECT_THROW(make_policy("timed-run:base=fcfs,trial=-1"), std::invalid_argument);
}

}  // namespace
}  // namespace easypp
