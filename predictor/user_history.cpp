#include "user_history.h"

#include <algorithm>

namespace easypp::predictor {

bool RunRing::add(const Run& run) {
  // Position: after every kept run that ended no later than this one.
  std::size_t pos = size_;
  while (pos > 0 && at(pos - 1).end > run.end) --pos;
  if (size_ == capacity_) {
    if (pos == 0) return false;  // older than all kept runs of a full ring
    const std::int64_t dropped = tracked_ ? at(0).runtime : 0;
    // Drop the oldest: shift the window start, the insert position moves down by one.
    head_ = head_ + 1 == capacity_ ? 0 : head_ + 1;
    --size_;
    --pos;
    for (std::size_t i = size_; i > pos; --i) slot(i) = slot(i - 1);
    slot(pos) = run;
    ++size_;
    if (tracked_) {
      runtime_sum_ += run.runtime - dropped;
      if (run.runtime >= max_runtime_) {
        max_runtime_ = run.runtime;
      } else if (dropped == max_runtime_) {
        max_runtime_ = run.runtime;
        for (const Run& r : runs_) max_runtime_ = std::max(max_runtime_, r.runtime);
      }
    }
    return false;
  }
  if (runs_.size() == size_) {  // not full, so head_ == 0: one more slot at the end
    if (runs_.size() == runs_.capacity()) runs_.reserve(std::min(capacity_, std::max<std::size_t>(2, 2 * size_)));
    runs_.emplace_back();
  }
  for (std::size_t i = size_; i > pos; --i) slot(i) = slot(i - 1);
  slot(pos) = run;
  if (tracked_) {
    runtime_sum_ += run.runtime;
    max_runtime_ = size_ == 0 ? run.runtime : std::max(max_runtime_, run.runtime);
  }
  ++size_;
  return true;
}

void RunRing::track_runtimes() {
  tracked_ = true;
  runtime_sum_ = 0;
  max_runtime_ = size_ == 0 ? 0 : runs_[0].runtime;
  for (std::size_t i = 0; i < size_; ++i) {
    runtime_sum_ += runs_[i].runtime;
    max_runtime_ = std::max(max_runtime_, runs_[i].runtime);
  }
}

std::int64_t RunRing::capped_runtime_sum(std::int64_t cap) const {
  // No kept run is longer than the cap (the usual case): the sum kept up by add(), without
  // reading the runs (with many users they are not in cache).
  if (tracked_ && (size_ == 0 || cap >= max_runtime_)) return runtime_sum_;
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < size_; ++i) sum += std::min(cap, runs_[i].runtime);
  return sum;
}

bool SeenJobs::contains(std::uint64_t id, std::int64_t end) const {
  if (id == 0) return false;
  if (size_ == kSeenIds && end <= end_at(0)) return true;  // ties too: an evicted id may share it
  if (id > high_water_) return false;  // the usual case: a job newer than all learnt
  bool found = false;
  for (const Job& kept : jobs_) found |= kept.id == id;
  return found;
}

void SeenJobs::insert(std::uint64_t id, std::int64_t end) {
  if (id == 0) return;
  high_water_ = std::max(high_water_, id);
  // Position: after every kept job that ended no later than this one.
  std::size_t pos = size_;
  while (pos > 0 && end_at(pos - 1) > end) --pos;
  if (size_ == kSeenIds) {
    if (pos == 0) return;  // older than everything kept: already counts as known
    jobs_[head_].id = 0;
    head_ = (head_ + 1) % kSeenIds;  // forget the oldest
    --size_;
    --pos;
  } else if (jobs_.size() == size_) {  // not full, so head_ == 0: one more slot at the end
    jobs_.emplace_back();
  }
  for (std::size_t i = size_; i > pos; --i) jobs_[(head_ + i) % kSeenIds] = jobs_[(head_ + i - 1) % kSeenIds];
  jobs_[(head_ + pos) % kSeenIds] = Job{id, end};
  ++size_;
}

const RunRing* UserHistory::runs_with_estimate(std::int64_t estimate) const {
  for (const auto& e : by_estimate)
    if (e.estimate == estimate) return &e.runs;
  return nullptr;
}

void UserHistory::add_by_estimate(const Run& run, std::size_t window) {
  for (auto& e : by_estimate)
    if (e.estimate == run.estimate) {
      e.runs.add(run);
      e.last_used = learn_seq;
      return;
    }
  if (by_estimate.size() == kMaxEstimates) {
    auto oldest = std::min_element(by_estimate.begin(), by_estimate.end(),
                                   [](const EstimateRuns& a, const EstimateRuns& b) { return a.last_used < b.last_used; });
    by_estimate.erase(oldest);
  }
  EstimateRuns fresh{run.estimate, learn_seq, RunRing(window)};
  fresh.runs.add(run);
  by_estimate.push_back(fresh);
}

}  // namespace easypp::predictor
