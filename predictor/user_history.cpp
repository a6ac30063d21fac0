#include "user_history.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace easypp::predictor {
namespace {

// Where an entry ending at `end` goes in a buffer of `size` entries ordered by end time:
// after every kept one that ended no later (ties keep arrival order). `newest_end`, when
// known (a non-empty buffer that keeps it), answers the usual arrival, the newest end,
// without reading the buffer (with many users it is not in cache); end_at(i) otherwise.
template <class EndAt>
std::size_t end_ordered_position(std::size_t size, const std::int64_t* newest_end, std::int64_t end, EndAt end_at) {
  std::size_t pos = size;
  if (size > 0 && newest_end != nullptr && end >= *newest_end) return pos;
  while (pos > 0 && end_at(pos - 1) > end) --pos;
  return pos;
}

}  // namespace

bool RunRing::add(const Run& run) {
  return add(run, logs_tracked_ ? std::log1p(static_cast<double>(run.runtime)) : 0.0);
}

bool RunRing::add(const Run& run, double runtime_log1p) {
  std::size_t pos = end_ordered_position(size_, tracked_ ? &newest_end_ : nullptr, run.end,
                                         [this](std::size_t i) { return at(i).end; });
  if (size_ == capacity_) {
    if (pos == 0) return false;  // older than all kept runs of a full ring
    const std::int64_t dropped = tracked_ ? runtimes_[index(0)] : 0;
    // Drop the oldest: shift the window start, the insert position moves down by one.
    head_ = head_ + 1 == capacity_ ? 0 : head_ + 1;
    --size_;
    --pos;
    put(pos, run);
    ++size_;
    if (tracked_) {
      runtime_sum_ += run.runtime - dropped;
      if (run.runtime >= max_runtime_) {
        max_runtime_ = run.runtime;
      } else if (dropped == max_runtime_) {
        max_runtime_ = run.runtime;
        for (const std::int64_t r : runtimes_) max_runtime_ = std::max(max_runtime_, r);
      }
      track_newest(pos, run, runtime_log1p);
    }
    return false;
  }
  if (runs_.size() == size_) {  // not full, so head_ == 0: one more slot at the end
    make_room();  // both vectors, before either grows: they stay slot for slot if it throws
    runs_.emplace_back();
    if (tracked_) runtimes_.emplace_back();
  }
  put(pos, run);
  if (tracked_) {
    runtime_sum_ += run.runtime;
    max_runtime_ = size_ == 0 ? run.runtime : std::max(max_runtime_, run.runtime);
  }
  ++size_;
  if (tracked_) track_newest(pos, run, runtime_log1p);
  return true;
}

void RunRing::make_room() {
  if (size_ == capacity_ || runs_.size() > size_) return;  // add() overwrites a slot
  const std::size_t grown = std::min(capacity_, std::max<std::size_t>(2, 2 * size_));
  if (runs_.size() == runs_.capacity()) runs_.reserve(grown);
  if (tracked_ && runtimes_.size() == runtimes_.capacity()) runtimes_.reserve(grown);
}

void RunRing::put(std::size_t pos, const Run& run) {
  for (std::size_t i = size_; i > pos; --i) slot(i) = slot(i - 1);
  slot(pos) = run;
  if (!tracked_) return;
  for (std::size_t i = size_; i > pos; --i) runtimes_[index(i)] = runtimes_[index(i - 1)];
  runtimes_[index(pos)] = run.runtime;
}

void RunRing::track_newest(std::size_t pos, const Run& run, double runtime_log1p) {
  // The newest runs are a window on the end-ordered ring: the run goes in at its place
  // among them (k = 0, the newest, usually), the ones after it move down by one, and the
  // runs are not read (a dropped oldest run is never among the newest of a full ring
  // larger than the window; in a smaller one it falls off the end).
  const std::size_t k = size_ - 1 - pos;
  if (k >= kNewestKept) return;
  for (std::size_t i = kNewestKept - 1; i > k; --i) {
    newest_runtimes_[i] = newest_runtimes_[i - 1];
    newest_logs_[i] = newest_logs_[i - 1];
  }
  newest_runtimes_[k] = run.runtime;
  newest_logs_[k] = runtime_log1p;
  if (k == 0) newest_end_ = run.end;
}

