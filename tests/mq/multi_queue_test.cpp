// Multiple-queue backfilling (paper 001) on hand-made snapshots: borrowing that leaves an
// earlier pivot where it is, the whole-machine job, variable delay, and the one-queue
// configuration against EASY.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/multi_queue.h"
#include "core/policy.h"
#include "../core/snapshot.h"

namespace easypp {
namespace {

using test::backfills;
using test::running;
using test::starts;
using test::waiting;

Job submitted(JobId id, int procs, Time estimate, Time submit) {
  Job j = waiting(id, procs, estimate);
  j.submit = submit;
  return j;
}

// Variable delay in batches of one job: each completion moves D.
MultiQueuePolicy delay_per_job() {
  MultiQueueConfig c;
  c.delay = VariableDelayConfig{.batch = 1};
  return MultiQueuePolicy(c);
}

MultiQueuePolicy four_queues(bool delay = false) {
  MultiQueueConfig c;
  if (delay) c.delay = VariableDelayConfig{};
  return MultiQueuePolicy(c);
}

TEST(MultiQueue, QueuesByEstimateWithPaperLimits) {
  MultiQueuePolicy p = four_queues();
  EXPECT_EQ(p.queues(), 4);
  EXPECT_EQ(p.queue_of(waiting(1, 1, 1)), 0);
  EXPECT_EQ(p.queue_of(waiting(1, 1, 100)), 0);
  EXPECT_EQ(p.queue_of(waiting(1, 1, 101)), 1);
  EXPECT_EQ(p.queue_of(waiting(1, 1, 1000)), 1);
  EXPECT_EQ(p.queue_of(waiting(1, 1, 10000)), 2);
  EXPECT_EQ(p.queue_of(waiting(1, 1, 10001)), 3);
  MultiQueueConfig c;
  c.limits = {60, 3600};
  MultiQueuePolicy custom(c);
  EXPECT_EQ(custom.queues(), 3);
  EXPECT_EQ(custom.queue_of(waiting(1, 1, 61)), 1);
  EXPECT_EQ(custom.queue_of(waiting(1, 1, 3601)), 2);
  c.limits = {100, 100};
  EXPECT_THROW(MultiQueuePolicy{c}, std::invalid_argument);
}

TEST(MultiQueue, OtherLimitsByName) {
  auto p = make_policy("mq:60:3600");
  auto* mq = dynamic_cast<MultiQueuePolicy*>(p.get());
  ASSERT_NE(mq, nullptr);
  EXPECT_EQ(mq->name(), "mq:60:3600");
  EXPECT_EQ(mq->queues(), 3);
  EXPECT_EQ(mq->queue_of(waiting(1, 1, 61)), 1);
  EXPECT_EQ(mq->current_delay(), 0);
  // The key spelling; the colon list above is its documented alias.
  auto keyed = make_policy("mq:limits=60/3600");
  auto* k = dynamic_cast<MultiQueuePolicy*>(keyed.get());
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->name(), "mq:limits=60/3600");
  EXPECT_EQ(k->queues(), 3);
  EXPECT_EQ(k->queue_of(waiting(1, 1, 61)), 1);
  EXPECT_THROW(make_policy("mq:60:limits=60/3600"), std::invalid_argument);  // twice
  EXPECT_THROW(make_policy("mq:limits=60/x"), std::invalid_argument);
  EXPECT_THROW(make_policy("mq-1q:60"), std::invalid_argument);  // one queue: no limits
  auto vd = make_policy("mq-vd0:100");
  EXPECT_EQ(dynamic_cast<MultiQueuePolicy*>(vd.get())->current_delay(), 2500);
  EXPECT_THROW(make_policy("mq:60:abc"), std::invalid_argument);
  EXPECT_THROW(make_policy("mq:3600:60"), std::invalid_argument);
  EXPECT_THROW(make_policy("mq:"), std::invalid_argument);
  EXPECT_THROW(make_policy("mq:limits="), std::invalid_argument);  // not the default
  EXPECT_THROW(make_policy("mqx:60"), std::invalid_argument);
  PolicyOptions o;
  o.predictor = "history";
  EXPECT_THROW(make_policy("mq:60", o), std::invalid_argument);
  EXPECT_THROW(make_policy("mq", o), std::invalid_argument);
}

// delay=D_1 (paper: 2500 s) for the variable-delay variants, with the paper's limits or
// others; mq has no delay, so the key is an error naming it.
TEST(MultiQueue, InitialDelayByName) {
  auto vd = make_policy("mq-vd:delay=20");
  auto* mq = dynamic_cast<MultiQueuePolicy*>(vd.get());
  ASSERT_NE(mq, nullptr);
  EXPECT_EQ(mq->current_delay(), 20);
  EXPECT_EQ(mq->queues(), 4) << "paper limits 100, 1000, 10000 s";
  EXPECT_EQ(mq->queue_of(waiting(1, 1, 10001)), 3);
  auto custom = make_policy("mq-vd0:60:600:delay=30");
  mq = dynamic_cast<MultiQueuePolicy*>(custom.get());
  ASSERT_NE(mq, nullptr);
  EXPECT_EQ(mq->current_delay(), 30);
  EXPECT_EQ(mq->queues(), 3);
  EXPECT_THROW(make_policy("mq:delay=20"), std::invalid_argument);
  EXPECT_THROW(make_policy("mq-vd:delay=-1"), std::invalid_argument);
  EXPECT_THROW(make_policy("mq-vd:delay=20:delay=30"), std::invalid_argument);
  EXPECT_THROW(make_policy("mq-vd:dealy=20"), std::invalid_argument);
}

TEST(MultiQueue, FirstSplitIsEven) {
  MultiQueuePolicy p = four_queues();
  ClusterState s;
  s.procs = 10;
  s.waiting = {submitted(1, 20, 50, 0)};  // too wide: never planned
  p.plan(s);
  EXPECT_EQ(p.partition_sizes(), (std::vector<int>{3, 3, 2, 2}));
}

// 8 processors, 2 per queue. Running: A (queue 4) and B (queue 3, ends at 3000), so only
// partitions 1 and 2 have idle processors (2 each). C (queue 3, 6 processors) is the
// earliest pivot: reserved at 3000, its own 2 processors plus 4 borrowed then.
// G (queue 3, 4000 s, 2 processors) would fit the idle processors of partitions 1 and 2
// but run into C's reservation: refused. H (queue 3, 1500 s, 3 processors) ends before C
// starts: it borrows them (2 of partition 1, 1 of partition 2).
TEST(MultiQueue, BorrowsIdleProcessorsWithoutDelayingAnEarlierPivot) {
  MultiQueuePolicy p = four_queues();
  ClusterState s;
  s.procs = 8;
  s.now = 100;
  s.running = {running(1, 2, 0, 20000), running(2, 2, 0, 3000)};
  s.waiting = {submitted(3, 6, 5000, 10), submitted(4, 2, 4000, 20), submitted(5, 3, 1500, 30)};
  const Decision d = p.plan(s);
  EXPECT_EQ(d.start, (std::vector<JobId>{5}));
  EXPECT_TRUE(backfills(d, 5));
  ASSERT_FALSE(d.reservations.empty());
  EXPECT_EQ(d.reservations[0].job, 3u);
  EXPECT_EQ(d.reservations[0].start, 3000);
  EXPECT_EQ(p.partition_sizes(), (std::vector<int>{2, 2, 2, 2}));  // not committed yet

  // Same snapshot again: the move was not seen to happen, so the same decision.
  const Decision again = p.plan(s);
  EXPECT_EQ(again.start, d.start);

  // Next snapshot shows H running: its processors now belong to queue 3.
  ClusterState next = s;
  next.now = 101;
  next.running.push_back(RunningJob{s.waiting[2], 100});
  next.waiting.pop_back();
  const Decision later = p.plan(next);
  EXPECT_EQ(p.partition_sizes(), (std::vector<int>{0, 1, 5, 2}));
  EXPECT_FALSE(starts(later, 4)) << "G would still delay C";
  EXPECT_EQ(later.reservations.at(0).start, 3000);
}

// A later pivot of another queue does not get processors an earlier pivot needs; a short
// job that ends in time still starts on them.
TEST(MultiQueue, LaterPivotWaitsForEarlierPivot) {
  MultiQueuePolicy p = four_queues();
  ClusterState s;
  s.procs = 8;
  s.now = 100;
  s.running = {running(1, 4, 0, 1000)};           // queue 2, ends at 1000
  s.waiting = {submitted(2, 8, 3000, 10),         // queue 3 pivot: whole machine at 1000
               submitted(3, 2, 20000, 20),        // queue 4 pivot: after job 2
               submitted(4, 4, 90, 30)};          // queue 1 pivot: ends long before 1000
  const Decision d = p.plan(s);
  EXPECT_EQ(d.start, (std::vector<JobId>{4}));
  ASSERT_EQ(d.reservations.size(), 2u);
  EXPECT_EQ(d.reservations[0].job, 2u);
  EXPECT_EQ(d.reservations[0].start, 1000);
  EXPECT_EQ(d.reservations[1].job, 3u);
  EXPECT_EQ(d.reservations[1].start, 4000);
}

// A job that needs the whole machine: reserved on all partitions when it is the earliest
// pivot, later short jobs only fill in before it, and it starts with every processor,
// which then belong to its partition until other queues borrow them back.
TEST(MultiQueue, WholeMachineJobGetsEveryPartition) {
  MultiQueuePolicy p = four_queues();
  ClusterState s;
  s.procs = 8;
  s.now = 10;
  s.running = {running(1, 2, 0, 50), running(2, 2, 0, 3000)};  // queues 1 and 3
  s.waiting = {submitted(3, 8, 500, 1)};                       // queue 2, whole machine
  for (JobId id = 4; id < 20; ++id) s.waiting.push_back(submitted(id, 1, 90, 2));
  s.waiting.push_back(submitted(20, 1, 20000, 3));             // queue 4
  const Decision d = p.plan(s);
  ASSERT_FALSE(d.reservations.empty());
  EXPECT_EQ(d.reservations[0].job, 3u);
  EXPECT_EQ(d.reservations[0].start, 3000);
  EXPECT_FALSE(starts(d, 20)) << "a 20000 s job would delay the whole-machine job";
  EXPECT_EQ(d.start.size(), 4u) << "four short jobs fill the four idle processors";

  // At 3000 the machine is empty: the whole-machine job starts on all of it.
  ClusterState at = s;
  at.now = 3000;
  at.running.clear();
  std::erase_if(at.waiting, [&](const Job& j) { return starts(d, j.id); });
  const Decision go = p.plan(at);
  EXPECT_EQ(go.start, (std::vector<JobId>{3}));
  at.now = 3001;
  at.running = {RunningJob{at.waiting[0], 3000}};
  at.waiting.erase(at.waiting.begin());
  p.plan(at);
  EXPECT_EQ(p.partition_sizes(), (std::vector<int>{0, 8, 0, 0}));
  // After it ends, a short job takes processors back into partition 1.
  at.now = 3500;
  at.running.clear();
  const Decision after = p.plan(at);
  ASSERT_FALSE(after.start.empty());
  at.now = 3501;
  for (const Job& j : at.waiting) {
    if (starts(after, j.id)) at.running.push_back(RunningJob{j, 3500});
  }
  std::erase_if(at.waiting, [&](const Job& j) { return starts(after, j.id); });
  p.plan(at);
  EXPECT_GT(p.partition_sizes()[0], 0);
  int total = 0;
  for (int size : p.partition_sizes()) total += size;
  EXPECT_EQ(total, 8);
}

TEST(VariableDelay, ArithmeticOfTheUpdate) {
  EXPECT_DOUBLE_EQ(VariableDelay::proportional_difference(3, 2), 1.0 / 3);
  EXPECT_DOUBLE_EQ(VariableDelay::proportional_difference(2, 3), -1.0 / 3);
  EXPECT_DOUBLE_EQ(VariableDelay::next_delay(2500, 1.0 / 3, 2500, 0.25), 2500 + 2500.0 / 3);
  EXPECT_DOUBLE_EQ(VariableDelay::next_delay(2500, 0.25, 2500, 0.25), 2500) << "not > 0.25";
  EXPECT_DOUBLE_EQ(VariableDelay::next_delay(2500, -0.25, 2500, 0.25), 2500);
  EXPECT_DOUBLE_EQ(VariableDelay::next_delay(1000, -0.6, 2500, 0.25), 0) << "never negative";
}

TEST(VariableDelay, BatchesOfCompletedJobs) {
  VariableDelay v({.initial = 2500, .batch = 2, .threshold = 0.25});
  EXPECT_DOUBLE_EQ(v.delay(), 2500);
  v.job_completed(true, 2.0);
  EXPECT_DOUBLE_EQ(v.delay(), 2500) << "batch not full yet";
  v.job_completed(false, 50.0);  // only short jobs count
  // delta_1 = s_1 = 2: D_2 = 2500 + 2 * 2500.
  EXPECT_DOUBLE_EQ(v.delay(), 7500);
  v.job_completed(true, 1.5);
  v.job_completed(true, 1.5);  // delta = (1.5 - 2) / 2 = -0.25: unchanged
  EXPECT_DOUBLE_EQ(v.delay(), 7500);
  v.job_completed(false, 9);
  v.job_completed(false, 9);  // no short job: nothing measured
  EXPECT_DOUBLE_EQ(v.delay(), 7500);
  EXPECT_EQ(v.batches(), 2);
  v.job_completed(true, 1.0);
  v.job_completed(true, 1.0);  // delta = (1 - 1.5) / 1.5 = -1/3
  EXPECT_DOUBLE_EQ(v.delay(), 7500 - 2500.0 / 3);
  EXPECT_THROW(VariableDelay({.initial = -1}), std::invalid_argument);
  EXPECT_THROW(VariableDelay({.batch = 0}), std::invalid_argument);
}

// The variant mq-vd0: delta_1 = 0, so the first batch only sets the reference.
TEST(VariableDelay, FirstBatchOnlySetsTheReferenceWhenAsked) {
  VariableDelay v(
      {.initial = 2500, .batch = 1, .threshold = 0.25, .first_delta_is_slowdown = false});
  v.job_completed(true, 40.0);
  EXPECT_DOUBLE_EQ(v.delay(), 2500);
  v.job_completed(true, 10.0);  // delta = (10 - 40) / 40 = -0.75
  EXPECT_DOUBLE_EQ(v.delay(), 2500 - 0.75 * 2500);
  v.job_completed(true, 10.0);
  EXPECT_DOUBLE_EQ(v.delay(), 625);
  v.job_completed(true, 1.0);  // delta = -0.9: D would be 625 - 2250 < 0
  EXPECT_DOUBLE_EQ(v.delay(), 0);
}

// The policy learns completions from its snapshots: a short job that waited 100 s and ran
// 100 s (slowdown 2) closes a batch of one; on the paper's rule D becomes 2500 + 2 * 2500.
TEST(MultiQueue, VariableDelayLearnsFromCompletedJobs) {
  MultiQueuePolicy p = delay_per_job();
  ClusterState s;
  s.procs = 8;
  s.now = 150;
  s.running = {RunningJob{submitted(1, 1, 100, 0), 100}};
  s.waiting = {submitted(2, 8, 50, 120)};
  p.plan(s);
  EXPECT_DOUBLE_EQ(p.current_delay(), 2500);
  s.now = 200;  // job 1 ended at 200: waited 100 s, ran 100 s
  s.running.clear();
  p.plan(s);
  EXPECT_DOUBLE_EQ(p.current_delay(), 7500);
}

// The driver's real end, when it gives one (ClusterState::ended), is the completion's end,
// however late the pass: job 1 (waited 100 s) ended at 150 after 50 s, slowdown 3, so D
// becomes 2500 + 3 * 2500. Inferred from the pass at 200 it would be 100 s, slowdown 2.
TEST(MultiQueue, VariableDelayLearnsTheRealEndWhenTheDriverGivesIt) {
  MultiQueuePolicy p = delay_per_job();
  ClusterState s;
  s.procs = 8;
  s.now = 120;
  s.running = {RunningJob{submitted(1, 1, 100, 0), 100}};
  s.waiting = {submitted(2, 8, 50, 110)};
  p.plan(s);
  s.now = 200;
  s.running.clear();
  s.ended = {{1, 150}};
  p.plan(s);
  EXPECT_DOUBLE_EQ(p.current_delay(), 10000);
}

// A job the policy starts and that ends before the next pass is never in a snapshot's
// running set; its completion counts all the same (short jobs mostly end that way). One
// the driver did not start after all (still waiting) is not a completion.
TEST(MultiQueue, VariableDelayCountsJobsThatEndBetweenTwoPasses) {
  MultiQueuePolicy p = delay_per_job();
  ClusterState s;
  s.procs = 8;
  s.now = 100;
  s.waiting = {submitted(1, 1, 50, 0)};  // short (estimate 50 s), waited 100 s
  EXPECT_EQ(p.plan(s).start, (std::vector<JobId>{1}));
  s.now = 150;  // it ran its 50 s and ended: slowdown 1 + 100 / 50 = 3
  s.waiting.clear();
  p.plan(s);
  EXPECT_DOUBLE_EQ(p.current_delay(), 2500 + 3 * 2500);
  // Started by the plan, refused by the driver: still waiting at the next pass.
  MultiQueuePolicy q = delay_per_job();
  s.now = 100;
  s.waiting = {submitted(1, 1, 50, 0)};
  EXPECT_EQ(q.plan(s).start, (std::vector<JobId>{1}));
  s.now = 150;
  q.plan(s);
  EXPECT_DOUBLE_EQ(q.current_delay(), 2500);
}

// A new run of the same policy object (easypp-sim --repeat; its clock starts over) starts
// from D_1 and the even split, not from what the last run learnt.
TEST(MultiQueue, ANewRunForgetsTheLastOne) {
  MultiQueuePolicy p = delay_per_job();
  ClusterState s;
  s.procs = 8;
  s.now = 100;
  s.waiting = {submitted(1, 1, 50, 0)};
  p.plan(s);
  s.now = 150;
  s.waiting.clear();
  p.plan(s);
  ASSERT_DOUBLE_EQ(p.current_delay(), 10000);
  s.now = 0;  // the next run
  s.waiting = {submitted(1, 1, 50, 0)};
  p.plan(s);
  EXPECT_DOUBLE_EQ(p.current_delay(), 2500);
  EXPECT_EQ(p.partition_sizes(), (std::vector<int>{2, 2, 2, 2}));
}

// An extra-long job waits D_1 = 2500 s after its submit time even on an idle machine;
// shorter queues are not delayed.
TEST(MultiQueue, VariableDelayHoldsExtraLongJobs) {
  MultiQueuePolicy p = four_queues(true);
  ClusterState s;
  s.procs = 8;
  s.now = 100;
  s.waiting = {submitted(1, 2, 20000, 100), submitted(2, 2, 5000, 100)};
  Decision d = p.plan(s);
  EXPECT_EQ(d.start, (std::vector<JobId>{2}));
  s.waiting.erase(s.waiting.begin() + 1);
  s.running = {RunningJob{submitted(2, 2, 5000, 100), 100}};
  s.now = 2599;
  EXPECT_TRUE(p.plan(s).start.empty());
  s.now = 2600;
  EXPECT_EQ(p.plan(s).start, (std::vector<JobId>{1}));
  EXPECT_DOUBLE_EQ(p.current_delay(), 2500);
}

// With one queue the policy is Fig. 3's single-queue aggressive backfilling: the same
// starts as EASY on exact predictions.
TEST(MultiQueue, OneQueueStartsWhatEasyStarts) {
  std::mt19937_64 rng(1001);
  for (int n = 0; n < 300; ++n) {
    ClusterState s;
    s.procs = 16;
    s.now = 1000;
    int used = 0;
    std::uniform_int_distribution<int> procs(1, 8);
    std::uniform_int_distribution<Time> len(1, 5000);
    for (JobId id = 1; id <= 6; ++id) {
      const int p = procs(rng);
      if (used + p > s.procs) break;
      used += p;
      s.running.push_back(running(id, p, 1000 - len(rng) / 10, len(rng) + 100));
    }
    for (JobId id = 100; id < 112; ++id) {
      s.waiting.push_back(submitted(id, procs(rng), len(rng), 900));
    }
    const Decision easy = make_policy("easy")->plan(s);
    const Decision one = make_policy("mq-1q")->plan(s);
    std::vector<JobId> a = easy.start, b = one.start;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    ASSERT_EQ(a, b) << "snapshot " << n;
    ASSERT_EQ(one.reservations.size(), easy.reservations.empty() ? 0u : 1u);
    if (!easy.reservations.empty()) {
      EXPECT_EQ(one.reservations[0].job, easy.reservations[0].job);
      EXPECT_EQ(one.reservations[0].start, easy.reservations[0].start);
    }
  }
}

}  // namespace
}  // namespace easypp
