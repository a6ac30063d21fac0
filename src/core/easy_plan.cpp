#include "core/easy_plan.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace easypp {

void EasyPlan::begin(const ClusterState& state) {
  state_ = &state;
  pending_.reset();
  idle_ = state.procs;
  busy_.clear();
  reserved_ = false;
  shadow_ = kNever;
  extra_ = 0;
  built_ = false;
  if (state.machine != nullptr) {
    counted_.now = state.now;
    counted_.procs = state.procs;
    counted_.machine = state.machine;
    counted_.running.clear();
    counted_.waiting.clear();
  }
}

void EasyPlan::count(const RunningJob& r, Time end) {
  if (!on_nodes()) {
    idle_ -= r.job.procs;
    busy_.push_back({end, r.job.procs});
    return;
  }
  if (built_) throw std::logic_error("EasyPlan: count() after the plan was used");
  counted_.running.push_back(r);
  // The node plan reads a running job's end as start + prediction.
  counted_.running.back().job.prediction = end - r.start;
}

void EasyPlan::begin(const ClusterState& state, RunningEnd end) {
  begin(state);
  if (on_nodes()) {
    plan_.reset(state, end);
    built_ = true;
    return;
  }
  for (const RunningJob& r : state.running) idle_ -= r.job.procs;
  // Their ends join the plan only if a head is planned (most passes start what fits or
  // nothing); the profile does not depend on the order of its entries.
  pending_ = end;
}

void EasyPlan::add_pending() {
  if (!pending_) return;
  const bool predicted = *pending_ == RunningEnd::predicted;
  for (const RunningJob& r : state_->running)
    busy_.push_back({predicted ? r.predicted_end() : r.kill_time(), r.job.procs});
  pending_.reset();
}

void EasyPlan::build() {
  if (built_) return;
  plan_.reset(counted_, RunningEnd::predicted);
  built_ = true;
}

const JobRequest& EasyPlan::request_of(const Job& job) {
  if (job.request) return *job.request;
  cpu_request_ = JobRequest::cpus(job.procs);  // the papers' job: procs CPUs anywhere
  return cpu_request_;
}

bool EasyPlan::ever_fits_on_nodes(const Job& job) {
  build();
  return plan_.ever_fits(request_of(job));
}

bool EasyPlan::full_on_nodes() {
  build();
  return plan_.idle_cpus() <= 0;
}

bool EasyPlan::may_fit_now_on_nodes(const Job& job) {
  build();
  return request_of(job).min_cpus() <= plan_.idle_cpus();
}

std::optional<EasyPlan::Placement> EasyPlan::fits_now_on_nodes(const Job& job, Time end) {
  build();
  std::optional<Allocation> a = plan_.place_now(request_of(job), end - now(), job.estimate);
  if (!a) return std::nullopt;
  return std::make_shared<const Allocation>(std::move(*a));
}

bool EasyPlan::fits_at_on_nodes(const Placement& placement, Time end) {
  build();
  return plan_.fits_now(*placement, end - now());
}

bool EasyPlan::holds_now(const RunningJob& r, Time end) {
  if (!on_nodes()) return fits_pool(r.job.procs, end);
  build();
  if (!r.allocation) {
    throw std::invalid_argument("EasyPlan: running job id=" + std::to_string(r.job.id) +
                                " has no allocation on the machine's nodes");
  }
  return plan_.fits_now(*r.allocation, end - now());
}

void EasyPlan::start_on_nodes(const Placement& placement, Time end) {
  build();
  plan_.start_now(*placement, end - now());
}

void EasyPlan::keep(const RunningJob& r, Time end) { start(r.job, r.allocation, end); }

EasyPlan::Slot EasyPlan::head_start(const Job& job, Time not_before, const Placement& own) {
  if (!on_nodes()) {
    add_pending();
    profile_.reset(now(), state_->procs, busy_);
    Time t = profile_.earliest_start(job.procs, job.prediction);
    if (t < not_before) t = not_before;
    return {t, nullptr};
  }
  build();
  NodePlan::Slot slot = plan_.earliest_start(request_of(job), job.prediction, job.estimate);
  if (slot.start < not_before && own) return {not_before, own};
  if (slot.start == kNever) return {};
  return {slot.start, std::make_shared<const Allocation>(std::move(slot.allocation))};
}

void EasyPlan::reserve(const Job& job, const Slot& slot) {
  if (!on_nodes()) {
    reserved_ = true;
    shadow_ = slot.start;
    extra_ = slot.start == kNever ? 0 : profile_.free_at(slot.start) - job.procs;
    return;
  }
  if (slot.start == kNever || !slot.allocation) return;
  build();
  plan_.reserve(*slot.allocation, slot.start, job.prediction);
}

int EasyPlan::extra_at(const Job& job, const Slot& slot) {
  if (slot.start == kNever) return 0;
  if (!on_nodes()) return profile_.free_at(slot.start) - job.procs;
  build();
  std::int64_t free_cpus = 0;
  for (const NodeShare& s : slot.allocation->shares)
    free_cpus += plan_.free_at(s.node, slot.start)[kCpu] - s.amount[kCpu];
  return static_cast<int>(std::max<std::int64_t>(free_cpus, 0));
}

void EasyPlan::record(Decision& decision, const Job& job, const Placement& placement,
                      bool backfilled) {
  decision.start.push_back(job.id);
  if (placement) decision.start_allocations.push_back(placement);
  if (backfilled) decision.backfilled.push_back(job.id);
}

}  // namespace easypp
