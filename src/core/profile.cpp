#include "core/profile.h"

#include <algorithm>

namespace easypp {

void AvailabilityProfile::reset(Time now, int total, std::span<Busy> busy) {
  std::sort(busy.begin(), busy.end(),
            [](const Busy& a, const Busy& b) { return a.end < b.end; });
  total_ = total;
  ++generation_;
  if (hints_.size() < static_cast<std::size_t>(std::max(total, 0)) + 1) {
    hints_.resize(static_cast<std::size_t>(std::max(total, 0)) + 1);
  }
  int busy_procs = 0;
  for (const Busy& b : busy) busy_procs += b.procs;
  idle_now_ = total - busy_procs;

  steps_.clear();
  int free = idle_now_;
  std::size_t i = 0;
  // Ends already past release their processors in the plan at `now`.
  for (; i < busy.size() && busy[i].end <= now; ++i) free += busy[i].procs;
  steps_.push_back({now, free});
  for (; i < busy.size(); ++i) {
    free += busy[i].procs;
    if (steps_.back().time == busy[i].end) {
      steps_.back().free = free;
    } else {
      steps_.push_back({busy[i].end, free});
    }
  }
}

void AvailabilityProfile::reset(const ClusterState& state, RunningEnd end) {
  scratch_.clear();
  for (const RunningJob& r : state.running) {
    scratch_.push_back(
        {end == RunningEnd::predicted ? r.predicted_end() : r.kill_time(), r.job.procs});
  }
  reset(state.now, state.procs, scratch_);
}

std::size_t AvailabilityProfile::step_index(Time t) const {
  // Last step with time <= t (step 0 when t is before now).
  auto it = std::upper_bound(steps_.begin(), steps_.end(), t,
                             [](Time v, const Step& s) { return v < s.time; });
  return it == steps_.begin() ? 0 : static_cast<std::size_t>(it - steps_.begin()) - 1;
}

int AvailabilityProfile::free_at(Time t) const { return steps_[step_index(t)].free; }

Time AvailabilityProfile::earliest_start(int procs, Time duration) const {
  if (procs > total_) return kNever;
  duration = std::max<Time>(duration, 1);
  Hint* hint = procs >= 1 ? &hints_[static_cast<std::size_t>(procs)] : nullptr;
  std::size_t i = hint && hint->generation == generation_ ? step_index(hint->time) : 0;
  bool hinted = false;
  while (i < steps_.size()) {
    if (steps_[i].free < procs) {
      ++i;
      continue;
    }
    const Time start = steps_[i].time;
    if (hint && !hinted) {
      *hint = Hint{generation_, start};
      hinted = true;
    }
    const Time end = start > kNever - duration ? kNever : start + duration;
    std::size_t j = i + 1;
    while (j < steps_.size() && steps_[j].time < end && steps_[j].free >= procs) ++j;
    if (j == steps_.size() || steps_[j].time >= end) return start;
    i = j + 1;  // step j is too full: no start before it can work
  }
  return kNever;  // unreachable while reservations are finite: the last step is all free
}

AvailabilityProfile::Shadow AvailabilityProfile::shadow(int procs, Time duration) const {
  const Time time = earliest_start(procs, duration);
  if (time == kNever) return {kNever, 0};
  return {time, free_at(time) - procs};
}

bool AvailabilityProfile::fits_now(int procs, Time duration) const {
  if (procs > idle_now_) return false;
  const Time end = now() + std::max<Time>(duration, 1);
  for (std::size_t j = 0; j < steps_.size() && steps_[j].time < end; ++j) {
    if (steps_[j].free < procs) return false;
  }
  return true;
}

std::size_t AvailabilityProfile::breakpoint(Time t) {
  auto it = std::lower_bound(steps_.begin(), steps_.end(), t,
                             [](const Step& s, Time v) { return s.time < v; });
  if (it != steps_.end() && it->time == t) return static_cast<std::size_t>(it - steps_.begin());
  // t > now here, so a previous step exists and its value continues at t.
  const int free = std::prev(it)->free;
  // Two statements: insert() may reallocate, so begin() must be read after it.
  const auto inserted = steps_.insert(it, Step{t, free});
  return static_cast<std::size_t>(inserted - steps_.begin());
}

void AvailabilityProfile::reserve(Time start, Time duration, int procs) {
  if (start == kNever) return;
  duration = std::max<Time>(duration, 1);
  const Time end = start > kNever - duration ? kNever : start + duration;
  start = std::max(start, now());  // the part before now is over
  if (end <= start) return;
  const std::size_t first = breakpoint(start);
  const std::size_t last = end == kNever ? steps_.size() : breakpoint(end);
  for (std::size_t k = first; k < last; ++k) steps_[k].free -= procs;
}

void AvailabilityProfile::start_now(int procs, Time duration) {
  idle_now_ -= procs;
  reserve(now(), duration, procs);
}

}  // namespace easypp
