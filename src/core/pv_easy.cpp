#include "core/pv_easy.h"

#include <algorithm>

namespace easypp {
namespace {

// Priority is the driver's (paper 002 section 5.2 uses submission time: the simulator's
// FCFS priority). True when a has higher priority than b.
bool higher(const Job& a, const Job& b) { return higher_priority(a, b); }

}  // namespace

PvEasyPolicy::PvEasyPolicy(std::string name, PolicyTraits traits)
    : name_(std::move(name)), traits_(std::move(traits)) {
  traits_.kills = true;
}

EasyPlan& PvEasyPolicy::plan_without(const ClusterState& state, std::size_t killed) {
  killed_.assign(state.running.size(), false);
  for (std::size_t k = 0; k < killed; ++k) killed_[shadow_[k]] = true;
  trial_plan_.begin(state);
  for (std::size_t i = 0; i < state.running.size(); ++i) {
    if (!killed_[i] && !state.running[i].job.releasing)
      trial_plan_.count(state.running[i], state.running[i].predicted_end());
  }
  for (const Started& s : starts_) {
    const Job& job = state.waiting[s.position];
    trial_plan_.start(job, s.placement, state.now + job.prediction);
  }
  return trial_plan_;
}

Decision PvEasyPolicy::plan(const ClusterState& state) {
  Decision d;
  const std::vector<Job>& waiting = state.waiting;
  const Time now = state.now;
  started_.assign(waiting.size(), false);
  starts_.clear();
  plan_.begin(state);
  // A job already on its way out frees its share as soon as Slurm has cleaned up: a start
  // on it waits for that (select_nodes refuses it meanwhile), and nothing else is killed
  // for it.
  for (const RunningJob& r : state.running)
    if (!r.job.releasing) plan_.count(r, r.predicted_end());

  // 1 and 2: regular starts, then SLP for the first job that does not fit.
  std::size_t head = 0;
  for (; head < waiting.size(); ++head) {
    const Job& job = waiting[head];
    require_plannable(job);
    ++d.examined;
    if (!plan_.ever_fits(job)) continue;  // can never start: must not block
    const Time end = now + job.prediction;
    if (auto placement = plan_.fits_now(job, end)) {
      plan_.start(job, *placement, end);
      started_[head] = true;
      starts_.push_back({static_cast<std::uint32_t>(head), *placement});
      EasyPlan::record(d, job, *placement, false);
      continue;
    }
    shadow_.clear();
    // Only jobs the driver may requeue are shadow load one can kill.
    for (std::uint32_t i = 0; i < state.running.size(); ++i) {
      const Job& r = state.running[i].job;
      if (r.requeueable && !r.releasing && higher(job, r)) shadow_.push_back(i);
    }
    // Preemption would not let it start now.
    if (shadow_.empty() || !plan_without(state, shadow_.size()).fits_now(job, end)) break;
    std::sort(shadow_.begin(), shadow_.end(), [&](std::uint32_t a, std::uint32_t b) {
      return higher(state.running[b].job, state.running[a].job);
    });
    // The fewest lowest-priority shadow jobs whose kill lets the head start (more kills
    // only free more, so the answer is a prefix: binary search).
    std::size_t fails = 0;
    std::size_t fits = shadow_.size();
    while (fits - fails > 1) {
      const std::size_t mid = fails + (fits - fails) / 2;
      (plan_without(state, mid).fits_now(job, end) ? fits : fails) = mid;
    }
    const EasyPlan::Placement placement = *plan_without(state, fits).fits_now(job, end);
    for (std::size_t k = 0; k < fits; ++k) {
      const RunningJob& victim = state.running[shadow_[k]];
      if (placement && victim.allocation && victim.allocation->licences == Resources{} &&
          std::none_of(victim.allocation->shares.begin(), victim.allocation->shares.end(),
                       [&](const NodeShare& v) {
                         return std::any_of(
                             placement->shares.begin(), placement->shares.end(),
                             [&](const NodeShare& h) { return h.node == v.node; });
                       })) {
        continue;  // it holds nothing the head is placed on
      }
      d.kill_requeue.push_back(victim.job.id);
    }
    EasyPlan::record(d, job, placement, false);
    return d;  // the killed jobs are waiting again: plan anew with them in the queue
  }
  if (head == waiting.size()) return d;

  // 3: the head's reservation on the sunny load (running jobs above the head, and the
  // jobs just started), on predictions: the shadow load counts as ending now, since SLP
  // can kill it, but not a job that may not be requeued (it holds its processors).
  const Job& blocked = waiting[head];
  plan_.begin(state);
  for (const RunningJob& r : state.running) {
    if (r.job.releasing) continue;
    plan_.count(r, higher(r.job, blocked) || !r.job.requeueable ? r.predicted_end() : now);
  }
  for (const Started& s : starts_) {
    plan_.start(waiting[s.position], s.placement, now + waiting[s.position].prediction);
  }
  const EasyPlan::Slot slot = plan_.head_start(blocked);
  const Time reservation = slot.start;
  d.reservations.push_back({blocked.id, reservation, slot.allocation});
  if (plan_.full()) return d;

  // Venture backfilling, first within the reservation, nearest predicted completion first.
  candidates_.clear();
  for (std::size_t p = head + 1; p < waiting.size(); ++p) {
    require_plannable(waiting[p]);
    ++d.examined;
    if (plan_.may_fit_now(waiting[p])) candidates_.push_back(static_cast<std::uint32_t>(p));
  }
  std::stable_sort(candidates_.begin(), candidates_.end(), [&](std::uint32_t a, std::uint32_t b) {
    return waiting[a].prediction < waiting[b].prediction;
  });
  auto backfill = [&](std::uint32_t p, const EasyPlan::Placement& placement) {
    plan_.start(waiting[p], placement, now + waiting[p].prediction);
    started_[p] = true;
    EasyPlan::record(d, waiting[p], placement, true);
  };
  for (std::uint32_t p : candidates_) {
    if (plan_.full()) break;
    const Time end = now + waiting[p].prediction;
    if (end > reservation) continue;
    if (auto placement = plan_.fits_now(waiting[p], end)) backfill(p, *placement);
  }
  // 4: then by priority regardless of predictions, while processors stay idle.
  std::sort(candidates_.begin(), candidates_.end());
  for (std::uint32_t p : candidates_) {
    if (plan_.full()) break;
    if (started_[p]) continue;
    if (auto placement = plan_.fits_now(waiting[p], now + waiting[p].prediction)) {
      backfill(p, *placement);
    }
  }
  return d;
}

}  // namespace easypp
