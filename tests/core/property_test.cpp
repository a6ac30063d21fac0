// Randomized properties over a few hundred snapshots (fixed seed, so failures reproduce):
// no policy starts more processors than are idle, decisions are deterministic, and with
// exact predictions no backfilled job delays the head's reservation; conservative plans
// never overbook any moment.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "core/policy.h"
#include "snapshot.h"

namespace easypp {
namespace {

constexpr Time kNow = 1000;

// Random snapshot. exact: every running job ends after now (predictions are the truth),
// else some running jobs are past their predicted end.
ClusterState random_snapshot(std::mt19937_64& rng, bool exact) {
  auto uniform = [&rng](Time lo, Time hi) {
    return std::uniform_int_distribution<Time>(lo, hi)(rng);
  };
  ClusterState s;
  s.now = kNow;
  s.procs = static_cast<int>(uniform(1, 64));
  JobId id = 1;
  int busy = 0;
  const int nrunning = static_cast<int>(uniform(0, 8));
  for (int i = 0; i < nrunning && busy < s.procs; ++i) {
    const int procs = static_cast<int>(uniform(1, s.procs - busy));
    const Time start = kNow - uniform(0, 500);
    const Time end = exact || uniform(0, 3) > 0 ? kNow + uniform(1, 500) : kNow - uniform(0, 100);
    const Time prediction = std::max<Time>(end - start, 1);
    s.running.push_back(test::running(id++, procs, start, prediction, prediction + uniform(0, 300)));
    busy += procs;
  }
  const int nwaiting = static_cast<int>(uniform(0, 12));
  for (int i = 0; i < nwaiting; ++i) {
    // Occasionally wider than the machine: such a job must never block or start.
    const int procs = uniform(0, 19) == 0 ? s.procs + 1 : static_cast<int>(uniform(1, s.procs));
    const Time prediction = uniform(1, 600);
    s.waiting.push_back(test::waiting(id++, procs, prediction, prediction + uniform(0, 600)));
  }
  return s;
}

bool same(const Decision& a, const Decision& b) {
  auto same_res = [](const std::vector<Reservation>& x, const std::vector<Reservation>& y) {
    return std::equal(x.begin(), x.end(), y.begin(), y.end(),
                      [](const Reservation& r, const Reservation& q) {
                        return r.job == q.job && r.start == q.start;
                      });
  };
  return a.start == b.start && a.backfilled == b.backfilled && a.examined == b.examined &&
         same_res(a.reservations, b.reservations) &&
         same_res(a.planned_reservations, b.planned_reservations) &&
         a.kill_requeue == b.kill_requeue;
}

const Job& find_waiting(const ClusterState& s, JobId id) {
  return *std::find_if(s.waiting.begin(), s.waiting.end(), [id](const Job& j) { return j.id == id; });
}

// Processors busy at time t (t >= now) by running jobs and the jobs started now.
int busy_at(const ClusterState& s, const std::vector<JobId>& started, Time t) {
  int busy = 0;
  for (const RunningJob& r : s.running) {
    if (r.predicted_end() > t) busy += r.job.procs;
  }
  for (JobId id : started) {
    const Job& j = find_waiting(s, id);
    if (s.now + std::max<Time>(j.prediction, 1) > t) busy += j.procs;
  }
  return busy;
}

void check_common(const ClusterState& s, const Decision& d, std::string_view policy) {
  int idle = s.procs;
  for (const RunningJob& r : s.running) idle -= r.job.procs;
  // Kill-and-requeue policies (papers 002, 004) start jobs on the processors they free.
  for (JobId k : d.kill_requeue) {
    const auto r = std::find_if(s.running.begin(), s.running.end(),
                                [k](const RunningJob& x) { return x.job.id == k; });
    EXPECT_NE(r, s.running.end()) << policy << ": kills a job that is not running: " << k;
    if (r != s.running.end()) idle += r->job.procs;
  }
  int taken = 0;
  std::set<JobId> seen;
  for (JobId id : d.start) {
    EXPECT_TRUE(seen.insert(id).second) << policy << ": started twice: " << id;
    const Job& j = find_waiting(s, id);
    EXPECT_LE(j.procs, s.procs) << policy;
    taken += j.procs;
  }
  EXPECT_LE(taken, idle) << policy;
  for (JobId id : d.backfilled) EXPECT_TRUE(seen.count(id)) << policy;
  for (const Reservation& r : d.reservations) {
    EXPECT_FALSE(seen.count(r.job)) << policy << ": job both started and reserved";
    EXPECT_GE(r.start, s.now) << policy;
  }
  EXPECT_LE(d.examined, static_cast<int>(s.waiting.size())) << policy;
  if (policy == "fcfs") {
    EXPECT_TRUE(d.backfilled.empty());
  }
}

// EASY family with exact predictions: the head can start at its reservation despite
// everything started now, and (EASY's FCFS order) no earlier.
void check_head(const ClusterState& s, const Decision& d, std::string_view policy) {
  const std::vector<Reservation>& planned =
      d.planned_reservations.empty() ? d.reservations : d.planned_reservations;
  if (planned.empty()) return;
  // Multiple-queue policies (paper 001) reserve one pivot per queue; the first is checked.
  if (!policy.starts_with("mq")) {
    ASSERT_EQ(planned.size(), 1u) << policy;
  }
  const Job& head = find_waiting(s, planned[0].job);
  const Time shadow = planned[0].start;
  // Free capacity only grows after the shadow time (nothing new starts), so checking the
  // shadow moment covers the head's whole run.
  EXPECT_GE(s.procs - busy_at(s, d.start, shadow), head.procs)
      << policy << ": backfilling delayed the head";
  if (policy == "easy" && shadow > s.now) {
    std::vector<JobId> in_order;
    for (const Job& j : s.waiting) {
      if (j.id == head.id) break;
      if (j.procs <= s.procs) in_order.push_back(j.id);
    }
    EXPECT_LT(s.procs - busy_at(s, in_order, shadow - 1), head.procs)
        << "easy: reservation later than needed";
  }
}

// Conservative: running + started + every reservation never exceed the machine.
void check_conservative_plan(const ClusterState& s, const Decision& d) {
  std::map<Time, int> delta;
  for (const RunningJob& r : s.running) {
    delta[s.now] += r.job.procs;
    delta[std::max(r.predicted_end(), s.now)] -= r.job.procs;
  }
  auto add = [&](JobId id, Time start) {
    const Job& j = find_waiting(s, id);
    delta[start] += j.procs;
    delta[start + std::max<Time>(j.prediction, 1)] -= j.procs;
  };
  for (JobId id : d.start) add(id, s.now);
  for (const Reservation& r : d.reservations) add(r.job, r.start);
  int busy = 0;
  for (const auto& [t, change] : delta) {
    busy += change;
    // At `now` overdue jobs are still counted busy in this sum, so check from their end.
    if (t > s.now) {
      EXPECT_LE(busy, s.procs) << "conservative overbooks t=" << t;
    }
  }
  // Every waiting job that fits the machine has a start or a reservation.
  std::size_t fitting = 0;
  for (const Job& j : s.waiting) fitting += j.procs <= s.procs ? 1 : 0;
  EXPECT_EQ(d.start.size() + d.reservations.size(), fitting);
}

TEST(Property, RandomSnapshotsAllPolicies) {
  std::mt19937_64 rng(20260522);
  const std::vector<std::string> names = policy_names();
  for (int n = 0; n < 400; ++n) {
    const bool exact = n % 4 != 0;
    const ClusterState s = random_snapshot(rng, exact);
    for (const std::string& name : names) {
      SCOPED_TRACE("snapshot " + std::to_string(n) + " policy " + name);
      const auto policy = make_policy(name);
      const Decision d = policy->plan(s);
      check_common(s, d, name);
      EXPECT_TRUE(same(d, policy->plan(s))) << "same object, same state, other decision";
      EXPECT_TRUE(same(d, make_policy(name)->plan(s))) << "fresh object, other decision";
      if (name == "conservative") {
        if (exact) check_conservative_plan(s, d);
      } else if (exact && !policy->traits().kills) {
        // Killing policies may let shadow load outlive the reservation by design.
        check_head(s, d, name);
      }
      if (::testing::Test::HasFailure()) return;  // one readable failure, not thousands
    }
  }
}

}  // namespace
}  // namespace easypp
