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

}  // namespace easypp
