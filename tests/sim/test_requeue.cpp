// Kill-and-requeue decisions and prediction propagation, carried out by the simulator
// (tests/sim/data/requeue.swf and propagation.swf explain the expected times).
#include <gtest/gtest.h>

#include <memory>

#include "measure/metrics.h"
#include "sim_test_support.h"

namespace easypp::sim {
namespace {

using testing::job;
using testing::load;
using testing::run;

// EASY, except that at the first pass at or after `at` it kills job `victim` once.
class KillOnce : public Policy {
 public:
  KillOnce(JobId victim, Time at) : inner_(make_policy("easy")), victim_(victim), at_(at) {}
  std::string_view name() const override { return "kill-once"; }
  const PolicyTraits& traits() const override { return inner_->traits(); }
  Decision plan(const ClusterState& s) override {
    if (!done_ && s.now >= at_) {
      for (const RunningJob& r : s.running) {
        if (r.job.id != victim_) continue;
        done_ = true;
        Decision d;
        d.kill_requeue.push_back(victim_);
        return d;
      }
    }
    return inner_->plan(s);
  }

 private:
  std::unique_ptr<Policy> inner_;
  JobId victim_;
  Time at_;
  bool done_ = false;
};

TEST(Requeue, KilledJobRestartsFromTheBeginningInFcfsPlace) {
  Workload w = load("requeue.swf");
  KillOnce policy(w.jobs[0].job.id, 5);
  measure::SimOutcome o = run(w, policy);
  const measure::JobOutcome& j1 = job(w, o, 1);
  EXPECT_EQ(j1.restarts, 1);
  EXPECT_EQ(j1.run_before_final, 4);
  EXPECT_EQ(j1.start, 5);
  EXPECT_EQ(j1.end, 15);
  EXPECT_EQ(j1.runtime, 10);
  const measure::JobOutcome& j2 = job(w, o, 2);
  EXPECT_EQ(j2.first_reservation, 21);
  EXPECT_EQ(j2.start, 15);
  EXPECT_EQ(job(w, o, 3).start, 5);
  EXPECT_TRUE(job(w, o, 3).backfilled);
  // 1 proc x 4 s lost of 1 x 4 + 1 x 10 + 2 x 3 + 1 x 1 = 21 processor-seconds used.
  EXPECT_DOUBLE_EQ(o.lost_proc_seconds, 4.0);
  EXPECT_DOUBLE_EQ(o.busy_proc_seconds, 21.0);
  measure::Metrics m = measure::compute_metrics(o, measure::MetricsOptions{0.0});
  EXPECT_EQ(m.restarts, 1);
  EXPECT_DOUBLE_EQ(m.lost_work_pct, 400.0 / 21);
  EXPECT_DOUBLE_EQ(m.max_wait_min, 13.0 / 60);  // job 2: 2 -> 15
}

TEST(Requeue, KillingAJobThatIsNotRunningIsCaught) {
  Workload w = load("requeue.swf");
  // Names a waiting job (job 2, blocked from t=2) for kill and requeue.
  class KillWaiting : public Policy {
   public:
    std::string_view name() const override { return "kill-waiting"; }
    const PolicyTraits& traits() const override { return inner_->traits(); }
    Decision plan(const ClusterState& s) override {
      Decision d = inner_->plan(s);
      if (!s.waiting.empty() && s.now >= 2) d.kill_requeue.push_back(s.waiting.back().id);
      return d;
    }
    std::unique_ptr<Policy> inner_ = make_policy("easy");
  } bad;
  try {
    run(w, bad);
    FAIL() << "killing a waiting job must stop the run";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("kill_requeue of job 2 which is not running"),
              std::string::npos)
        << e.what();
  }
}

TEST(Propagation, WaitingJobsOfTheUserAreRepredicted) {
  Workload w = load("propagation.swf");
  PolicyOptions on;
  on.predictor = "history:propagation=on";
  auto with = make_policy("easy+", on);
  measure::SimOutcome o = run(w, *with);
  EXPECT_EQ(job(w, o, 2).start, 11);
  EXPECT_NEAR(job(w, o, 2).accuracy, (0.1 * 9 + 1.0 * 10) / 19, 1e-12);

  auto without = make_policy("easy+");
  measure::SimOutcome p = run(w, *without);
  EXPECT_EQ(job(w, p, 2).start, 11);
  EXPECT_NEAR(job(w, p, 2).accuracy, 0.1, 1e-12);
}

}  // namespace
}  // namespace easypp::sim
