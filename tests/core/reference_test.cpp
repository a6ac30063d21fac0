// The policies against deliberately naive reference implementations written from the
// paper's rules (brute-force time scans, no profile, no filtering), on random snapshots:
// the decisions must be identical. Catches a policy that is safe but backfills too
// little, which the invariant checks in property_test cannot see.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "core/policy.h"
#include "snapshot.h"

namespace easypp {
namespace {

struct Planned {
  Time start;
  Time end;
  int procs;
};

// Processors used at time t by the plan (intervals [start, end)).
int used_at(const std::vector<Planned>& plan, Time t) {
  int used = 0;
  for (const Planned& p : plan) {
    if (p.start <= t && t < p.end) used += p.procs;
  }
  return used;
}

// Running jobs as plan intervals; an end in the past counts as ending now.
std::vector<Planned> running_plan(const ClusterState& s) {
  std::vector<Planned> plan;
  for (const RunningJob& r : s.running) {
    plan.push_back({s.now, std::max(r.predicted_end(), s.now), r.job.procs});
  }
  return plan;
}

// Earliest t >= now where `procs` are free in `plan` during [t, t + d). Candidate starts
// are now and every interval end.
Time earliest(const ClusterState& s, const std::vector<Planned>& plan, int procs, Time d) {
  std::set<Time> times{s.now};
  for (const Planned& p : plan) times.insert(std::max(p.end, s.now));
  d = std::max<Time>(d, 1);
  for (Time t : times) {
    bool ok = true;
    std::set<Time> checks{t};
    for (const Planned& p : plan) {
      if (p.start > t && p.start < t + d) checks.insert(p.start);
    }
    for (Time c : checks) ok = ok && s.procs - used_at(plan, c) >= procs;
    if (ok) return t;
  }
  return -1;  // unreachable: the last end leaves the whole machine free
}

struct Rules {
  bool sjf_reservation = false;
  bool backfill = true;
  bool sjbf = false;
  bool estimate_fit = false;
};

std::vector<std::size_t> order(const ClusterState& s, bool shortest) {
  std::vector<std::size_t> idx(s.waiting.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  if (shortest) {
    std::stable_sort(idx.begin(), idx.end(), [&s](std::size_t a, std::size_t b) {
      return s.waiting[a].prediction < s.waiting[b].prediction;
    });
  }
  return idx;
}

Decision reference_easy(const ClusterState& s, const Rules& rules) {
  Decision d;
  int idle = s.procs;
  for (const RunningJob& r : s.running) idle -= r.job.procs;
  std::vector<Planned> plan = running_plan(s);
  std::vector<std::size_t> ord = order(s, rules.sjf_reservation);
  std::size_t k = 0;
  for (; k < ord.size(); ++k) {
    const Job& j = s.waiting[ord[k]];
    if (j.procs > s.procs) continue;
    if (j.procs > idle) break;
    idle -= j.procs;
    plan.push_back({s.now, s.now + std::max<Time>(j.prediction, 1), j.procs});
    d.start.push_back(j.id);
  }
  if (k == ord.size()) return d;
  const Job& head = s.waiting[ord[k]];
  const Time shadow = earliest(s, plan, head.procs, head.prediction);
  int extra = s.procs - used_at(plan, shadow) - head.procs;
  d.reservations.push_back({head.id, shadow});
  if (!rules.backfill) return d;
  std::set<std::size_t> done(ord.begin(), ord.begin() + static_cast<long>(k) + 1);
  for (std::size_t i : order(s, rules.sjbf)) {
    if (done.count(i)) continue;
    const Job& j = s.waiting[i];
    if (j.procs > idle) continue;
    const Time runtime = rules.estimate_fit ? j.estimate : j.prediction;
    if (s.now + runtime <= shadow) {
      // ends by the shadow time
    } else if (j.procs <= extra) {
      extra -= j.procs;
    } else {
      continue;
    }
    idle -= j.procs;
    d.start.push_back(j.id);
    d.backfilled.push_back(j.id);
  }
  return d;
}

Decision reference_conservative(const ClusterState& s) {
  Decision d;
  int idle = s.procs;
  for (const RunningJob& r : s.running) idle -= r.job.procs;
  std::vector<Planned> plan = running_plan(s);
  bool waits = false;
  for (const Job& j : s.waiting) {
    if (j.procs > s.procs) continue;
    const Time t = earliest(s, plan, j.procs, j.prediction);
    plan.push_back({t, t + std::max<Time>(j.prediction, 1), j.procs});
    if (t == s.now && j.procs <= idle) {
      idle -= j.procs;
      d.start.push_back(j.id);
      if (waits) d.backfilled.push_back(j.id);
    } else {
      d.reservations.push_back({j.id, t});
      waits = true;
    }
  }
  return d;
}

ClusterState random_snapshot(std::mt19937_64& rng) {
  auto uniform = [&rng](Time lo, Time hi) {
    return std::uniform_int_distribution<Time>(lo, hi)(rng);
  };
  ClusterState s;
  s.now = 500;
  s.procs = static_cast<int>(uniform(1, 32));
  JobId id = 1;
  int busy = 0;
  for (int i = static_cast<int>(uniform(0, 6)); i > 0 && busy < s.procs; --i) {
    const int procs = static_cast<int>(uniform(1, s.procs - busy));
    const Time start = s.now - uniform(0, 200);
    // Coarse times so that ties (equal ends, equal predictions) happen often.
    const Time prediction = 10 * uniform(1, 40);
    s.running.push_back(test::running(id++, procs, start, prediction, prediction + 10 * uniform(0, 20)));
    busy += procs;
  }
  for (int i = static_cast<int>(uniform(0, 10)); i > 0; --i) {
    const int procs = uniform(0, 24) == 0 ? s.procs + 1 : static_cast<int>(uniform(1, s.procs));
    const Time prediction = 10 * uniform(1, 30);
    s.waiting.push_back(test::waiting(id++, procs, prediction, prediction + 10 * uniform(0, 30)));
  }
  return s;
}

void expect_same(const Decision& ref, const Decision& got) {
  EXPECT_EQ(got.start, ref.start);
  EXPECT_EQ(got.backfilled, ref.backfilled);
  ASSERT_EQ(got.reservations.size(), ref.reservations.size());
  for (std::size_t i = 0; i < ref.reservations.size(); ++i) {
    EXPECT_EQ(got.reservations[i].job, ref.reservations[i].job) << "reservation " << i;
    EXPECT_EQ(got.reservations[i].start, ref.reservations[i].start) << "reservation " << i;
  }
}

TEST(Reference, PoliciesMatchNaiveImplementations) {
  struct Case {
    const char* policy;
    Rules rules;
  };
  const Case cases[] = {
      {"fcfs", {.backfill = false}},
      {"easy", {}},
      {"easy++", {.sjbf = true}},
      {"x2", {}},
      {"sjf", {.sjf_reservation = true, .sjbf = true}},
      {"sjf+", {.sjf_reservation = true, .sjbf = true}},
      {"easy++-safe", {.sjbf = true, .estimate_fit = true}},
  };
  std::mt19937_64 rng(7);
  for (int n = 0; n < 500; ++n) {
    const ClusterState s = random_snapshot(rng);
    for (const Case& c : cases) {
      SCOPED_TRACE("snapshot " + std::to_string(n) + " policy " + c.policy);
      expect_same(reference_easy(s, c.rules), make_policy(c.policy)->plan(s));
    }
    SCOPED_TRACE("snapshot " + std::to_string(n) + " policy conservative");
    expect_same(reference_conservative(s), make_policy("conservative")->plan(s));
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace
}  // namespace easypp
