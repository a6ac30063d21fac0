// The engine's checks catch policies that break the rules (tests link the checked build).
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/job_request.h"
#include "core/machine.h"
#include "sim_test_support.h"

namespace easypp::sim {
namespace {

using testing::load;
using testing::run;

// EASY, plus one extra start of job `extra` whenever it is waiting (with only_if_idle:
// only when enough processors are idle after EASY's own starts).
class Meddling : public Policy {
 public:
  Meddling(JobId extra, bool only_if_idle)
      : inner_(make_policy("easy")), extra_(extra), only_if_idle_(only_if_idle) {}
  std::string_view name() const override { return "meddling"; }
  const PolicyTraits& traits() const override { return inner_->traits(); }
  Decision plan(const ClusterState& s) override {
    Decision d = inner_->plan(s);
    int idle = s.procs;
    for (const RunningJob& r : s.running) idle -= r.job.procs;
    int extra_procs = 0;
    for (const Job& j : s.waiting) {
      if (std::find(d.start.begin(), d.start.end(), j.id) != d.start.end()) idle -= j.procs;
      if (j.id == extra_) extra_procs = j.procs;
    }
    bool waiting = extra_procs > 0;
    bool room = !only_if_idle_ || extra_procs <= idle;
    if (waiting && room && std::find(d.start.begin(), d.start.end(), extra_) == d.start.end()) {
      d.start.push_back(extra_);
      d.backfilled.push_back(extra_);
    }
    return d;
  }

 private:
  std::unique_ptr<Policy> inner_;
  JobId extra_;
  bool only_if_idle_;
};

std::string failure(const Workload& w, Policy& p) {
  try {
    run(w, p);
  } catch (const std::logic_error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Invariants, BackfillThatDelaysTheHeadReservationIsCaught) {
  // fig1_easy.swf: at t=4 job 2 ends and job 4 (1 proc, 9 s) fits the idle processor,
  // but would end at 13, after job 3's reservation at 10 (exact estimates): EASY must not
  // start it. Forcing it in makes job 3's earliest possible start 13.
  Workload w = load("fig1_easy.swf");
  ASSERT_EQ(w.jobs[3].swf_job, 4);
  Meddling p(w.jobs[3].job.id, true);
  std::string what = failure(w, p);
  EXPECT_NE(what.find("policy meddling at t=4: backfilling delayed the head reservation of "
                      "job 3: reserved 10, earliest possible 13"),
            std::string::npos)
      << what;
}

TEST(Invariants, StartingMoreProcessorsThanTheMachineIsCaught) {
  // fig8_x2.swf: at t=1 job 3 (all 4 processors) cannot start while jobs 1 and 2 run.
  Workload w = load("fig8_x2.swf");
  Meddling p(w.jobs[2].job.id, false);
  std::string what = failure(w, p);
  EXPECT_NE(what.find("policy meddling at t=1: starts need 8 processors of 4"),
            std::string::npos)
      << what;
}

TEST(Invariants, StartingAJobTwiceIsCaught) {
  class Twice : public Policy {
   public:
    std::string_view name() const override { return "twice"; }
    const PolicyTraits& traits() const override { return inner_->traits(); }
    Decision plan(const ClusterState& s) override {
      Decision d = inner_->plan(s);
      if (!s.running.empty()) d.start.push_back(s.running.front().job.id);
      return d;
    }
    std::unique_ptr<Policy> inner_ = make_policy("easy");
  } p;
  Workload w = load("fig1_easy.swf");
  std::string what = failure(w, p);
  EXPECT_NE(what.find("which is not waiting"), std::string::npos) << what;
}

// On a machine, every resource is checked, licences (cluster-wide counts) included: a
// policy that hands a job 2 of the machine's 1 "matlab" licence is caught at its start.
TEST(Invariants, OverbookedLicencesAreCaught) {
  class Greedy : public Policy {
   public:
    std::string_view name() const override { return "greedy"; }
    const PolicyTraits& traits() const override { return inner_->traits(); }
    Decision plan(const ClusterState& s) override {
      Decision d = inner_->plan(s);
      for (auto& a : d.start_allocations) {
        auto more = std::make_shared<Allocation>(*a);
        more->licences[0] = 2;
        a = std::move(more);
      }
      return d;
    }
    std::unique_ptr<Policy> inner_ = make_policy("easy");
  } p;
  auto m = std::make_shared<Machine>();
  Node n;
  n.name = "n0";
  n.capacity[kCpu] = 8;
  m->add_node(n);
  m->add_licence({"matlab", 1});
  Workload w;
  w.trace = "hand-made";
  w.procs = 8;
  w.machine = m;
  SimJob j;
  j.job.id = 1;
  j.job.procs = 1;
  j.job.estimate = 10;
  j.runtime = 10;
  w.jobs.push_back(j);
  std::string what = failure(w, p);
  EXPECT_NE(what.find("policy greedy at t=0: licences matlab held 2 of 1"), std::string::npos)
      << what;
}

}  // namespace
}  // namespace easypp::sim
