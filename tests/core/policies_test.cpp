// Golden snapshots: each decision below is worked out by hand in the comments.
#include <gtest/gtest.h>

#include "core/policy.h"
#include "snapshot.h"

namespace easypp {
namespace {

using test::backfills;
using test::running;
using test::starts;
using test::waiting;

Decision plan(std::string_view policy, const ClusterState& s) {
  return make_policy(policy)->plan(s);
}

// Paper 000 Fig. 1, as numbers. 10 processors, now = 0.
//   running: job 1 (6 procs) ends at 2, job 2 (2 procs) ends at 5; 2 idle.
//   waiting: job 3 (8 procs, 4 long), job 4 (2 procs, `len4` long).
// Job 3 does not fit (2 idle) and is the head. Free over time: 2 on [0,2), 8 on [2,5),
// 10 from 5, so job 3's reservation (shadow time) is 2, with 8 - 8 = 0 extra processors.
// Job 4 fits the 2 idle processors; it may backfill only if it ends by 2.
ClusterState figure1(Time len4) {
  ClusterState s;
  s.now = 0;
  s.procs = 10;
  s.running = {running(1, 6, -3, 5), running(2, 2, -1, 6)};
  s.waiting = {waiting(3, 8, 4), waiting(4, 2, len4)};
  return s;
}

TEST(Golden, Figure1EasyBackfillsJob4EndingAtTheReservation) {
  const Decision d = plan("easy", figure1(2));
  EXPECT_EQ(d.start, std::vector<JobId>{4});
  EXPECT_EQ(d.backfilled, std::vector<JobId>{4});
  ASSERT_EQ(d.reservations.size(), 1u);
  EXPECT_EQ(d.reservations[0].job, 3u);
  EXPECT_EQ(d.reservations[0].start, 2);
  EXPECT_EQ(d.examined, 2);
}

TEST(Golden, Figure1OneMoreTimeUnitAndJob4Waits) {
  // Length 3 ends at 3 > 2 and there are no extra processors: it would delay job 3.
  const Decision d = plan("easy", figure1(3));
  EXPECT_TRUE(d.start.empty());
  ASSERT_EQ(d.reservations.size(), 1u);
  EXPECT_EQ(d.reservations[0].start, 2);
}

// Slurm's QOS flag NoReserve: Figure 1 with job 3 (8 procs) not reservable. Job 4
// (2 procs, 3 long) would delay job 3's reservation at 2, but there is none: it starts on
// the 2 idle processors (a backfill: it passed job 3 by). With a reservable job 5 (8
// procs, 4 long) behind job 3, job 5 is the head at 2 with 0 extra, and job 4 waits
// again.
TEST(Golden, NoReserveJobGetsNoReservation) {
  for (const char* policy : {"easy", "easy++", "conservative", "easy++:depth=2"}) {
    ClusterState s = figure1(3);
    s.waiting[0].reservable = false;
    Decision d = plan(policy, s);
    EXPECT_EQ(d.start, std::vector<JobId>{4}) << policy;
    EXPECT_EQ(d.backfilled, std::vector<JobId>{4}) << policy << ": it passed job 3 by";
    EXPECT_TRUE(d.reservations.empty()) << policy;
    s.waiting.insert(s.waiting.begin() + 1, waiting(5, 8, 4));
    d = plan(policy, s);
    EXPECT_TRUE(d.start.empty()) << policy;
    ASSERT_FALSE(d.reservations.empty()) << policy;
    EXPECT_EQ(d.reservations[0].job, 5u) << policy;
    EXPECT_EQ(d.reservations[0].start, 2) << policy;
  }
  // FCFS (no backfilling) blocks on job 3 whatever it says, as Slurm's FIFO scheduler.
  ClusterState s = figure1(3);
  s.waiting[0].reservable = false;
  const Decision d = plan("fcfs", s);
  EXPECT_TRUE(d.start.empty());
  ASSERT_EQ(d.reservations.size(), 1u);
  EXPECT_EQ(d.reservations[0].job, 3u);
  EXPECT_FALSE(make_policy("fcfs")->traits().honours_reservable);
  EXPECT_TRUE(make_policy("easy++")->traits().honours_reservable);
  EXPECT_TRUE(make_policy("conservative")->traits().honours_reservable);
  EXPECT_FALSE(make_policy("pv-easy")->traits().honours_reservable);
}

TEST(Golden, FcfsNeverBackfills) {
  const Decision d = plan("fcfs", figure1(2));
  EXPECT_TRUE(d.start.empty());
  ASSERT_EQ(d.reservations.size(), 1u);
  EXPECT_EQ(d.reservations[0].job, 3u);
  EXPECT_EQ(d.reservations[0].start, 2);
}

TEST(Golden, JobsThatFitStartInOrderBeforeAnyBackfill) {
  // 10 idle: jobs 1 (4) and 2 (4) start in order; 3 (4) is the head: 2 idle left.
  ClusterState s;
  s.procs = 10;
  s.waiting = {waiting(1, 4, 10), waiting(2, 4, 20), waiting(3, 4, 5), waiting(4, 2, 10)};
  const Decision d = plan("easy", s);
  // Head 3: free 2 on [0,10), 6 from 10: shadow 10, extra 6 - 4 = 2. Job 4 (2 procs,
  // ends at 10) ends by the shadow time anyway.
  EXPECT_EQ(d.start, (std::vector<JobId>{1, 2, 4}));
  EXPECT_EQ(d.backfilled, std::vector<JobId>{4});
  ASSERT_EQ(d.reservations.size(), 1u);
  EXPECT_EQ(d.reservations[0].job, 3u);
  EXPECT_EQ(d.reservations[0].start, 10);
}

// Extra processors. 10 processors; A (6) runs until 10; 4 idle.
// Head B needs 8: shadow 10, free 10 there, extra 2.
// C (2 procs, 100 long) ends after 10 but fits the 2 extra: backfilled; extra now 0.
// D (2 procs, 100 long): 2 are still idle, but it ends after 10 and no extra is left.
// E (1 proc, 5 long) ends by 10: backfilled on one of the 2 idle processors.
TEST(Golden, ExtraProcessorsRule) {
  ClusterState s;
  s.procs = 10;
  s.running = {running(1, 6, 0, 10)};
  s.waiting = {waiting(2, 8, 50), waiting(3, 2, 100), waiting(4, 2, 100), waiting(5, 1, 5)};
  const Decision d = plan("easy", s);
  EXPECT_EQ(d.start, (std::vector<JobId>{3, 5}));
  EXPECT_EQ(d.backfilled, (std::vector<JobId>{3, 5}));
  ASSERT_EQ(d.reservations.size(), 1u);
  EXPECT_EQ(d.reservations[0].job, 2u);
  EXPECT_EQ(d.reservations[0].start, 10);
  EXPECT_EQ(d.examined, 4);
}

// SJBF vs FCFS backfill order. 10 processors; A (8) until 10; 2 idle.
// Head H (10 procs): shadow 10, extra 0. X (2 procs, 8 long) and Y (2 procs, 3 long) both
// end by 10, but only one fits the 2 idle processors. EASY takes X (queue order), EASY_SJBF
// takes Y (shortest first); both keep H's reservation at 10.
ClusterState sjbf_snapshot() {
  ClusterState s;
  s.procs = 10;
  s.running = {running(1, 8, 0, 10)};
  s.waiting = {waiting(2, 10, 50), waiting(3, 2, 8), waiting(4, 2, 3)};
  return s;
}

TEST(Golden, FcfsBackfillOrderTakesTheFirstCandidate) {
  const Decision d = plan("easy", sjbf_snapshot());
  EXPECT_EQ(d.start, std::vector<JobId>{3});
  EXPECT_EQ(d.reservations.at(0).start, 10);
  EXPECT_EQ(d.examined, 2);  // H, X; then nothing is idle
}

TEST(Golden, SjbfTakesTheShortestCandidate) {
  for (const char* name : {"easy-sjbf", "easy++"}) {
    SCOPED_TRACE(name);
    const Decision d = plan(name, sjbf_snapshot());
    EXPECT_EQ(d.start, std::vector<JobId>{4});
    EXPECT_EQ(d.reservations.at(0).job, 2u);  // reservation order stays FCFS
    EXPECT_EQ(d.reservations.at(0).start, 10);
    EXPECT_EQ(d.examined, 3);  // H, then both candidates to pick the shortest
  }
}

// Conservative vs EASY. 10 processors; A (5) until 10; 5 idle.
//   H (7 procs, 10 long): head; shadow 10, extra 10 - 7 = 3.
//   J (8 procs, 10 long): does not fit now.
//   K (3 procs, 100 long): EASY backfills it on the 3 extra processors.
// Conservative also reserves J: plan free is 5 on [0,10), 3 on [10,20) (H), so J (8)
// goes at 20, leaving 2 on [20,30). K needs 3 for [0,100): blocked by [20,30), so it
// must not start; its earliest slot is 30.
ClusterState conservative_snapshot() {
  ClusterState s;
  s.procs = 10;
  s.running = {running(1, 5, 0, 10)};
  s.waiting = {waiting(2, 7, 10), waiting(3, 8, 10), waiting(4, 3, 100)};
  return s;
}

TEST(Golden, EasyBackfillsWhatWouldDelayTheSecondJob) {
  const Decision d = plan("easy", conservative_snapshot());
  EXPECT_EQ(d.start, std::vector<JobId>{4});
  EXPECT_EQ(d.backfilled, std::vector<JobId>{4});
  ASSERT_EQ(d.reservations.size(), 1u);
  EXPECT_EQ(d.reservations[0].start, 10);
}

TEST(Golden, ConservativeReservesEveryJob) {
  const Decision d = plan("conservative", conservative_snapshot());
  EXPECT_TRUE(d.start.empty());
  ASSERT_EQ(d.reservations.size(), 3u);
  EXPECT_EQ(d.reservations[0].job, 2u);
  EXPECT_EQ(d.reservations[0].start, 10);
  EXPECT_EQ(d.reservations[1].job, 3u);
  EXPECT_EQ(d.reservations[1].start, 20);
  EXPECT_EQ(d.reservations[2].job, 4u);
  EXPECT_EQ(d.reservations[2].start, 30);
  EXPECT_EQ(d.examined, 3);
}

TEST(Golden, ConservativeBackfillsWhatDelaysNoOne) {
  // Make K short (5): it ends before H's reservation, so it starts now and counts as
  // backfilled (H and J wait ahead of it).
  ClusterState s = conservative_snapshot();
  s.waiting[2].prediction = s.waiting[2].estimate = 5;
  const Decision d = plan("conservative", s);
  EXPECT_EQ(d.start, std::vector<JobId>{4});
  EXPECT_EQ(d.backfilled, std::vector<JobId>{4});
  EXPECT_EQ(d.reservations.size(), 2u);
}

// No-surprise variants (section 4). 10 processors, now 0. A (8 procs) started at -10 with
// prediction 20 (ends at 10) but estimate 110 (killed at 100); 2 idle.
// Head H (10 procs): shadow 10 on predictions, extra 0.
// C (2 procs): predicted 5 (ends at 5 <= 10), estimated 60 (ends at 60 > 10).
ClusterState surprise_snapshot() {
  ClusterState s;
  s.procs = 10;
  s.running = {running(1, 8, -10, 20, 110)};
  s.waiting = {waiting(2, 10, 30, 40), waiting(3, 2, 5, 60)};
  return s;
}

TEST(Golden, EasyPlusPlusBackfillsOnThePrediction) {
  const Decision d = plan("easy++", surprise_snapshot());
  EXPECT_EQ(d.start, std::vector<JobId>{3});
  EXPECT_EQ(d.reservations.at(0).start, 10);
}

TEST(Golden, SafeRefusesACandidateWhoseEstimateCrossesTheReservation) {
  const Decision d = plan("easy++-safe", surprise_snapshot());
  EXPECT_TRUE(d.start.empty());
  EXPECT_EQ(d.reservations.at(0).start, 10);  // still planned on predictions
}

TEST(Golden, SafeAcceptsWhenTheEstimateEndsByTheReservation) {
  ClusterState s = surprise_snapshot();
  s.waiting[1].estimate = 10;  // ends at 10 even if it runs to its limit
  EXPECT_EQ(plan("easy++-safe", s).start, std::vector<JobId>{3});
}

TEST(Golden, DoubleBookingPlansOnPredictionsReportsOnEstimates) {
  // Decisions are easy++'s; the head's reported start is its earliest start on kill
  // times: A is killed at 100 at the latest, C (started now) at 60, so H (10 procs) can be
  // promised 100.
  const Decision d = plan("easy++-dbook", surprise_snapshot());
  EXPECT_EQ(d.start, std::vector<JobId>{3});
  ASSERT_EQ(d.reservations.size(), 1u);
  EXPECT_EQ(d.reservations[0].job, 2u);
  EXPECT_EQ(d.reservations[0].start, 100);
  ASSERT_EQ(d.planned_reservations.size(), 1u);
  EXPECT_EQ(d.planned_reservations[0].job, 2u);
  EXPECT_EQ(d.planned_reservations[0].start, 10);
}

TEST(Golden, DoubleBookingCountsBackfilledJobsAtTheirKillTimes) {
  // C may run to its estimate 150: the promise to H must cover that, so it reads 150
  // (EASY on estimates would never have backfilled C; easy++ did, on its prediction).
  ClusterState s = surprise_snapshot();
  s.waiting[1].estimate = 150;
  const Decision d = plan("easy++-dbook", s);
  EXPECT_EQ(d.start, std::vector<JobId>{3});
  EXPECT_EQ(d.reservations.at(0).start, 150);
  EXPECT_EQ(d.planned_reservations.at(0).start, 10);
}

// X2 doubling as the driver applies it: the scheduler sees estimate * estimate_factor,
// and with the "estimate" predictor that is also the prediction.
Job scheduler_view(Job j, const PolicyTraits& t) {
  j.estimate = static_cast<Time>(static_cast<double>(j.estimate) * t.estimate_factor);
  j.prediction = j.estimate;
  return j;
}

// 10 processors, now 0. A (8 procs, estimate 10) started at -5: EASY expects it to end at
// 5, X2 at -5 + 20 = 15. Head H (10 procs); C (2 procs, estimate 6).
// EASY: shadow 5; C would end at 6 > 5, extra 0: waits.
// X2: shadow 15; C, seen as 12 long, ends at 12 <= 15: backfilled ("heel and toe", Fig. 8).
TEST(Golden, X2DoublesEstimatesAndBackfillsMore) {
  const auto easy = make_policy("easy");
  const auto x2 = make_policy("x2");
  EXPECT_EQ(x2->traits().estimate_factor, 2.0);
  EXPECT_EQ(x2->traits().prediction_factor, 1.0);
  EXPECT_EQ(x2->traits().predictor, "estimate");
  EXPECT_FALSE(x2->traits().correct_predictions);

  auto snapshot = [](const PolicyTraits& t) {
    ClusterState s;
    s.procs = 10;
    RunningJob a = running(1, 8, -5, 10);
    a.job = scheduler_view(a.job, t);
    s.running = {a};
    s.waiting = {scheduler_view(waiting(2, 10, 30), t), scheduler_view(waiting(3, 2, 6), t)};
    return s;
  };
  const Decision de = easy->plan(snapshot(easy->traits()));
  EXPECT_TRUE(de.start.empty());
  EXPECT_EQ(de.reservations.at(0).start, 5);
  const Decision dx = x2->plan(snapshot(x2->traits()));
  EXPECT_EQ(dx.start, std::vector<JobId>{3});
  EXPECT_EQ(dx.reservations.at(0).start, 15);
}

TEST(Golden, X2PlusDoublesPredictionsWithCorrection) {
  for (const char* name : {"x2+", "x2++"}) {
    SCOPED_TRACE(name);
    const auto p = make_policy(name);
    EXPECT_EQ(p->traits().estimate_factor, 2.0);
    EXPECT_EQ(p->traits().prediction_factor, 2.0);
    EXPECT_NE(p->traits().predictor, "estimate");
    EXPECT_TRUE(p->traits().correct_predictions);
  }
}

// SJF+ gives the reservation to the shortest job. 10 processors; A (8) until 10; 2 idle.
// Queue: L (6 procs, 50), S (4 procs, 5); neither fits. easy++: head L (FCFS). sjf+: head S.
TEST(Golden, SjfPlusReservesForTheShortest) {
  ClusterState s;
  s.procs = 10;
  s.running = {running(1, 8, 0, 10)};
  s.waiting = {waiting(2, 6, 50), waiting(3, 4, 5)};
  EXPECT_EQ(plan("easy++", s).reservations.at(0).job, 2u);
  for (const char* name : {"sjf", "sjf+"}) {
    SCOPED_TRACE(name);
    const Decision d = plan(name, s);
    ASSERT_EQ(d.reservations.size(), 1u);
    EXPECT_EQ(d.reservations[0].job, 3u);
    EXPECT_EQ(d.reservations[0].start, 10);
  }
}

TEST(Golden, SjfStartsShortestFirst) {
  // 6 idle: FCFS would start L (6) and leave S waiting; SJF starts S (4) first, then L no
  // longer fits and becomes the head.
  ClusterState s;
  s.procs = 6;
  s.waiting = {waiting(1, 6, 50), waiting(2, 4, 5)};
  EXPECT_EQ(plan("easy", s).start, std::vector<JobId>{1});
  const Decision d = plan("sjf", s);
  EXPECT_EQ(d.start, std::vector<JobId>{2});
  EXPECT_EQ(d.reservations.at(0).job, 1u);
  EXPECT_EQ(d.reservations.at(0).start, 5);
}

// Expired predictions (section 3.2): without correction, A (8 procs) predicted to end at
// 5 but still running at 10 counts as ending now: the head's reservation is "now" and
// only the extra processors remain for backfilling.
TEST(Golden, ExpiredPredictionMakesTheReservationNow) {
  ClusterState s;
  s.now = 10;
  s.procs = 10;
  s.running = {running(1, 8, 0, 5, 100)};
  s.waiting = {waiting(2, 8, 50), waiting(3, 2, 5), waiting(4, 1, 500)};
  const Decision d = plan("easy+", s);
  // Plan: 10 free at now, head needs 8 -> shadow 10, extra 2. Job 3 ends at 15 > 10 but
  // fits the 2 extra (and 2 idle): backfilled; then nothing is idle.
  EXPECT_EQ(d.reservations.at(0).start, 10);
  EXPECT_EQ(d.start, std::vector<JobId>{3});
}

TEST(Golden, TooWideJobDoesNotBlockTheQueue) {
  ClusterState s;
  s.procs = 4;
  s.waiting = {waiting(1, 5, 10), waiting(2, 4, 10)};
  const Decision d = plan("easy", s);
  EXPECT_EQ(d.start, std::vector<JobId>{2});
  EXPECT_TRUE(d.reservations.empty());
  EXPECT_TRUE(plan("conservative", s).reservations.empty());
}

TEST(Golden, EmptyQueuePlansNothing) {
  ClusterState s;
  s.procs = 4;
  s.running = {running(1, 2, 0, 10)};
  for (const std::string& name : policy_names()) {
    SCOPED_TRACE(name);
    const Decision d = plan(name, s);
    EXPECT_TRUE(d.start.empty());
    EXPECT_TRUE(d.reservations.empty());
    EXPECT_EQ(d.examined, 0);
  }
}

}  // namespace
}  // namespace easypp

namespace easypp {
namespace {

TEST(Golden, JobWithoutProcessorsIsRejectedByName) {
  ClusterState s;
  s.procs = 4;
  s.waiting = {test::waiting(1, 2, 10), test::waiting(77, 0, 10)};
  for (const std::string& name : policy_names()) {
    SCOPED_TRACE(name);
    try {
      make_policy(name)->plan(s);
      ADD_FAILURE() << "no exception";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("job id=77: procs=0"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace easypp
