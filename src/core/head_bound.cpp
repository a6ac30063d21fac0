#include "core/head_bound.h"

#include <algorithm>

#include "core/profile.h"

namespace easypp {

std::optional<Time> HeadBound::deadline(JobId head, Time planned, Time kill_time_start) {
  if (kill_time_start == kNever) return std::nullopt;
  if (!known_ || head != head_) {
    known_ = true;
    head_ = head;
    promise_ = kill_time_start > kNever - rule_.slack ? kNever : kill_time_start + rule_.slack;
    guarded_ = false;
  }
  // Sticky: once guarded, the head stays guarded until another job is the head, so its
  // kill-time reservation never moves later again.
  if (rule_.always || planned > promise_) guarded_ = true;
  if (!guarded_) return std::nullopt;
  return std::max(promise_, kill_time_start);
}

bool HeadBound::starving(const ClusterState& state) const {
  if (rule_.starve == kNever) return false;
  for (const Job& job : state.waiting)
    if (state.now - job.submit >= rule_.starve) return true;
  return false;
}

int HeadBound::guard_starved(const ClusterState& state, std::span<const std::uint32_t> behind,
                             NodePlan& kill_plan) const {
  if (rule_.starve == kNever) return 0;
  int reserved = 0;
  for (std::uint32_t p : behind) {
    const Job& job = state.waiting[p];
    if (state.now - job.submit < rule_.starve) continue;
    const JobRequest request = job.request ? *job.request : JobRequest::cpus(job.procs);
    if (!kill_plan.ever_fits(request)) continue;
    NodePlan::Slot slot = kill_plan.earliest_start(request, job.estimate, job.estimate);
    // One that fits now is left unreserved: its reservation would block only itself
    // (a backfill candidate checked against a plan holding its own place).
    if (slot.start == kNever || slot.start <= state.now) continue;
    kill_plan.reserve(slot.allocation, slot.start, job.estimate);
    ++reserved;
  }
  return reserved;
}

}  // namespace easypp
