// AvailabilityProfile: the step function every policy plans on.
#include <gtest/gtest.h>

#include "core/profile.h"
#include "snapshot.h"

namespace easypp {
namespace {

using test::running;

// 10 processors at t=100: A (4 procs) ends at 105, B (4) at 120, 2 idle.
ClusterState two_running() {
  ClusterState s;
  s.now = 100;
  s.procs = 10;
  s.running = {running(1, 4, 90, 15), running(2, 4, 100, 20)};
  return s;
}

TEST(Profile, StepsFollowRunningEnds) {
  AvailabilityProfile p;
  p.reset(two_running(), RunningEnd::predicted);
  ASSERT_EQ(p.steps().size(), 3u);
  EXPECT_EQ(p.steps()[0].time, 100);
  EXPECT_EQ(p.steps()[0].free, 2);
  EXPECT_EQ(p.steps()[1].time, 105);
  EXPECT_EQ(p.steps()[1].free, 6);
  EXPECT_EQ(p.steps()[2].time, 120);
  EXPECT_EQ(p.steps()[2].free, 10);
  EXPECT_EQ(p.idle_now(), 2);
  EXPECT_EQ(p.free_at(50), 2);  // before now reads as now
  EXPECT_EQ(p.free_at(104), 2);
  EXPECT_EQ(p.free_at(105), 6);
  EXPECT_EQ(p.free_at(1000), 10);
}

TEST(Profile, ExpiredPredictionCountsAsEndingNowButIsNotIdle) {
  ClusterState s = two_running();
  s.running[0].job.prediction = 5;  // predicted end 95 < now 100: still running
  AvailabilityProfile p;
  p.reset(s, RunningEnd::predicted);
  EXPECT_EQ(p.free_at(100), 6);  // planned free now...
  EXPECT_EQ(p.idle_now(), 2);    // ...but only 2 really idle
  EXPECT_EQ(p.earliest_start(6, 10), 100);
  EXPECT_FALSE(p.fits_now(6, 10));
  EXPECT_TRUE(p.fits_now(2, 10));
}

TEST(Profile, KillTimesUseEstimates) {
  ClusterState s = two_running();
  s.running[0].job.estimate = 50;  // killed at 140
  AvailabilityProfile p;
  p.reset(s, RunningEnd::kill_time);
  EXPECT_EQ(p.free_at(130), 6);
  EXPECT_EQ(p.free_at(140), 10);
}

TEST(Profile, EarliestStartNeedsTheWholeDuration) {
  AvailabilityProfile p;
  p.reset(two_running(), RunningEnd::predicted);
  EXPECT_EQ(p.earliest_start(2, 1000), 100);
  EXPECT_EQ(p.earliest_start(3, 1), 105);
  EXPECT_EQ(p.earliest_start(7, 1), 120);
  EXPECT_EQ(p.earliest_start(11, 1), kNever);
  // A reservation of 5 processors over [105, 130) leaves a hole of 1 there: a 3-wide job
  // of length 10 cannot use [105, 115) and goes after the reservation.
  p.reserve(105, 25, 5);
  EXPECT_EQ(p.free_at(105), 1);
  EXPECT_EQ(p.free_at(120), 5);
  EXPECT_EQ(p.free_at(130), 10);
  EXPECT_EQ(p.earliest_start(3, 10), 120);
  EXPECT_EQ(p.earliest_start(6, 10), 130);
  EXPECT_EQ(p.earliest_start(2, 4), 100);  // fits before 105 on the idle two
  EXPECT_EQ(p.earliest_start(2, 6), 120);  // would cross into the hole of 1 at 105
}

TEST(Profile, StartNowTakesIdleAndBlocksTheFuture) {
  AvailabilityProfile p;
  p.reset(two_running(), RunningEnd::predicted);
  EXPECT_TRUE(p.fits_now(2, 50));
  p.start_now(2, 50);
  EXPECT_EQ(p.idle_now(), 0);
  EXPECT_EQ(p.free_at(100), 0);
  EXPECT_EQ(p.free_at(120), 8);
  EXPECT_EQ(p.free_at(150), 10);
  EXPECT_FALSE(p.fits_now(1, 1));
}

TEST(Profile, ReserveAcrossExistingBreakpointsAndBeforeNow) {
  AvailabilityProfile p;
  p.reset(two_running(), RunningEnd::predicted);
  p.reserve(50, 70, 2);  // starts before now: clamped to [100, 120)
  EXPECT_EQ(p.free_at(100), 0);
  EXPECT_EQ(p.free_at(105), 4);
  EXPECT_EQ(p.free_at(119), 4);
  EXPECT_EQ(p.free_at(120), 10);
  EXPECT_EQ(p.steps().size(), 3u);  // no new breakpoint was needed
}

TEST(Profile, ResetReusesTheObject) {
  AvailabilityProfile p;
  p.reset(two_running(), RunningEnd::predicted);
  p.reserve(105, 100, 6);
  ClusterState empty;
  empty.now = 7;
  empty.procs = 4;
  p.reset(empty, RunningEnd::predicted);
  ASSERT_EQ(p.steps().size(), 1u);
  EXPECT_EQ(p.now(), 7);
  EXPECT_EQ(p.idle_now(), 4);
  EXPECT_EQ(p.earliest_start(4, 100), 7);
}

}  // namespace
}  // namespace easypp

