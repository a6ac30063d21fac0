#include "core/easy_plan.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace easypp {

void EasyPlan::begin(const ClusterState& state) {
  state_ = &state;
  pending_.reset();
  sorted_ = nullptr;
  sorted_counted_ = false;
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
  if (end == RunningEnd::predicted && state.has_predicted_ends()) sorted_ = &state.predicted_ends;
}

void EasyPlan::add_pending() {
  if (!pending_) return;
  if (sorted_ != nullptr) {
    sorted_counted_ = true;  // read in place, already sorted
    pending_.reset();
    return;
  }
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

// Before a reservation the pool's plan holds only ends (an end already past frees its
// processors now), so free processors only grow over time: the earliest start of `procs`
// is the first moment enough are free, whatever the duration -- the answer of
// AvailabilityProfile::earliest_start on these ends, found by a weighted selection in
// O(B) instead of sorting them (sorting was a tenth of a simulation).
Time EasyPlan::pool_earliest_start(int procs) {
  if (procs > state_->procs) return kNever;
  const Time now = this->now();
  if (sorted_counted_) {
    // The same answer by walking the ends in order: the running jobs' (sorted) merged
    // with this pass's starts (a few, sorted here); the first end by which enough are
    // free (an end already past counts as now).
    std::int64_t need = procs - idle_;
    if (need <= 0) return now;
    std::sort(busy_.begin(), busy_.end(),
              [](const AvailabilityProfile::Busy& a, const AvailabilityProfile::Busy& b) {
                return a.end < b.end;
              });
    auto r = sorted_->rbegin();  // earliest end first
    const auto r_end = sorted_->rend();
    auto b = busy_.begin();
    while (r != r_end || b != busy_.end()) {
      Time t;
      if (b == busy_.end() || (r != r_end && r->end <= b->end)) {
        t = r->end;
        need -= r->procs;
        ++r;
      } else {
        t = b->end;
        need -= b->procs;
        ++b;
      }
      if (need <= 0) return std::max(t, now);
    }
    return kNever;  // unreachable: every processor is free once all ends are past
  }
  auto first = busy_.begin();
  auto last = busy_.end();
  std::int64_t need = procs - idle_;
  first = std::partition(first, last, [now](const AvailabilityProfile::Busy& b) { return b.end <= now; });
  for (auto it = busy_.begin(); it != first; ++it) need -= it->procs;
  if (need <= 0) return now;
  auto weight = [](auto from, auto to) {
    std::int64_t w = 0;
    for (; from != to; ++from) w += from->procs;
    return w;
  };
  while (first != last) {
    // Median of three ends as the pivot; three-way partition around it.
    const Time a = first->end;
    const Time b = first[(last - first) / 2].end;
    const Time c = (last - 1)->end;
    const Time pivot = std::max(std::min(a, b), std::min(std::max(a, b), c));
    auto less = std::partition(first, last, [pivot](const AvailabilityProfile::Busy& x) { return x.end < pivot; });
    auto equal = std::partition(less, last, [pivot](const AvailabilityProfile::Busy& x) { return x.end == pivot; });
    const std::int64_t below = weight(first, less);
    if (below >= need) {
      last = less;
      continue;
    }
    const std::int64_t at = weight(less, equal);
    if (below + at >= need) return pivot;
    need -= below + at;
    first = equal;
  }
  return kNever;  // unreachable: every processor is free once all ends are past
}

int EasyPlan::pool_free_at(Time t) const {
  const Time until = std::max(t, now());
  int free = idle_;
  for (const AvailabilityProfile::Busy& b : busy_)
    if (b.end <= until) free += b.procs;
  if (sorted_counted_) {
    for (auto e = sorted_->rbegin(); e != sorted_->rend() && e->end <= until; ++e) {
      free += e->procs;
    }
  }
  return free;
}

EasyPlan::Slot EasyPlan::head_start(const Job& job, Time not_before, const Placement& own) {
  if (!on_nodes()) {
    add_pending();
    Time t = pool_earliest_start(job.procs);
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
    extra_ = slot.start == kNever ? 0 : pool_free_at(slot.start) - job.procs;
    return;
  }
  if (slot.start == kNever || !slot.allocation) return;
  build();
  plan_.reserve(*slot.allocation, slot.start, job.prediction);
}

int EasyPlan::extra_at(const Job& job, const Slot& slot) {
  if (slot.start == kNever) return 0;
  if (!on_nodes()) return pool_free_at(slot.start) - job.procs;
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
