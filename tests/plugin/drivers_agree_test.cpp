// One decision core, two drivers that only translate: the same event log through the
// simulator (events) and through the plugin's Slurm-free translation layer (Planner, fed
// cluster snapshots as slurmctld's job list would show them) must give the same
// decision at every pass: the same starts, backfills and reservations, planned on the same
// predictions and corrections, with the predictor taught the same finished jobs.
//
// The log: the first jobs of the KTH trace (bundled), under easy++ (history predictions,
// corrections, shortest-first backfill) and x2++ (estimates and predictions doubled: the
// predictor must still learn the user's own limit in both drivers), on one node and on
// ten: the simulator replaying on a Machine, the plugin fed cluster snapshots (nodes,
// per-node allocations of running jobs, requests of waiting jobs) through its
// machine-model translation and one plan per pass; both must also pick the same nodes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
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

// What the plugin's Slurm glue would read at `t` on the simulator's machine: its nodes,
// one partition of all of them, running jobs with the nodes the simulator gave them.
plugin::ClusterSnapshot cluster_at(const sim::Workload& w, const measure::SimOutcome& out, Time t,
                                   const std::map<JobId, std::shared_ptr<const Allocation>>& held,
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
    const measure::JobOutcome& o = out.jobs[i];
    if (o.start < t && o.end > t) {
      plugin::JobRecord r = record(i);
      for (const NodeShare& s : held.at(r.id)->shares)
        r.shares.push_back({s.node, static_cast<int>(s.amount[kCpu]), 0, {}});
      snap.running.push_back(r);
    }
    if (w.jobs[i].job.submit <= t && o.start >= t) {
      plugin::JobRecord r = record(i);
      r.request.tasks = r.procs;
      r.request.min_cpus = r.procs;
      r.request.partitions = {"batch"};
      snap.waiting.push_back(r);
    }
  }
  return snap;
}

void drivers_agree(const std::string& policy_name, std::size_t jobs, const std::string& machine) {
  const sim::Workload w = kth_slice(jobs, machine);
  Recorder recorder(make_policy(policy_name));
  // The snapshots below are built from each job's final run (SimOutcome), which a run
  // killed and requeued is not: a policy that kills cannot be replayed here.
  ASSERT_FALSE(recorder.traits().kills) << policy_name << " kills; not replayable here";
  const measure::SimOutcome out = sim::simulate(w, recorder);
  ASSERT_FALSE(recorder.passes.empty());

  // When the plugin must look: every pass of the simulator, and every moment the
  // simulator corrected a prediction (a running job's predicted end), since the plugin
  // corrects at its passes only.
  std::set<Time> moments;
  // The simulator's pass at each moment, null where it made several: it plans again at
  // the same moment only after a pass killed jobs (Engine::plan), and the plugin makes one
  // pass per moment on a snapshot that cannot show the killed runs, so such a moment is
  // not compared (skipped, counted below). A policy that does not kill makes one pass
  // per moment, so every pass of the cases here is compared.
  std::map<Time, const Pass*> pass_at;
  int several = 0;  // moments with several passes, not compared
  std::map<JobId, std::shared_ptr<const Allocation>> held;  // where the simulator started jobs
  for (const Pass& p : recorder.passes) {
    moments.insert(p.now);
    const auto [at, first] = pass_at.try_emplace(p.now, &p);
    if (!first && at->second) {
      at->second = nullptr;
      ++several;
    }
    for (const RunningJob& r : p.state.running) moments.insert(r.predicted_end());
    for (std::size_t k = 0; k < p.decision.start_allocations.size(); ++k)
      held[p.decision.start[k]] = p.decision.start_allocations[k];
  }

  plugin::Config config;
  config.policy = policy_name;
  plugin::Planner planner(config);
  // Finished jobs in the simulator's order: by end time, then log order.
  std::vector<std::size_t> by_end(w.jobs.size());
  for (std::size_t i = 0; i < by_end.size(); ++i) by_end[i] = i;
  std::stable_sort(by_end.begin(), by_end.end(),
                   [&](std::size_t a, std::size_t b) { return out.jobs[a].end < out.jobs[b].end; });
  std::size_t fed = 0;
  auto record = [&](std::size_t i) {
    plugin::JobRecord r;
    r.id = w.jobs[i].job.id;
    r.user = w.jobs[i].job.user;
    r.submit = w.jobs[i].job.submit;
    r.start = out.jobs[i].start;
    r.limit = w.jobs[i].job.estimate;  // the user's own limit, as Slurm shows it
    r.procs = w.jobs[i].job.procs;
    return r;
  };
  int compared = 0;
  const Time last = recorder.passes.back().now;
  for (Time t : moments) {
    if (t > last) break;
    for (; fed < by_end.size() && out.jobs[by_end[fed]].end <= t; ++fed) {
      const std::size_t i = by_end[fed];
      plugin::FinishedJob f;
      f.job = record(i);
      f.end = out.jobs[i].end;
      f.end_state = w.jobs[i].end_state;
      planner.job_ended(f);
    }
    const auto it = pass_at.find(t);
    const plugin::ClusterSnapshot snap = cluster_at(w, out, t, held, record);
    const plugin::ClusterModel model = plugin::build_cluster_model(snap);
    const plugin::ClusterPlan plan = planner.plan_cluster(model, t);
    if (it == pass_at.end() || it->second == nullptr) continue;
    const Pass& sim_pass = *it->second;
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
  EXPECT_EQ(several, 0) << "a policy that does not kill plans once per moment";
  EXPECT_GT(compared, static_cast<int>(jobs)) << "every arrival is a pass";
  EXPECT_GT(planner.history_records(), 0u);
}

// KTH's 100 processors as one node: the plugin plans on nodes only.
TEST(DriversAgree, EasyPlusPlusOnKth) { drivers_agree("easy++", 1500, "nodes=1,cpus=100"); }
TEST(DriversAgree, X2PlusPlusLearnsTheUsersOwnLimit) {
  drivers_agree("x2++", 1500, "nodes=1,cpus=100");
}
// KTH's 100 processors as 10 nodes of 10 CPUs, jobs sharing nodes: the same nodes too.
TEST(DriversAgree, EasyPlusPlusOnKthNodes) { drivers_agree("easy++", 1500, "nodes=10,cpus=10"); }

}  // namespace
}  // namespace easypp
