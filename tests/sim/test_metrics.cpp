// Metrics of paper 000 on a 3-job trace worked out by hand (tests/sim/data/metrics_3jobs.swf).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "measure/metrics.h"
#include "sim/repeat_summary.h"
#include "sim/report.h"
#include "sim_test_support.h"

namespace easypp::sim {
namespace {

using testing::job;
using testing::load;
using testing::run;

class ThreeJobs : public ::testing::Test {
 protected:
  Workload w = load("metrics_3jobs.swf");
  measure::SimOutcome o = run(w, "easy");
};

TEST_F(ThreeJobs, ScheduleIsAsWorkedOut) {
  EXPECT_EQ(job(w, o, 1).start, 0);
  EXPECT_EQ(job(w, o, 2).start, 100);
  EXPECT_EQ(job(w, o, 2).first_reservation, 100);
  EXPECT_EQ(job(w, o, 3).start, 200);
  EXPECT_EQ(o.last_arrival, 200);
  EXPECT_EQ(o.last_end, 250);
}

TEST_F(ThreeJobs, DefaultWarmupOfOnePercentDropsNoneOfThree) {
  // floor(3 * 1%) = 0 jobs of warm-up; C ends at 250, after the last arrival (200): out.
  measure::Metrics m = measure::compute_metrics(o);
  EXPECT_EQ(m.jobs, 3);
  EXPECT_EQ(m.counted, 2);
  // Waits: A 0, B 90 s -> 45 s = 0.75 min.
  EXPECT_DOUBLE_EQ(m.avg_wait_min, 0.75);
  // bsld: A max(1, 100/100) = 1; B max(1, (90+5)/max(10,5)) = 9.5.
  EXPECT_DOUBLE_EQ(m.avg_bsld, (1.0 + 9.5) / 2);
  // Unbounded slowdown: A 1, B 95/5 = 19.
  EXPECT_DOUBLE_EQ(m.avg_slowdown, 10.0);
  // EASY predicts the estimate: A 100/100 = 1, B 5/50 = 0.1 (all its life).
  EXPECT_DOUBLE_EQ(m.accuracy_pct, 55.0);
  EXPECT_DOUBLE_EQ(m.corrections_mean, 0.0);
  // Busy 2*100 + 1*5 + 1*50 = 255 processor-seconds over 2 procs x 250 s.
  EXPECT_DOUBLE_EQ(m.utilization_pct, 51.0);
  // Max wait counts every job: B's 90 s.
  EXPECT_DOUBLE_EQ(m.max_wait_min, 1.5);
  // Predictability: B waited with a reservation (1 of 2 counted), started on it.
  EXPECT_DOUBLE_EQ(m.reservation_rate_pct, 50.0);
  EXPECT_EQ(m.reservation_diff_min.count, 1);
  EXPECT_DOUBLE_EQ(m.reservation_diff_min.mean, 0.0);
  EXPECT_DOUBLE_EQ(m.delay_rate_pct, 0.0);
  EXPECT_DOUBLE_EQ(m.stalled_rate_pct, 0.0);
}

TEST_F(ThreeJobs, WarmupDropsTheFirstTerminatedJob) {
  // With a third as warm-up, floor(3 * 0.34) = 1: A (first to end) is left out too.
  measure::Metrics m = measure::compute_metrics(o, measure::MetricsOptions{0.34});
  EXPECT_EQ(m.counted, 1);
  EXPECT_DOUBLE_EQ(m.avg_wait_min, 1.5);
  EXPECT_DOUBLE_EQ(m.avg_bsld, 9.5);
  EXPECT_DOUBLE_EQ(m.accuracy_pct, 10.0);
}

TEST(Metrics, DelayAndHeelAndToeFromHandMadeOutcomes) {
  measure::SimOutcome o;
  o.procs = 4;
  o.first_submit = 0;
  o.last_arrival = 1000;
  o.last_end = 1000;
  auto add = [&](Time submit, Time start, Time runtime, Time reservation, Time perfect,
                 int pushbacks) {
    measure::JobOutcome j;
    j.submit = submit;
    j.start = start;
    j.end = start + runtime;
    j.runtime = runtime;
    j.procs = 1;
    j.end_rank = static_cast<std::int64_t>(o.jobs.size());
    j.first_reservation = reservation;
    j.first_perfect_start = perfect;
    j.pushbacks = pushbacks;
    o.jobs.push_back(j);
  };
  add(0, 0, 60, measure::kUnset, measure::kUnset, 0);      // no reservation
  add(0, 600, 60, 480, 300, 2);           // 2 min late, stalled 5 min by 2 thieves
  add(0, 120, 60, 300, measure::kUnset, 0);        // 3 min early
  add(0, 240, 60, 60, 60, 1);             // 3 min late, stalled 3 min by 1 thief
  measure::Metrics m = measure::compute_metrics(o, measure::MetricsOptions{0.0});
  EXPECT_EQ(m.counted, 4);
  EXPECT_DOUBLE_EQ(m.reservation_rate_pct, 75.0);
  EXPECT_DOUBLE_EQ(m.reservation_diff_min.mean, (2.0 + 3.0 + 3.0) / 3);
  EXPECT_DOUBLE_EQ(m.reservation_diff_min.median, 3.0);
  EXPECT_DOUBLE_EQ(m.delay_rate_pct, 50.0);
  EXPECT_DOUBLE_EQ(m.delay_min.mean, 2.5);
  EXPECT_DOUBLE_EQ(m.delay_min.median, 2.5);
  EXPECT_DOUBLE_EQ(m.delay_min.stddev, 0.5);
  // Heel and toe: 2 of the 3 jobs with a reservation were pushed back.
  EXPECT_NEAR(m.stalled_rate_pct, 200.0 / 3, 1e-9);
  EXPECT_DOUBLE_EQ(m.stall_time_min, (5.0 + 3.0) / 2);
  EXPECT_DOUBLE_EQ(m.thieves_avg, 1.5);
  EXPECT_DOUBLE_EQ(m.max_wait_min, 10.0);
}

// Unbounded slowdown (T_w + T_r) / max(1 s, T_r): a zero runtime counts as 1 s, so a job
// that did not wait is 1 and one that waited 33 s is 34 (it was 0 and 33).
TEST(Metrics, SlowdownOfAZeroRuntimeCountsItAsOneSecond) {
  measure::SimOutcome o;
  o.procs = 4;
  o.last_arrival = 1000;
  o.last_end = 1000;
  for (Time wait : {0, 33}) {
    measure::JobOutcome j;
    j.submit = 0;
    j.start = wait;
    j.end = wait;
    j.runtime = 0;
    j.procs = 1;
    j.end_rank = static_cast<std::int64_t>(o.jobs.size());
    o.jobs.push_back(j);
  }
  measure::Metrics m = measure::compute_metrics(o, measure::MetricsOptions{0.0});
  ASSERT_EQ(m.counted, 2);
  EXPECT_DOUBLE_EQ(m.avg_slowdown, (1.0 + 34.0) / 2);
}

// An average over no counted job is undefined: NaN, printed null in JSON, empty in CSV
// and "-" in the tables, as the per-class averages already were (avg_bsld once printed
// 0.0000 although bounded slowdown is never below 1).
TEST(Metrics, AveragesOverNoCountedJobAreUndefined) {
  measure::SimOutcome o;
  o.procs = 4;
  measure::JobOutcome j;  // the only job ends after the last arrival (t=0): not counted
  j.submit = 0;
  j.start = 0;
  j.end = 10;
  j.runtime = 10;
  j.procs = 1;
  j.end_rank = 0;
  o.jobs.push_back(j);
  o.last_end = 10;
  o.busy_proc_seconds = 10;
  const measure::Metrics m = measure::compute_metrics(o);
  ASSERT_EQ(m.counted, 0);
  for (double average : {m.avg_wait_min, m.avg_bsld, m.avg_slowdown, m.accuracy_pct,
                         m.corrections_mean, m.corrections_sd, m.reservation_rate_pct,
                         m.delay_rate_pct}) {
    EXPECT_TRUE(std::isnan(average)) << average;
  }
  EXPECT_DOUBLE_EQ(m.utilization_pct, 100.0 * 10 / (10 * 4)) << "not an average over jobs";

  Workload w;
  w.trace = "one.swf";
  w.procs = 4;
  const CliOptions options;
  RunReport r;
  r.policy = "easy";
  r.metrics = m;
  const RunContext context{&w, &options, 0, false};
  const std::string json = json_line(r, context);
  EXPECT_NE(json.find("\"avg_bsld\": null,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"avg_wait_min\": null,"), std::string::npos) << json;
  EXPECT_EQ(json.find("nan"), std::string::npos) << json;
  EXPECT_NE(csv_row(r, context).find("easy,one.swf,1,0,4,,,,"), std::string::npos)
      << csv_row(r, context);
  const std::string t = table({r}, context);
  EXPECT_EQ(t.find("nan"), std::string::npos) << t;
  EXPECT_NE(t.find("easy                  0          -"), std::string::npos) << t;

  // --repeat: the spread is over the runs that counted jobs; null when none did.
  const double none = std::numeric_limits<double>::quiet_NaN();
  EXPECT_DOUBLE_EQ(spread_of({none, 2, 4}).mean, 3);
  EXPECT_DOUBLE_EQ(spread_of({none, 2, 4}).min, 2);
  const std::string summary = summary_json(summarize({r, r}, 1));
  EXPECT_NE(summary.find("\"avg_bsld_mean\":null,"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("nan"), std::string::npos) << summary;
}

TEST(Metrics, DistributionMedianOfEvenAndOddCounts) {
  std::vector<double> odd = {5, 1, 3};
  EXPECT_DOUBLE_EQ(measure::distribution_of(odd).median, 3.0);
  std::vector<double> even = {4, 1, 3, 2};
  measure::Distribution d = measure::distribution_of(even);
  EXPECT_DOUBLE_EQ(d.median, 2.5);
  EXPECT_DOUBLE_EQ(d.mean, 2.5);
  EXPECT_NEAR(d.stddev, 1.118033988749895, 1e-12);
  std::vector<double> none;
  EXPECT_EQ(measure::distribution_of(none).count, 0);
}

}  // namespace
}  // namespace easypp::sim
