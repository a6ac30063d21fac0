// One decision core, two drivers that only translate: the same event log through the
// simulator (events) and through the plugin's Slurm-free translation layer (Planner, fed
// cluster snapshots as slurmctld's job list would show them) must give the same
// decision at every pass: the same starts, backfills and reservations, planned on the same
// predictions and corrections, with the predictor taught the same finished jobs.
//
// The log: the first jobs of the KTH trace (bundled), on one node and on ten: the
// simulator replaying on a Machine, the plugin fed cluster snapshots (nodes, per-node
// allocations of running jobs, requests of waiting jobs) through its machine-model
// translation and one plan per pass; both must also pick the same nodes. Policies: the
// EASY family on estimates and on predictions (easy++ with history predictions,
// corrections and shortest-first backfill; x2++, whose predictor must still learn the
// user's own limit in both drivers), with a deeper reservation queue and a stateful head
// guard, SJF, conservative, LXF&W and the multiple-queue policies (mq-vd asks for
// wake-ups). Policies that kill (pv-easy, timed-run) are out of scope: the snapshots are
// built from each job's final run, which a killed run is not.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/policy.h"
#include "plugin/planner.h"
#include "plugin/cluster_model.h"
#include "sim/machine_spec.h"
#include "sim/simulator.h"
#include "sim/swf.h"
#include "sim/workload.h"

namespace easypp {
namespace {

struct Pass {
  Time now;
  ClusterState state;
  Decision decision;
};

// Plans like `inner` and records every snapshot and decision the simulator asked for.
class Recorder final : public Policy {
 public:
  explicit Recorder(std::unique_ptr<Policy> inner) : inner_(std::move(inner)) {}
  std::string_view name() const override { return inner_->name(); }
  const PolicyTraits& traits() const override { return inner_->traits(); }
  Decision plan(const ClusterState& state) override {
    Decision d = inner_->plan(state);
    passes.push_back({state.now, state, d});
    return d;
  }
  std::vector<Pass> passes;

