// Paper 001 measures on hand-made outcomes: per-class slowdown, bounded slowdown, the
// slowdown ratio R and transient batches; and the per-class keys of compute_metrics.
#include <gtest/gtest.h>

#include <cmath>

#include "measure/metrics.h"
#include "measure/mq_metrics.h"

namespace easypp::measure {
namespace {

JobOutcome done(Time submit, Time start, Time runtime) {
  JobOutcome j;
  j.submit = submit;
  j.start = start;
  j.runtime = runtime;
  j.end = start + runtime;
  j.procs = 1;
  return j;
}

TEST(MqMetrics, ClassesByRuntime) {
  const JobClasses c;
  EXPECT_EQ(c.of(0), 0);
  EXPECT_EQ(c.of(100), 0);
  EXPECT_EQ(c.of(101), 1);
  EXPECT_EQ(c.of(1000), 1);
  EXPECT_EQ(c.of(10000), 2);
  EXPECT_EQ(c.of(10001), 3);
}

TEST(MqMetrics, SlowdownAndBoundedSlowdownPerClass) {
  SimOutcome o;
  o.jobs = {done(0, 50, 50),       // short: s = 2, bsld = 2
            done(0, 0, 5),         // short: s = 1, bsld = max(1, 5/10) = 1
            done(0, 400, 200),     // medium: s = 3, bsld = 3
            done(0, 0, 0),         // short, zero runtime: s = 1 (runtime counts as 1 s)
            done(0, 20000, 20000)};  // extra-long: s = 2
  const ClassSlowdowns s = class_slowdowns(o);
  EXPECT_EQ(s.all.count, 5);
  EXPECT_DOUBLE_EQ(s.all.slowdown, (2 + 1 + 3 + 1 + 2) / 5.0);
  EXPECT_EQ(s.by_class[0].count, 3);
  EXPECT_DOUBLE_EQ(s.by_class[0].slowdown, 4 / 3.0);
  EXPECT_DOUBLE_EQ(s.by_class[0].bounded_slowdown, (2 + 1 + 1) / 3.0);
  EXPECT_DOUBLE_EQ(s.by_class[1].slowdown, 3);
  EXPECT_EQ(s.by_class[2].count, 0);
  EXPECT_DOUBLE_EQ(s.by_class[2].slowdown, 0);
  EXPECT_DOUBLE_EQ(s.by_class[3].slowdown, 2);
  EXPECT_THROW(class_slowdowns(o, 2, 9), std::invalid_argument);
  o.jobs[1].start = kUnset;
  EXPECT_THROW(class_slowdowns(o), std::invalid_argument);
}

TEST(MqMetrics, SlowdownRatioIsSymmetricInScale) {
  EXPECT_DOUBLE_EQ(slowdown_ratio(4, 2), 1.0);    // multiple queues twice as good: +1
  EXPECT_DOUBLE_EQ(slowdown_ratio(2, 4), -1.0);   // twice as bad: -1 (not -0.5)
  EXPECT_DOUBLE_EQ(slowdown_ratio(3, 3), 0.0);
  EXPECT_DOUBLE_EQ(slowdown_ratio(0, 0), 0.0);
}

TEST(MqMetrics, TransientBatchesInSubmitOrder) {
  SimOutcome single, multi;
  for (int i = 0; i < 5; ++i) {
    single.jobs.push_back(done(i * 10, i * 10 + 100, 100));  // s = 2 each
    multi.jobs.push_back(done(i * 10, i * 10, 100));         // s = 1 each
  }
  const auto batches = transient_ratios(single, multi, 2);
  ASSERT_EQ(batches.size(), 3u);
  EXPECT_EQ(batches[1].first_job, 2u);
  EXPECT_EQ(batches[1].first_submit, 20);
  EXPECT_EQ(batches[2].single.all.count, 1);  // the last, partial batch is kept
  for (const TransientBatch& b : batches) EXPECT_DOUBLE_EQ(b.ratio, 1.0);
  multi.jobs.pop_back();
  EXPECT_THROW(transient_ratios(single, multi, 2), std::invalid_argument);
}

TEST(MqMetrics, ComputeMetricsReportsSlowdownPerClass) {
  SimOutcome o;
  o.jobs = {done(0, 50, 50), done(0, 400, 200)};
  o.jobs[0].end_rank = 0;
  o.jobs[1].end_rank = 1;
  o.last_arrival = 100000;
  const Metrics m = compute_metrics(o, {.warmup_fraction = 0});
  EXPECT_DOUBLE_EQ(m.avg_slowdown_class[0], 2);
  EXPECT_DOUBLE_EQ(m.avg_slowdown_class[1], 3);
  EXPECT_TRUE(std::isnan(m.avg_slowdown_class[2]));
  EXPECT_DOUBLE_EQ(m.avg_slowdown, 2.5);
}

}  // namespace
}  // namespace easypp::measure
