// The strict-fairness and reservation-violation checkers and the paper 002/004 measures,
// on a hand-made case where EASY's backfilled jobs outlive their estimates (replay mode).
#include <gtest/gtest.h>

#include "core/policy.h"
#include "measure/preempt_metrics.h"
#include "sim/simulator.h"
#include "support.h"

namespace easypp {
namespace {

using preempt_test::workload;

// 4 processors. J1 (2 procs) runs 0-100. J2 (3 procs) is blocked: reservation 100. J3 and
// J4 (1 proc, estimate 50) are backfilled at 2 and 3 but really run 500 s. Under EASY J2
// waits until 502 although from 100 on only lower-priority jobs hold the processors it
// needs: delayed 402 s, a reservation violation of 402 s (SI 402 / 100). PV-EASY kills J4
// at 100 and starts J2 on time.
sim::Workload late_backfills() {
  return workload(4, {{0, 2, 100, 100}, {1, 3, 100, 100}, {2, 1, 500, 50, 1},
                      {3, 1, 500, 50}});
}

TEST(Checkers, EasyDelaysAndViolatesWhenBackfillsOutliveEstimates) {
  sim::Workload w = late_backfills();
  auto easy = make_policy("easy");
  measure::SimOutcome o = sim::simulate(w, *easy);
  ASSERT_EQ(o.jobs[1].start, 502);
  measure::PreemptMetrics m = measure::compute_preempt_metrics(o, 90);
  EXPECT_EQ(m.fairness.delayed, 1);
  EXPECT_EQ(m.fairness.blocked, 1);
  EXPECT_DOUBLE_EQ(m.fairness.delay_mean_min, 402.0 / 60);
  EXPECT_EQ(m.reservation.violations, 1);
  EXPECT_DOUBLE_EQ(m.reservation.dtr_mean_min, 402.0 / 60);
  EXPECT_DOUBLE_EQ(m.reservation.si_max, 4.02);
  EXPECT_DOUBLE_EQ(m.reservation.mean_parallelism, 3);
  EXPECT_EQ(m.preempted_jobs, 0);
  EXPECT_DOUBLE_EQ(m.wasted_load_pct, 0);
  // Waits 0, 501, 0, 0; J3 failed (status 0) but is not short (500 s > 90 s).
  EXPECT_EQ(m.wait_failed.count, 1);
  EXPECT_EQ(m.wait_short.count, 0);
  EXPECT_DOUBLE_EQ(m.wait_all.max_s, 501);
  // Bounded slowdowns 1, (501 + 100) / 100, 1, 1.
  EXPECT_DOUBLE_EQ(m.mbs, (3 + 6.01) / 4);
  EXPECT_DOUBLE_EQ(m.mbs_blocked_big, 6.01);  // 3 procs > 4 / 4
}

TEST(Checkers, PvEasyHasNoDelayNorViolationAndCountsItsKills) {
  sim::Workload w = late_backfills();
  PolicyOptions o;
  o.predictor = "estimate";
  auto pv = make_policy("pv-easy", o);
  measure::SimOutcome out = sim::simulate(w, *pv);
  ASSERT_EQ(out.jobs[1].start, 100);
  measure::PreemptMetrics m = measure::compute_preempt_metrics(out, 90);
  EXPECT_EQ(m.fairness.delayed, 0);
  EXPECT_EQ(m.reservation.violations, 0);
  EXPECT_EQ(m.preempted_jobs, 1);  // J4, killed at 100 after 97 s
  EXPECT_DOUBLE_EQ(m.mkt, 1);
  EXPECT_DOUBLE_EQ(m.rtw_pct, 100.0 * 97 / 500);
  // J4 restarts when J2 ends (200) and runs to 700; J3 ends at 502.
  EXPECT_EQ(out.jobs[3].start, 200);
  const double capacity = 4.0 * 700;
  EXPECT_DOUBLE_EQ(m.wasted_load_pct, 100.0 * 97 / capacity);
  EXPECT_DOUBLE_EQ(m.total_load_pct, 100.0 * (200 + 300 + 500 + 500 + 97) / capacity);
}

}  // namespace
}  // namespace easypp
