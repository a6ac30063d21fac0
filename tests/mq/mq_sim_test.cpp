// The multiple-queue policies through the simulator (checked build: every event verifies
// the engine's invariants, including that no backfill delays the head's reservation).
#include <gtest/gtest.h>

#include <random>

#include "core/policy.h"
#include "sim/simulator.h"
#include "sim/workload.h"

namespace easypp::sim {
namespace {

SimJob job(JobId id, Time submit, int procs, Time runtime, Time estimate) {
  SimJob s;
  s.job.id = id;
  s.job.user = static_cast<UserId>(id % 7);
  s.job.submit = submit;
  s.job.procs = procs;
  s.job.estimate = estimate;
  s.runtime = runtime;
  return s;
}

// A lone extra-long job on an idle machine: under mq-vd it starts exactly D_1 = 2500 s
// after its submit, although nothing else happens then (the policy's wake-up).
TEST(MqSim, DelayedJobStartsAtItsReleaseOnAnIdleMachine) {
  Workload w;
  w.trace = "hand-made";
  w.procs = 8;
  w.jobs = {job(1, 100, 4, 20000, 20000)};
  auto vd = make_policy("mq-vd");
  const measure::SimOutcome o = simulate(w, *vd);
  EXPECT_EQ(o.jobs[0].start, 2600);
  auto mq = make_policy("mq");
  EXPECT_EQ(simulate(w, *mq).jobs[0].start, 100);
}

// A random workload with exact and with loose estimates: every job ends, and with one
// queue the schedule is EASY's.
TEST(MqSim, RandomWorkloadsFinishAndOneQueueIsEasy) {
  std::mt19937_64 rng(8);
  std::uniform_int_distribution<int> procs(1, 16);
  std::uniform_int_distribution<Time> gap(0, 400), runtime(1, 30000);
  for (int loose = 0; loose < 2; ++loose) {
    Workload w;
    w.trace = "random";
    w.procs = 32;
    Time t = 0;
    for (JobId id = 1; id <= 400; ++id) {
      t += gap(rng);
      const Time r = runtime(rng);
      w.jobs.push_back(job(id, t, procs(rng), r, loose ? r * 3 + 60 : r));
    }
    w.jobs.push_back(job(401, t + 1, 32, 500, 500));  // the whole machine, last
    for (const char* name : {"mq", "mq-vd", "mq-vd0", "mq-1q"}) {
      SCOPED_TRACE(name);
      auto policy = make_policy(name);
      const measure::SimOutcome o = simulate(w, *policy);
      for (const measure::JobOutcome& j : o.jobs) ASSERT_GE(j.start, j.submit);
    }
    auto easy = make_policy("easy");
    auto one = make_policy("mq-1q");
    const measure::SimOutcome a = simulate(w, *easy), b = simulate(w, *one);
    for (std::size_t i = 0; i < a.jobs.size(); ++i) {
      ASSERT_EQ(a.jobs[i].start, b.jobs[i].start) << "job index " << i;
    }
  }
}

}  // namespace
}  // namespace easypp::sim
