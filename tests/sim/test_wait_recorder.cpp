// measure::WaitRecorder (the sweep's lean observer) against the papers' OutcomeRecorder:
// the same run must give the same average wait and bounded slowdown, bit for bit, for
// every policy in both runtime modes (killing policies too: only a job's final run
// counts), with and without the sweep's fast passes. KTH from the source tree, its first
// 8000 jobs.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "measure/metrics.h"
#include "measure/wait_recorder.h"
#include "sim_test_support.h"

namespace easypp::sim {
namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(WaitRecorder, AgreesWithTheFullOutcomeOnKth) {
  Workload w = prepare(swf::read(std::string(EASYPP_SRCDIR) +
                                 "/data/traces/KTH-SP2-1996-2.1-cln.swf.gz"),
                       {});
  ASSERT_GT(w.jobs.size(), 8000u);
  w.jobs.resize(8000);
  std::vector<Time> submits;
  for (const SimJob& j : w.jobs) submits.push_back(j.job.submit);
  std::vector<std::string> names = policy_names();
  names.emplace_back("easy++:bound=0:guard=always");
  for (const std::string& name : names) {
    for (RuntimeMode mode : {RuntimeMode::replay, RuntimeMode::cap}) {
      for (bool fast : {false, true}) {
        SCOPED_TRACE(name + (mode == RuntimeMode::cap ? " cap" : " replay") +
                     (fast ? " fast" : ""));
        SimOptions options{mode};
        options.heel_and_toe = false;
        options.fast_passes = fast;
        const measure::WaitAndSlowdown full =
            measure::average_wait_and_bsld(testing::run(w, name, options));
        measure::WaitRecorder recorder(submits);
        auto policy = make_policy(name);
        drive(w, *policy, recorder, options);
        const measure::WaitAndSlowdown lean = recorder.average();
        EXPECT_GT(full.avg_bsld, 1.0);
        EXPECT_TRUE(same_bits(full.avg_wait_min, lean.avg_wait_min))
            << full.avg_wait_min << " vs " << lean.avg_wait_min;
        EXPECT_TRUE(same_bits(full.avg_bsld, lean.avg_bsld))
            << full.avg_bsld << " vs " << lean.avg_bsld;
      }
    }
  }
}

// By hand: 100 jobs submitted at t = 0..99 (so last_arrival = 99), warm-up 1 % = the first
// job to end. Job 0 ends first (left out), job 1 waits 10 s and runs 20 s (bsld 1.5), job 2
// waits 0 s and runs 5 s (bsld max(1, 5 / 10) = 1), job 3 ends at 200 > 99 (left out), the
// rest never end. Average wait (10 + 0) / 2 s = 5 s = 1/12 min; bsld (1.5 + 1) / 2 = 1.25.
TEST(WaitRecorder, CountsAsComputeMetricsDoesByHand) {
  std::vector<Time> submits;
  for (Time t = 0; t < 100; ++t) submits.push_back(t);
  measure::WaitRecorder r(submits);
  Job j;
  r.ended(0, j, 0, 1, false);
  r.ended(1, j, 11, 31, false);
  r.ended(2, j, 2, 7, false);
  r.ended(3, j, 100, 200, false);
  const measure::WaitAndSlowdown a = r.average();
  EXPECT_DOUBLE_EQ(a.avg_wait_min, 5.0 / 60.0);
  EXPECT_DOUBLE_EQ(a.avg_bsld, 1.25);
}

}  // namespace
}  // namespace easypp::sim
