// EasyPass on a Machine's nodes. The same pass as on one pool of processors (easy_pass.cpp),
// with the pool's two numbers (idle processors, extra processors at the shadow time)
// replaced by the node plan: a job starts where its request fits on idle resources for
// its runtime, and reservations are planned busy on their nodes, so a backfill that
// would take anything a reservation needs, in any resource on any node, does not fit.
// On Machine::single_node(N) with CPU-only requests it makes the pool's decisions.
#include <algorithm>
#include <memory>

#include "core/easy_pass.h"

namespace easypp {

const JobRequest& EasyPass::request_of(const Job& job, std::size_t position) {
  if (job.request) return *job.request;
  // The papers' job: `procs` CPUs anywhere.
  if (cpu_requests_.size() <= position) cpu_requests_.resize(position + 1);
  cpu_requests_[position] = JobRequest::cpus(job.procs);
  return cpu_requests_[position];
}

void EasyPass::run_on_nodes(const ClusterState& state, const EasyRules& rules,
                            Decision& decision) {
  const std::vector<Job>& waiting = state.waiting;
  NodePlan& plan = node_plan_;
  plan.reset(state, RunningEnd::predicted);
  const int depth = std::max(1, rules.depth);

  auto start = [&](std::uint32_t p, Allocation allocation, Time runtime, bool backfilled) {
    const Job& job = waiting[p];
    plan.start_now(allocation, runtime);
    started_.push_back(p);
    decision.start.push_back(job.id);
    decision.start_allocations.push_back(std::make_shared<const Allocation>(std::move(allocation)));
    if (backfilled) decision.backfilled.push_back(job.id);
  };

  // Start in reservation order until the first job that does not fit now; then the
  // first `depth` blocked jobs get reservations, and the jobs among them that fit
  // without delaying an earlier reservation start (they are backfilled).
  std::size_t k = 0;
  for (; k < positions_.size() && static_cast<int>(reserved_.size()) < depth; ++k) {
    const std::uint32_t p = positions_[k];
    const Job& job = waiting[p];
    require_plannable(job);
    ++decision.examined;
    const JobRequest& request = request_of(job, p);
    // Never satisfiable on this machine: it must not block the queue.
    if (!plan.ever_fits(request)) continue;
    if (auto a = plan.place_now(request, job.prediction, job.estimate)) {
      start(p, std::move(*a), job.prediction, !reserved_.empty());
      continue;
    }
    NodePlan::Slot slot = plan.earliest_start(request, job.prediction, job.estimate);
    if (slot.start == kNever) continue;  // windows keep it off every node for good
    if (reserved_.empty()) {
      std::int64_t free_cpus = 0;
      for (const NodeShare& s : slot.allocation.shares)
        free_cpus += plan.free_at(s.node, slot.start)[kCpu] - s.amount[kCpu];
      head_ = Head{p, slot.start, static_cast<int>(std::max<std::int64_t>(free_cpus, 0))};
    }
    plan.reserve(slot.allocation, slot.start, job.prediction);
    reserved_.push_back(p);
    decision.reservations.push_back(
        {job.id, slot.start, std::make_shared<const Allocation>(std::move(slot.allocation))});
  }
  if (reserved_.empty() || k == positions_.size()) return;

  if (rules.backfill_order == nullptr || plan.idle_cpus() == 0) return;
  // The bound (head_bound.h), as on the pool: the guarded head is reserved at its deadline
  // in a kill-time plan, and a backfill must fit there too (on the nodes the predicted
  // plan chose; a placement only the kill-time plan would allow is not searched for).
  bool guarded = false;
  if (rules.bound != nullptr && head_) {
    const Job& head = waiting[head_->position];
    kill_plan_.reset(state, RunningEnd::kill_time);
    for (std::size_t i = 0; i < started_.size(); ++i)
      kill_plan_.start_now(*decision.start_allocations[i], waiting[started_[i]].estimate);
    NodePlan::Slot slot = kill_plan_.earliest_start(request_of(head, head_->position),
                                                    head.estimate, head.estimate);
    if (auto deadline = rules.bound->deadline(head.id, head_->shadow, slot.start)) {
      // Before any reservation the kill-time plan only gains resources over time, so the
      // nodes free at the kill-time start stay free at a later deadline.
      kill_plan_.reserve(slot.allocation, *deadline, head.estimate);
      guarded = true;
    }
    const std::span<const std::uint32_t> behind(positions_.data() + k, positions_.size() - k);
    if (rules.bound->guard_starved(state, behind, kill_plan_) > 0) guarded = true;
  }
  std::span<std::uint32_t> candidates(positions_.data() + k, positions_.size() - k);
  if (rules.backfill_order != rules.reservation_order) {
    // Only jobs whose CPUs fit the idle CPUs now can start in this pass (idle only
    // shrinks), so order just those.
    std::size_t fitting = 0;
    for (std::uint32_t p : candidates) {
      require_plannable(waiting[p]);
      if (request_of(waiting[p], p).min_cpus() <= plan.idle_cpus()) candidates[fitting++] = p;
    }
    decision.examined += static_cast<int>(candidates.size());
    candidates = candidates.first(fitting);
    std::sort(candidates.begin(), candidates.end());  // arrange() expects queue order
    rules.backfill_order->arrange(state, candidates);
  }
  const bool counted = rules.backfill_order != rules.reservation_order;
  for (std::uint32_t p : candidates) {
    if (plan.idle_cpus() == 0) break;  // nothing else can start; the rest is not examined
    const Job& job = waiting[p];
    if (!counted) {
      require_plannable(job);
      ++decision.examined;
    }
    const JobRequest& request = request_of(job, p);
    if (request.min_cpus() > plan.idle_cpus()) continue;
    const Time runtime = rules.fit == BackfillFit::prediction ? job.prediction : job.estimate;
    if (auto a = plan.place_now(request, runtime, job.estimate)) {
      if (guarded) {
        if (!kill_plan_.fits_now(*a, job.estimate)) continue;
        kill_plan_.start_now(*a, job.estimate);
      }
      start(p, std::move(*a), runtime, true);
    }
  }
}

}  // namespace easypp
