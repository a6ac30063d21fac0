#include "user_history.h"

#include <algorithm>

namespace easypp::predictor {

bool RunRing::add(const Run& run) {
  // Position: after every kept run that ended no later than this one.
  std::size_t pos = size_;
  while (pos > 0 && at(pos - 1).end > run.end) --pos;
  if (size_ == capacity_) {
    if (pos == 0) return false;  // older than all kept runs of a full ring
    // Drop the oldest: shift the window start, the insert position moves down by one.
    head_ = (head_ + 1) % kMaxWindow;
    --size_;
    --pos;
    for (std::size_t i = size_; i > pos; --i) slot(i) = slot(i - 1);
    slot(pos) = run;
    ++size_;
    return false;
  }
  for (std::size_t i = size_; i > pos; --i) slot(i) = slot(i - 1);
  slot(pos) = run;
  ++size_;
  return true;
}

std::size_t SeenIds::lower_bound(std::uint64_t id) const {
  std::size_t lo = 0, hi = size_;
  while (lo < hi) {
    std::size_t mid = (lo + hi) / 2;
    if (at(mid) < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

bool SeenIds::contains(std::uint64_t id) const {
  if (id == 0 || size_ == 0) return false;
  if (size_ == kSeenIds && id < at(0)) return true;
  std::size_t pos = lower_bound(id);
  return pos < size_ && at(pos) == id;
}

void SeenIds::insert(std::uint64_t id) {
  if (id == 0) return;
  std::size_t pos = (size_ == 0 || id > at(size_ - 1)) ? size_ : lower_bound(id);
  if (pos < size_ && at(pos) == id) return;
  if (size_ == kSeenIds) {
    if (pos == 0) return;  // below everything kept: already counts as seen
    head_ = (head_ + 1) % kSeenIds;  // forget the smallest
    --size_;
    --pos;
  }
  for (std::size_t i = size_; i > pos; --i) slot(i) = slot(i - 1);
  slot(pos) = id;
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
