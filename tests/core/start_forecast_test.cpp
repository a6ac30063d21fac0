// Start estimates for jobs a pass neither starts nor reserves, on hand-made plans whose
// answers are worked out in the comments.
#include <gtest/gtest.h>

#include "core/policy.h"
#include "core/start_forecast.h"
#include "snapshot.h"

namespace easypp {
namespace {

using test::running;
using test::waiting;

// Paper 000 Fig. 1 on 10 processors at now = 0:
//   A running, 6 procs, predicted end 100.
//   B 8 procs, 50 s: the head, blocked, reserved at 100 (A's end).
//   C 4 procs, 200 s: 4 idle now but it would run past 100, when B leaves only 2: waits.
//   D 2 procs, 30 s: backfilled now (ends at 30, before the reservation).
// The plan then holds A 6 until 100, D 2 until 30, B 8 over [100, 150). C needs 4 for
// 200 s: 2 free at 0, 4 over [30, 100) (too short), 2 over [100, 150), 10 from 150: 150.
ClusterState fig1() {
  ClusterState s;
  s.now = 0;
  s.procs = 10;
  s.running = {running(1, 6, -50, 150)};
  s.waiting = {waiting(2, 8, 50), waiting(3, 4, 200), waiting(4, 2, 30)};
  return s;
}

TEST(StartForecast, PlacesUnreservedJobsAfterThePlan) {
  const ClusterState s = fig1();
  auto easy = make_policy("easy");
  const Decision d = easy->plan(s);
  ASSERT_EQ(d.start, std::vector<JobId>{4});
  ASSERT_EQ(d.reservations.size(), 1u);
  EXPECT_EQ(d.reservations[0].job, 2u);
  EXPECT_EQ(d.reservations[0].start, 100);

  StartForecast forecast;
  const std::vector<Reservation> f = forecast.forecast(s, d, 100);
  ASSERT_EQ(f.size(), 1u);  // B is reserved and D started: only C needs an estimate
  EXPECT_EQ(f[0].job, 3u);
  EXPECT_EQ(f[0].start, 150);
}

// Later jobs are placed after earlier forecasts, in priority order, up to the limit.
//   E 10 procs, 10 s, queued after C: the machine is whole only from 350 (C over
//   [150, 350) holds 4): 350.
//   F 3 procs, 40 s: only 2 idle now, so EASY does not start it; in the plan 4 are free
//   over [30, 100) (D gone, B not yet in), long enough: 30.
TEST(StartForecast, PriorityOrderAndLimit) {
  ClusterState s = fig1();
  s.waiting.push_back(waiting(5, 10, 10));
  s.waiting.push_back(waiting(6, 3, 40));
  auto easy = make_policy("easy");
  const Decision d = easy->plan(s);
  ASSERT_EQ(d.start, std::vector<JobId>{4});
  StartForecast forecast;
  const std::vector<Reservation> f = forecast.forecast(s, d, 100);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].job, 3u);
  EXPECT_EQ(f[0].start, 150);
  EXPECT_EQ(f[1].job, 5u);
  EXPECT_EQ(f[1].start, 350);
  EXPECT_EQ(f[2].job, 6u);
  EXPECT_EQ(f[2].start, 30);
  const std::vector<Reservation> two = forecast.forecast(s, d, 2);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[1].job, 5u);
  EXPECT_TRUE(forecast.forecast(s, d, 0).empty());
}

// A job wider than the domain never starts: no estimate. Nothing waiting: nothing.
TEST(StartForecast, TooWideAndEmpty) {
  ClusterState s = fig1();
  s.waiting.push_back(waiting(7, 11, 10));
  auto easy = make_policy("easy");
  StartForecast forecast;
  const std::vector<Reservation> f = forecast.forecast(s, easy->plan(s), 100);
  for (const Reservation& r : f) EXPECT_NE(r.job, 7u);
  ClusterState idle;
  idle.procs = 4;
  EXPECT_TRUE(forecast.forecast(idle, Decision{}, 100).empty());
}

// Conservative already reserves every job: nothing is left to estimate.
TEST(StartForecast, NothingLeftAfterConservative) {
  const ClusterState s = fig1();
  auto conservative = make_policy("conservative");
  StartForecast forecast;
  EXPECT_TRUE(forecast.forecast(s, conservative->plan(s), 100).empty());
}

}  // namespace
}  // namespace easypp
