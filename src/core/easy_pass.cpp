#include "core/easy_pass.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace easypp {

void EasyPass::run(const ClusterState& state, const EasyRules& rules, Decision& decision) {
  if (rules.reservation_order == nullptr) {
    throw std::invalid_argument("EasyPass: rules.reservation_order is required");
  }
  decision = Decision{};
  head_.reset();
  started_.clear();
  reserved_.clear();
  const std::vector<Job>& waiting = state.waiting;
  if (waiting.empty()) return;

  positions_.resize(waiting.size());
  std::iota(positions_.begin(), positions_.end(), std::uint32_t{0});
  rules.reservation_order->arrange(state, positions_);
  if (state.machine != nullptr) {
    run_on_nodes(state, rules, decision);
    return;
  }
  // Several reservations (depth, or the starvation guard's) need the node plan.
  if (rules.depth > 1 || (rules.bound != nullptr && rules.bound->starving(state))) {
    // Several reservations need the node plan; one node of `procs` CPUs plans the same.
    pool_ = Machine::single_node(state.procs);
    pool_state_.now = state.now;
    pool_state_.procs = state.procs;
    pool_state_.machine = &pool_;
    pool_state_.running = state.running;
    for (RunningJob& r : pool_state_.running) {
      auto a = std::make_shared<Allocation>();
      Resources amount;
      amount[kCpu] = r.job.procs;
      a->shares.push_back({0, r.job.procs, amount});
      r.allocation = std::move(a);
    }
    pool_state_.waiting = state.waiting;
    run_on_nodes(pool_state_, rules, decision);
    decision.start_allocations.clear();
    for (Reservation& r : decision.reservations) r.allocation.reset();
    return;
  }

  int idle = state.procs;
  for (const RunningJob& r : state.running) idle -= r.job.procs;

  // Start in reservation order until the first job that does not fit now.
  std::size_t k = 0;
  for (; k < positions_.size(); ++k) {
    const Job& job = waiting[positions_[k]];
    require_plannable(job);
    ++decision.examined;
    // Wider than the domain: it can never start, so it must not block the queue.
    if (job.procs > state.procs) continue;
    if (job.procs > idle) break;
    idle -= job.procs;
    started_.push_back(positions_[k]);
    decision.start.push_back(job.id);
  }
  if (k == positions_.size()) return;

  // The head's reservation, on predicted ends of running jobs and of the jobs just
  // started (an end already past counts as now).
  const Job& head = waiting[positions_[k]];
  busy_.clear();
  for (const RunningJob& r : state.running) busy_.push_back({r.predicted_end(), r.job.procs});
  for (std::uint32_t p : started_) {
    busy_.push_back({state.now + waiting[p].prediction, waiting[p].procs});
  }
  profile_.reset(state.now, state.procs, busy_);
  const auto [shadow, initial_extra] = profile_.shadow(head.procs, head.prediction);
  int extra = initial_extra;
  head_ = Head{positions_[k], shadow, extra};
  reserved_.push_back(positions_[k]);
  decision.reservations.push_back({head.id, shadow});

  if (rules.backfill_order == nullptr || idle == 0) return;
  // The bound (head_bound.h): when the head is guarded, a backfill must also end by the
  // deadline on its kill time or fit the processors free beyond the head's need there on
  // kill times. Skipped while nothing is idle: the head's kill-time reservation cannot
  // move later without a start, so a promise taken at a later pass is no later.
  std::optional<Time> deadline;
  int kill_extra = 0;
  if (rules.bound != nullptr) {
    busy_.clear();
    for (const RunningJob& r : state.running) busy_.push_back({r.kill_time(), r.job.procs});
    for (std::uint32_t p : started_) {
      busy_.push_back({state.now + waiting[p].estimate, waiting[p].procs});
    }
    kill_profile_.reset(state.now, state.procs, busy_);
    const Time kill_start = kill_profile_.earliest_start(head.procs, head.estimate);
    deadline = rules.bound->deadline(head.id, shadow, kill_start);
    // The kill-time profile only gains processors over time, so what is free at the
    // deadline stays free.
    if (deadline) kill_extra = std::max(0, kill_profile_.free_at(*deadline) - head.procs);
  }
  std::span<std::uint32_t> candidates(positions_.data() + k + 1, positions_.size() - k - 1);
  if (rules.backfill_order != rules.reservation_order) {
    // Only jobs that fit the idle processors now can ever start in this pass (idle only
    // shrinks), so order just those: on a full machine that is a handful, not the queue.
    std::size_t fitting = 0;
    for (std::uint32_t p : candidates) {
      require_plannable(waiting[p]);
      if (waiting[p].procs <= idle) candidates[fitting++] = p;
    }
    decision.examined += static_cast<int>(candidates.size());
    candidates = candidates.first(fitting);
    std::sort(candidates.begin(), candidates.end());  // arrange() expects queue order
    rules.backfill_order->arrange(state, candidates);
  }
  const bool counted = rules.backfill_order != rules.reservation_order;
  for (std::uint32_t p : candidates) {
    if (idle == 0) break;  // nothing else can start; the rest is not examined
    const Job& job = waiting[p];
    if (!counted) {
      require_plannable(job);
      ++decision.examined;
    }
    if (job.procs > idle) continue;
    const Time runtime = rules.fit == BackfillFit::prediction ? job.prediction : job.estimate;
    const bool ends_by_shadow = runtime <= shadow - state.now;
    if (!ends_by_shadow && job.procs > extra) continue;
    const bool ends_by_deadline = !deadline || job.estimate <= *deadline - state.now;
    if (!ends_by_deadline && job.procs > kill_extra) continue;
    if (!ends_by_shadow) extra -= job.procs;  // it will still hold them at the shadow time
    if (!ends_by_deadline) kill_extra -= job.procs;  // and may at the deadline
    idle -= job.procs;
    started_.push_back(p);
    decision.start.push_back(job.id);
    decision.backfilled.push_back(job.id);
  }
}

}  // namespace easypp