void RunRing::track_runtimes(bool logs) {
  tracked_ = true;
  logs_tracked_ = logs;
  runtimes_.clear();
  for (const Run& r : runs_) runtimes_.push_back(r.runtime);  // slot for slot
  runtime_sum_ = 0;
  max_runtime_ = size_ == 0 ? 0 : runs_[0].runtime;
  for (std::size_t i = 0; i < size_; ++i) {
    runtime_sum_ += runs_[i].runtime;
    max_runtime_ = std::max(max_runtime_, runs_[i].runtime);
  }
  for (std::size_t i = 0; i < kNewestKept && i < size_; ++i) {
    newest_runtimes_[i] = at(size_ - 1 - i).runtime;
    newest_logs_[i] = logs ? std::log1p(static_cast<double>(newest_runtimes_[i])) : 0.0;
  }
  if (size_ > 0) newest_end_ = newest().end;
}

std::int64_t RunRing::capped_runtime_sum(std::int64_t cap) const {
  // No kept run is longer than the cap (the usual case): the sum kept up by add(), without
  // reading the runs (with many users they are not in cache).
  if (tracked_ && (size_ == 0 || cap >= max_runtime_)) return runtime_sum_;
  std::int64_t sum = 0;
  if (tracked_) {
    for (const std::int64_t r : runtimes_) sum += std::min(cap, r);  // 8 bytes a run, not 40
  } else {
    for (std::size_t i = 0; i < size_; ++i) sum += std::min(cap, runs_[i].runtime);
  }
  return sum;
}

bool SeenJobs::contains(std::uint64_t id, std::int64_t end) const {
  if (id == 0) return false;
  // A job ending after the newest kept one (the usual case) ends after the oldest too: the
  // buffer is read only otherwise.
  if (size_ == kSeenIds && end <= newest_end_ && end <= end_at(0)) return true;  // ties too: an evicted id may share it
  if (id > high_water_) return false;  // the usual case: a job newer than all learnt
  bool found = false;
  for (const Job& kept : jobs_) found |= kept.id == id;
  return found;
}

bool SeenJobs::has_id(std::uint64_t id) const {
  if (id == 0 || id > high_water_) return false;
  for (const Job& kept : jobs_)
    if (kept.id == id) return true;
  return false;
}

void SeenJobs::make_room() {
  // Doubling, as emplace_back would (1, 2, 4, ..., kSeenIds).
  if (size_ < kSeenIds && jobs_.size() == size_ && jobs_.size() == jobs_.capacity())
    jobs_.reserve(std::min(kSeenIds, std::max<std::size_t>(1, 2 * size_)));
}

void SeenJobs::insert(std::uint64_t id, std::int64_t end) {
  if (id == 0) return;
  make_room();  // the only allocation, before anything changes
  high_water_ = std::max(high_water_, id);
  std::size_t pos = end_ordered_position(size_, &newest_end_, end, [this](std::size_t i) { return end_at(i); });
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
  if (pos == size_ - 1) newest_end_ = end;
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
  // Made before the oldest is dropped (it allocates); after a drop push_back does not.
  EstimateRuns fresh{run.estimate, learn_seq, RunRing(window)};
  fresh.runs.add(run);
  if (by_estimate.size() == kMaxEstimates) {
    auto oldest = std::min_element(by_estimate.begin(), by_estimate.end(),
                                   [](const EstimateRuns& a, const EstimateRuns& b) { return a.last_used < b.last_used; });
    by_estimate.erase(oldest);
  }
  by_estimate.push_back(std::move(fresh));
}

}  // namespace easypp::predictor
