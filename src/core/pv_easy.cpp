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

Decision PvEasyPolicy::plan(const ClusterState& state) {
  require_pool(state, name());
  Decision d;
  const std::vector<Job>& waiting = state.waiting;
  const Time now = state.now;
  int idle = state.procs;
  for (const RunningJob& r : state.running) idle -= r.job.procs;
  started_.assign(waiting.size(), false);

  // 1 and 2: regular starts, then SLP for the first job that does not fit.
  std::size_t head = 0;
  for (; head < waiting.size(); ++head) {
    const Job& job = waiting[head];
    require_plannable(job);
    ++d.examined;
    if (job.procs > state.procs) continue;  // can never start: must not block
    if (job.procs <= idle) {
      idle -= job.procs;
      started_[head] = true;
      d.start.push_back(job.id);
      continue;
    }
    shadow_.clear();
    int shadow_procs = 0;
    for (std::uint32_t i = 0; i < state.running.size(); ++i) {
      if (higher(job, state.running[i].job)) {
        shadow_.push_back(i);
        shadow_procs += state.running[i].job.procs;
      }
    }
    if (idle + shadow_procs < job.procs) break;  // preemption would not let it start now
    std::sort(shadow_.begin(), shadow_.end(), [&](std::uint32_t a, std::uint32_t b) {
      return higher(state.running[b].job, state.running[a].job);
    });
    for (std::uint32_t i : shadow_) {
      if (idle >= job.procs) break;
      d.kill_requeue.push_back(state.running[i].job.id);
      idle += state.running[i].job.procs;
    }
    d.start.push_back(job.id);
    return d;  // the killed jobs are waiting again: plan anew with them in the queue
  }
  if (head == waiting.size()) return d;

  // 3: the head's reservation on the sunny load (running jobs above the head, and the
  // jobs just started), on predictions.
  const Job& blocked = waiting[head];
  busy_.clear();
  for (const RunningJob& r : state.running) {
    if (higher(r.job, blocked)) busy_.push_back({r.predicted_end(), r.job.procs});
  }
  for (std::size_t p = 0; p < head; ++p) {
    if (started_[p]) busy_.push_back({now + waiting[p].prediction, waiting[p].procs});
  }
  profile_.reset(now, state.procs, busy_);
  const Time reservation = profile_.shadow(blocked.procs, blocked.prediction).time;
  d.reservations.push_back({blocked.id, reservation});
  if (idle == 0) return d;

  // Venture backfilling, first within the reservation, nearest predicted completion first.
  candidates_.clear();
  for (std::size_t p = head + 1; p < waiting.size(); ++p) {
    require_plannable(waiting[p]);
    ++d.examined;
    if (waiting[p].procs <= idle) candidates_.push_back(static_cast<std::uint32_t>(p));
  }
  std::stable_sort(candidates_.begin(), candidates_.end(), [&](std::uint32_t a, std::uint32_t b) {
    return waiting[a].prediction < waiting[b].prediction;
  });
  auto backfill = [&](std::uint32_t p) {
    idle -= waiting[p].procs;
    started_[p] = true;
    d.start.push_back(waiting[p].id);
    d.backfilled.push_back(waiting[p].id);
  };
  for (std::uint32_t p : candidates_) {
    if (idle == 0) break;
    if (waiting[p].procs <= idle && now + waiting[p].prediction <= reservation) backfill(p);
  }
  // 4: then by priority regardless of predictions, while processors stay idle.
  std::sort(candidates_.begin(), candidates_.end());
  for (std::uint32_t p : candidates_) {
    if (idle == 0) break;
    if (!started_[p] && waiting[p].procs <= idle) backfill(p);
  }
  return d;
}

}  // namespace easypp
