#include "core/conservative.h"

#include <memory>

namespace easypp {

Decision ConservativePolicy::plan(const ClusterState& state) {
  Decision decision;
  if (state.waiting.empty()) return decision;
  if (state.machine != nullptr) return plan_on_nodes(state);
  profile_.reset(state, RunningEnd::predicted);
  bool someone_waits = false;  // a higher-priority job did not start: later starts backfill
  for (const Job& job : state.waiting) {
    require_plannable(job);
    ++decision.examined;
    const Time start = profile_.earliest_start(job.procs, job.prediction);
    if (start == kNever) continue;  // wider than the domain
    if (start == state.now && profile_.idle_now() >= job.procs) {
      profile_.start_now(job.procs, job.prediction);
      decision.start.push_back(job.id);
      if (someone_waits) decision.backfilled.push_back(job.id);
      continue;
    }
    // Not startable: either later in the plan, or "now" only because some running job's
    // prediction has expired; either way it holds its place in the plan, unless it may not
    // be reserved (then the jobs behind it are planned as if it were not there).
    someone_waits = true;
    if (!job.reservable) continue;
    profile_.reserve(start, job.prediction, job.procs);
    decision.reservations.push_back({job.id, start});
  }
  return decision;
}

Decision ConservativePolicy::plan_on_nodes(const ClusterState& state) {
  Decision decision;
  NodePlan& plan = node_plan_;
  plan.reset(state, RunningEnd::predicted);
  bool someone_waits = false;
  for (const Job& job : state.waiting) {
    require_plannable(job);
    ++decision.examined;
    const JobRequest request = job.request ? *job.request : JobRequest::cpus(job.procs);
    if (!plan.ever_fits(request)) continue;  // never on this machine
    if (auto a = plan.place_now(request, job.prediction, job.estimate)) {
      plan.start_now(*a, job.prediction);
      decision.start.push_back(job.id);
      decision.start_allocations.push_back(std::make_shared<const Allocation>(std::move(*a)));
      if (someone_waits) decision.backfilled.push_back(job.id);
      continue;
    }
    if (!job.reservable) {
      someone_waits = true;
      continue;
    }
    NodePlan::Slot slot = plan.earliest_start(request, job.prediction, job.estimate);
    if (slot.start == kNever) continue;
    plan.reserve(slot.allocation, slot.start, job.prediction);
    decision.reservations.push_back(
        {job.id, slot.start, std::make_shared<const Allocation>(std::move(slot.allocation))});
    someone_waits = true;
  }
  return decision;
}

}  // namespace easypp