 private:
  std::unique_ptr<Policy> inner_;
};

sim::Workload kth_slice(std::size_t jobs, const std::string& machine) {
  const std::string path =
      std::string(EASYPP_SRCDIR) + "/data/traces/KTH-SP2-1996-2.1-cln.swf.gz";
  sim::WorkloadOptions options;
  if (!machine.empty()) options.machine = std::make_shared<const Machine>(sim::parse_machine(machine));
  sim::Workload w = sim::prepare(swf::read(path), options);
  if (w.jobs.size() > jobs) w.jobs.resize(jobs);
  return w;
}

std::vector<std::uint32_t> nodes_of(const Allocation& a) {
  std::vector<std::uint32_t> out;
  for (const NodeShare& s : a.shares) out.push_back(s.node);
  return out;
}

// What the plugin's Slurm glue would read at `t` before the simulator's pass number
// `pass` (of all its passes; the first pass at or after `t` where it made none then) on
// the simulator's machine: its nodes, one partition of all of them, the jobs earlier
// passes started still running on the nodes they were given, the others that arrived
// waiting.
plugin::ClusterSnapshot cluster_at(const sim::Workload& w, const measure::SimOutcome& out, Time t,
                                   std::size_t pass, const std::vector<std::size_t>& start_pass,
                                   const std::vector<std::shared_ptr<const Allocation>>& held,
                                   const auto& record) {
  plugin::ClusterSnapshot snap;
  snap.now = t;
  plugin::PartitionRecord part;
  part.name = "batch";
  for (std::size_t n = 0; n < w.machine->nodes().size(); ++n) {
    const Node& node = w.machine->nodes()[n];
    plugin::NodeRecord r;
    r.name = node.name;
    r.cpus = static_cast<int>(node.capacity[kCpu]);
    snap.nodes.push_back(r);
    part.nodes.push_back(static_cast<std::uint32_t>(n));
  }
  snap.partitions.push_back(part);
  for (std::size_t i = 0; i < w.jobs.size(); ++i) {
    if (start_pass[i] < pass && out.jobs[i].end > t) {
      plugin::JobRecord r = record(i);
      for (const NodeShare& s : held[i]->shares)
        r.shares.push_back({s.node, static_cast<int>(s.amount[kCpu]), 0, {}});
      snap.running.push_back(r);
    }
    if (w.jobs[i].job.submit <= t && start_pass[i] >= pass) {
      plugin::JobRecord r = record(i);
      r.request.tasks = r.procs;
      r.request.min_cpus = r.procs;
      r.request.partitions = {"batch"};
      snap.waiting.push_back(r);
    }
  }
  return snap;
}

void drivers_agree(const std::string& policy_name, std::size_t jobs, const std::string& machine,
                   const sim::SimOptions& options = {}) {
  const sim::Workload w = kth_slice(jobs, machine);
  Recorder recorder(make_policy(policy_name));
  // The snapshots below are built from each job's final run (SimOutcome), which a run
  // killed and requeued is not: a policy that kills cannot be replayed here.
  ASSERT_FALSE(recorder.traits().kills) << policy_name << " kills; not replayable here";
  const measure::SimOutcome out = sim::simulate(w, recorder, options);
  const std::vector<Pass>& passes = recorder.passes;
  ASSERT_FALSE(passes.empty());

  // Which pass started each job, and where (a job that does not kill starts once).
  std::vector<std::size_t> start_pass(w.jobs.size(), SIZE_MAX);
  std::vector<std::shared_ptr<const Allocation>> held(w.jobs.size());
  for (std::size_t k = 0; k < passes.size(); ++k)
    for (std::size_t s = 0; s < passes[k].decision.start.size(); ++s) {
      const JobId id = passes[k].decision.start[s];
      ASSERT_EQ(w.jobs[id - 1].job.id, id);
      start_pass[id - 1] = k;
      held[id - 1] = passes[k].decision.start_allocations[s];
    }

  // When the plugin must look: before every pass of the simulator, and at every moment
  // the simulator corrected a prediction (a running job's predicted end), since the
  // plugin corrects at its passes only. Each look as (time, the simulator's pass number
  // then): the simulator may plan several times at one moment, not only after kills but
  // whenever a job it started has no runtime (it ends at once, and a pass follows). Each
  // of those passes is compared with a plugin pass on the cluster as that pass saw it
  // (Slurm would show the zero-length job ended and run another pass, as it does after
  // any end): running, ended and waiting jobs are told apart by the pass that started
  // them, not by their start time.
  std::vector<std::pair<Time, std::size_t>> looks;
  std::set<Time> ends;
  for (std::size_t k = 0; k < passes.size(); ++k) {
    looks.emplace_back(passes[k].now, k);
    for (const RunningJob& r : passes[k].state.running) ends.insert(r.predicted_end());
  }
  for (Time t : ends) {
    const auto next = std::lower_bound(passes.begin(), passes.end(), t,
                                       [](const Pass& p, Time v) { return p.now < v; });
    if (next == passes.end()) break;  // after the last pass: nothing left to compare
    if (next->now != t) looks.emplace_back(t, static_cast<std::size_t>(next - passes.begin()));
  }
  std::sort(looks.begin(), looks.end());

  plugin::Config config;
  config.policy = policy_name;
  plugin::Planner planner(config);
  // Finished jobs in the simulator's order: by end time; at one moment, those started
  // before it first (their ends come before its first pass), then the zero-length runs
  // of each pass in turn; then log order.
  const auto end_key = [&](std::size_t i) {
    const bool zero = out.jobs[i].start == out.jobs[i].end;
    return std::tuple(out.jobs[i].end, zero ? start_pass[i] : 0, zero, i);
  };
  std::vector<std::size_t> by_end(w.jobs.size());
  for (std::size_t i = 0; i < by_end.size(); ++i) by_end[i] = i;
  std::sort(by_end.begin(), by_end.end(),
            [&](std::size_t a, std::size_t b) { return end_key(a) < end_key(b); });
  std::size_t fed = 0;
  auto record = [&](std::size_t i) {
    plugin::JobRecord r;
    r.id = w.jobs[i].job.id;
    r.user = w.jobs[i].job.user;
    r.submit = w.jobs[i].job.submit;
    r.start = out.jobs[i].start;
    r.priority = -w.jobs[i].job.submit;  // FCFS, as the simulator orders its queue
    r.limit = w.jobs[i].job.estimate;  // the user's own limit, as Slurm shows it
    r.procs = w.jobs[i].job.procs;
    return r;
  };
  int compared = 0;
  for (const auto& [t, pass] : looks) {
    // Ended before this pass: by `t`, in a run an earlier pass started.
    for (; fed < by_end.size() && out.jobs[by_end[fed]].end <= t && start_pass[by_end[fed]] < pass;
         ++fed) {
      const std::size_t i = by_end[fed];
      plugin::FinishedJob f;
      f.job = record(i);
      f.end = out.jobs[i].end;
      f.end_state = w.jobs[i].end_state;
      planner.job_ended(f);
    }
    const plugin::ClusterSnapshot snap = cluster_at(w, out, t, pass, start_pass, held, record);
    const plugin::ClusterModel model = plugin::build_cluster_model(snap);
    const plugin::ClusterPlan plan = planner.plan_cluster(model, t);
    if (passes[pass].now != t) continue;  // a correction only
    const Pass& sim_pass = passes[pass];
    ASSERT_EQ(plan.groups.size(), 1u);
    const Decision& d = plan.groups[0].decision;
    ASSERT_EQ(plan.groups[0].state.waiting.size(), sim_pass.state.waiting.size()) << "t=" << t;
    for (std::size_t k = 0; k < sim_pass.state.waiting.size(); ++k) {
      const Job& mine = plan.groups[0].state.waiting[k];
      ASSERT_EQ(mine.id, sim_pass.state.waiting[k].id) << "t=" << t;
      ASSERT_EQ(mine.estimate, sim_pass.state.waiting[k].estimate) << "t=" << t;
      ASSERT_EQ(mine.prediction, sim_pass.state.waiting[k].prediction)
          << policy_name << " t=" << t << " job " << mine.id;
    }
    ASSERT_EQ(d.start, sim_pass.decision.start) << policy_name << " on nodes, t=" << t;
    ASSERT_EQ(d.backfilled, sim_pass.decision.backfilled) << "t=" << t;
    ASSERT_EQ(d.wake_at, sim_pass.decision.wake_at) << policy_name << " t=" << t;
    for (std::size_t k = 0; k < d.start.size(); ++k)
      ASSERT_EQ(nodes_of(*d.start_allocations[k]),
                nodes_of(*sim_pass.decision.start_allocations[k]))
          << "job " << d.start[k] << " t=" << t;
    ASSERT_EQ(d.reservations.size(), sim_pass.decision.reservations.size()) << "t=" << t;
    for (std::size_t k = 0; k < d.reservations.size(); ++k) {
      ASSERT_EQ(d.reservations[k].job, sim_pass.decision.reservations[k].job);
      ASSERT_EQ(d.reservations[k].start, sim_pass.decision.reservations[k].start) << "t=" << t;
      ASSERT_EQ(nodes_of(*d.reservations[k].allocation),
                nodes_of(*sim_pass.decision.reservations[k].allocation))
          << "t=" << t;
    }
    ++compared;
  }
  EXPECT_EQ(compared, static_cast<int>(passes.size()));
  EXPECT_GT(compared, static_cast<int>(jobs)) << "every arrival is a pass";
  if (planner.learns()) {
    EXPECT_GT(planner.history_records(), 0u);
  }
}

struct Case {
  const char* test;     // the test's name
  const char* policy;   // make_policy spec
  std::size_t jobs;     // first jobs of KTH
  const char* machine;  // sim::parse_machine spec
  bool fast_passes = false;
  // Why the drivers do not agree, when they do not: the case is skipped, kept as a record.
  const char* diverges = nullptr;
};

class DriversAgree : public ::testing::TestWithParam<Case> {};

TEST_P(DriversAgree, SameDecisionAtEveryPass) {
  const Case& c = GetParam();
  if (c.diverges) GTEST_SKIP() << c.policy << " diverges: " << c.diverges;
  sim::SimOptions options;
  options.fast_passes = c.fast_passes;
  drivers_agree(c.policy, c.jobs, c.machine, options);
}

// KTH's 100 processors as one node (the plugin plans on nodes only), or as 10 nodes of 10
// CPUs with jobs sharing nodes (the same nodes too).
constexpr const char* kOneNode = "nodes=1,cpus=100";
constexpr const char* kTenNodes = "nodes=10,cpus=10";

INSTANTIATE_TEST_SUITE_P(
    Kth, DriversAgree,
    ::testing::Values(
        // 3000 jobs: job 2452 runs for no time, so the simulator plans twice at its start.
        Case{"EasyPlusPlus", "easy++", 3000, kOneNode},
        // x2++: estimates and predictions doubled; the predictor learns the user's own limit.
        Case{"X2PlusPlusLearnsTheUsersOwnLimit", "x2++", 1500, kOneNode},
        Case{"EasyPlusPlusNodes", "easy++", 1500, kTenNodes},
        // The simulator's fast passes (SimOptions::fast_passes) tell the policy what
        // changed since its last pass; the plugin never does, so the decisions must not
        // depend on it (EasyPass::run_continued declines on a Machine).
        Case{"EasyPlusPlusFastPasses", "easy++", 1500, kTenNodes, true},
        Case{"Easy", "easy", 800, kTenNodes},
        Case{"EasySjbf", "easy-sjbf", 800, kTenNodes},
        Case{"Sjf", "sjf+", 800, kTenNodes},
        Case{"Conservative", "conservative", 800, kTenNodes},
        Case{"LxfW", "lxf-w+", 800, kTenNodes},
        // A stateful head guard: its promise is remembered across passes.
        Case{"EasyPlusPlusBoundAlways", "easy++:bound=0:guard=always", 800, kTenNodes},
        Case{"EasyPlusPlusDepth3", "easy++:depth=3", 800, kTenNodes},
        Case{"MultiQueue", "mq", 800, kTenNodes},
        // Delayed releases: the policy asks for a pass then (Decision::wake_at).
        Case{"MultiQueueVariableDelay", "mq-vd", 800, kTenNodes},
        // The delay learns from completions at their real ends (ClusterState::ended).
        // Inferred from the pass that first missed a job, as before, it diverged: the
        // plugin passes where the simulator does not (an empty queue), so jobs 324 and 326
        // were seen ended at 806444 by the plugin and 810472 by the simulator, their
        // slowdowns and so the delays differed, and at t=851879 the two asked to be woken
        // at different times.
        Case{"MultiQueueVariableDelay0", "mq-vd0", 3000, kOneNode},
        // Diverges: HeadBound::guard_fair's guard is sticky and taken at any pass where a
        // job's kill-time start is past its promise; a guarded job whose kill-time start is
        // <= now is left unreserved, so that start depends on when the pass is. The plugin's
        // pass at t=3746561 (a predicted end; the simulator passed at 3744447 and 3747418)
        // guards job 2756 (kill-time start 3768148 > promise 3767625), which the simulator
        // guards only at 3751278; the later promises of 2761 and 2764 differ with it, the
        // simulator guards 2764 at 3751278 and the plugin does not, and at t=3754467 the
        // plugin backfills job 2742, the simulator not.
        Case{"EasyPlusPlusFair", "easy++:bound=3600:fair=3600", 3000, kTenNodes, false,
             "fair-start guards are sticky and taken at whatever passes happen "
             "(HeadBound::guard_fair); the plugin passes where the simulator does not"}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.test); });

}  // namespace
}  // namespace easypp

namespace easypp {
namespace {

// One rule for which policies a configured predictor replaces the predictions of: the
// core's policy_takes_predictor, which easypp-sim --predictor follows (make_policy with
// PolicyOptions::predictor, the simulator's ledger on the policy's traits) and the plugin
// follows for easypp_predictor and the history keys. Every policy a live system runs
// (perfect++ is simulation only), pv-easy and timed-run included.
TEST(DriversAgreeOnPredictor, AConfiguredPredictorGoesToTheSamePolicies) {
  for (const std::string spec : {"learned", "history:window=3,metric=median"}) {
    for (const std::string& name : policy_names()) {
      if (name == "perfect++") continue;
      PolicyOptions options;
      if (policy_takes_predictor(name)) options.predictor = spec;
      const JobLedger simulated(make_policy(name, options)->traits(), {},
                                JobLedger::Driver::events);
      plugin::Config config;
      config.policy = name;
      config.predictor = spec;
      EXPECT_EQ(plugin::Planner(config).predictor_of(name), simulated.predictions().spec())
          << name << " with " << spec;
    }
  }
}

}  // namespace
}  // namespace easypp
