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
  if (rule_.tight) guarded_ = true;
  if (!guarded_) return std::nullopt;
  if (rule_.tight) {
    const Time follow =
        kill_time_start > kNever - rule_.slack ? kNever : kill_time_start + rule_.slack;
    return std::max(kill_time_start, std::min(promise_, follow));
  }
  return std::max(promise_, kill_time_start);
}

bool HeadBound::starving(const ClusterState& state) const {
  if (rule_.fair != kNever || rule_.protect > 0) return state.waiting.size() > 1;
  if (rule_.starve == kNever) return false;
  for (const Job& job : state.waiting)
    if (state.now - job.submit >= rule_.starve) return true;
  return false;
}

int HeadBound::guard_starved(const ClusterState& state, std::span<const std::uint32_t> behind,
                             EasyPlan& kill_plan) const {
  if ((rule_.starve == kNever && rule_.protect <= 0) || !kill_plan.on_nodes()) return 0;
  int reserved = 0;
  int rank = 0;
  for (std::uint32_t p : behind) {
    Job job = state.waiting[p];
    if (!job.reservable) continue;
    const bool protected_rank = rank++ < rule_.protect;
    if (!protected_rank && (rule_.starve == kNever || state.now - job.submit < rule_.starve)) {
      if (rule_.starve == kNever) break;  // only the first `protect` are guarded
      continue;
    }
    if (!kill_plan.ever_fits(job)) continue;
    job.prediction = job.estimate;  // planned on kill times
    const EasyPlan::Slot slot = kill_plan.head_start(job);
    // One that fits now is left unreserved: its reservation would block only itself
    // (a backfill candidate checked against a plan holding its own place).
    if (slot.start == kNever || slot.start <= state.now) continue;
    kill_plan.reserve(job, slot);
    ++reserved;
  }
  return reserved;
}

int HeadBound::guard_fair(const ClusterState& state, std::span<const std::uint32_t> behind,
                          EasyPlan& kill_plan) {
  if (rule_.fair == kNever || !kill_plan.on_nodes()) return 0;
  ++pass_;
  int reserved = 0;
  for (std::uint32_t p : behind) {
    Job job = state.waiting[p];
    if (!job.reservable || !kill_plan.ever_fits(job)) continue;
    job.prediction = job.estimate;  // planned on kill times
    const EasyPlan::Slot slot = kill_plan.head_start(job);
    if (slot.start == kNever) continue;
    auto [it, fresh] = fair_.try_emplace(job.id, FairPromise{0, false, pass_});
    FairPromise& f = it->second;
    if (fresh) f.promise = slot.start > kNever - rule_.fair ? kNever : slot.start + rule_.fair;
    f.seen = pass_;
    if (slot.start > f.promise) f.guarded = true;
    // As guard_starved: one that fits now is left unreserved.
    if (!f.guarded || slot.start <= state.now) continue;
    kill_plan.reserve(job, slot);
    ++reserved;
  }
  if (fair_.size() > 2 * behind.size() + 64) {
    std::erase_if(fair_, [&](const auto& e) { return e.second.seen != pass_; });
  }
  return reserved;
}

}  // namespace easypp
