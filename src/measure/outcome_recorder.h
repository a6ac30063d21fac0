// The papers' per-job outcomes (outcome.h), recorded by observing a run: waits and
// runtimes, time-weighted prediction accuracy, corrections, the first reservation
// (predictability), heel and toe (the head's earliest start with real ends, and how often
// passes pushed it later), backfills, restarts and lost work. metrics.h and its siblings
// compute the papers' tables from what it records.
#ifndef EASYPP_MEASURE_OUTCOME_RECORDER_H
#define EASYPP_MEASURE_OUTCOME_RECORDER_H

#include <cstdint>
#include <memory>
#include <vector>

#include "core/job_request.h"
#include "measure/outcome.h"
#include "measure/perfect_start.h"
#include "measure/run_observer.h"

namespace easypp::measure {

class OutcomeRecorder final : public RunObserver {
 public:
  // `skeleton`: what the driver knows before the run (policy, trace, procs, and per job
  // submit, procs, runtime, end_state; first_submit, last_arrival). `heel_and_toe`: also
  // track each head's earliest start on real ends (first_perfect_start, pushbacks).
  explicit OutcomeRecorder(SimOutcome skeleton, bool heel_and_toe = true);

  void event() override { ++out_.events; }
  void arrived(std::uint32_t i, const Job& job, Time now) override;
  void prediction_changed(std::uint32_t i, Time prediction, Time now) override;
  void started(std::uint32_t i, const Job& job, Time now, Time real_end) override;
  void ended(std::uint32_t i, const Job& job, Time start, Time now, bool killed_at_limit) override;
  void killed(std::uint32_t i, const Job& job, Time start, Time now) override;
  void planned(const ClusterState& state, const Decision& decision) override;

  // The outcome so far; take() hands it over at the end of the run.
  const SimOutcome& outcome() const { return out_; }
  SimOutcome take() { return std::move(out_); }

 private:
  struct Tracked {
    bool waiting = false;
    Time prediction = 0;      // current prediction
    Time accuracy_since = 0;  // when `prediction` came into effect
    double accuracy_sum = 0;  // sum of accuracy x seconds in effect
    Time real_end = kUnset;   // of the current run
    Time last_perfect_start = kUnset;
    std::shared_ptr<const JobRequest> request;  // what it asks of a Machine (null: procs CPUs)
  };
  void track_head(const ClusterState& state, JobId head, const std::vector<JobId>& backfilled_now);

  SimOutcome out_;
  bool heel_and_toe_ = true;
  std::vector<Tracked> jobs_;
  std::int64_t ends_ = 0;
  // Heel and toe: recomputed only when the head or the running set changes.
  std::uint64_t running_changes_ = 0;
  std::uint64_t head_changes_seen_ = ~std::uint64_t(0);
  JobId head_ = 0;
  Time head_perfect_start_ = kUnset;
  PerfectStart perfect_;
};

}  // namespace easypp::measure

#endif