namespace easypp {
namespace {

TEST(Profile, ShadowTimeAndExtraProcessors) {
  AvailabilityProfile p;
  p.reset(two_running(), RunningEnd::predicted);  // free 2, then 6 at 105, 10 at 120
  const AvailabilityProfile::Shadow s5 = p.shadow(5, 30);
  EXPECT_EQ(s5.time, 105);
  EXPECT_EQ(s5.extra, 1);
  const AvailabilityProfile::Shadow s7 = p.shadow(7, 30);
  EXPECT_EQ(s7.time, 120);
  EXPECT_EQ(s7.extra, 3);
  EXPECT_EQ(p.shadow(11, 1).time, kNever);
}

}  // namespace
}  // namespace easypp

namespace easypp {
namespace {

// earliest_start() remembers where it last found enough processors; that memory must
// follow reservations (answers only move later) and must not survive a reset.
TEST(Profile, RepeatedQueriesFollowReservationsAndResets) {
  AvailabilityProfile p;
  p.reset(two_running(), RunningEnd::predicted);  // free 2, 6 at 105, 10 at 120
  EXPECT_EQ(p.earliest_start(3, 1), 105);
  p.reserve(105, 15, 5);  // [105,120): 1 free
  EXPECT_EQ(p.earliest_start(3, 1), 120);
  EXPECT_EQ(p.earliest_start(1, 1), 100);
  p.reserve(100, 5, 2);  // [100,105): 0 free
  EXPECT_EQ(p.earliest_start(1, 1), 105);
  EXPECT_EQ(p.earliest_start(1, 20), 105);  // 1 free on [105,120), 10 after
  EXPECT_EQ(p.earliest_start(2, 1), 120);

  // Same shape, more idle: 3 fit now, although the last answer for 3 was 120.
  ClusterState roomier = two_running();
  roomier.running[1].job.procs = 1;
  p.reset(roomier, RunningEnd::predicted);
  EXPECT_EQ(p.earliest_start(3, 1), 100);

  ClusterState idle;
  idle.now = 100;
  idle.procs = 10;
  p.reset(idle, RunningEnd::predicted);
  EXPECT_EQ(p.earliest_start(3, 1), 100);
  EXPECT_EQ(p.earliest_start(1, 1), 100);
  // A bigger machine after a smaller one.
  idle.procs = 40;
  p.reset(idle, RunningEnd::predicted);
  EXPECT_EQ(p.earliest_start(40, 5), 100);
}

}  // namespace
}  // namespace easypp
