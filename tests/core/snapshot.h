// Small builders for hand-made cluster snapshots in the core tests.
#ifndef EASYPP_TESTS_CORE_SNAPSHOT_H
#define EASYPP_TESTS_CORE_SNAPSHOT_H

#include <algorithm>

#include "core/decision.h"
#include "core/job.h"

namespace easypp::test {

// A waiting job; the estimate defaults to the prediction (plain EASY).
inline Job waiting(JobId id, int procs, Time prediction, Time estimate = 0) {
  Job j;
  j.id = id;
  j.user = static_cast<UserId>(id);
  j.procs = procs;
  j.prediction = prediction;
  j.estimate = estimate > 0 ? estimate : prediction;
  return j;
}

// A running job started at `start`, planned to end at start + prediction.
inline RunningJob running(JobId id, int procs, Time start, Time prediction, Time estimate = 0) {
  RunningJob r;
  r.job = waiting(id, procs, prediction, estimate);
  r.start = start;
  return r;
}

inline bool starts(const Decision& d, JobId id) {
  return std::find(d.start.begin(), d.start.end(), id) != d.start.end();
}
inline bool backfills(const Decision& d, JobId id) {
  return std::find(d.backfilled.begin(), d.backfilled.end(), id) != d.backfilled.end();
}

}  // namespace easypp::test

#endif
