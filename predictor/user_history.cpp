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

bool SeenIds::contains(std::uint64_t id) const {
  if (id == 0) return false;
  if (ids_.size() == kSeenIds && id < ids_.front()) return true;
  return std::binary_search(ids_.begin(), ids_.end(), id);
}

void SeenIds::insert(std::uint64_t id) {
  if (id == 0) return;
  if (ids_.empty() || id > ids_.back()) {
    ids_.push_back(id);  // the usual case: ids grow over time
  } else {
    auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
    if (it != ids_.end() && *it == id) return;
    ids_.insert(it, id);
  }
  if (ids_.size() > kSeenIds) ids_.erase(ids_.begin());
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
