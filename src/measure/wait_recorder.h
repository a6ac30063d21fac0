// The sweep's lean observer: only what the average wait and the average bounded slowdown
// need (each job's final start and end and its rank among terminations), so a run that
// reports those two numbers does not build the papers' full per-job outcomes.
// average() sums the same jobs in the same order as average_wait_and_bsld on an
// OutcomeRecorder's outcome of the same run, so both are bit for bit equal
// (tests/sim/test_wait_recorder.cpp).
#ifndef EASYPP_MEASURE_WAIT_RECORDER_H
#define EASYPP_MEASURE_WAIT_RECORDER_H

#include <cstdint>
#include <span>
#include <vector>

#include "measure/metrics.h"
#include "measure/run_observer.h"

namespace easypp::measure {

class WaitRecorder final : public RunObserver {
 public:
  // `submits`: each job's submit time, by workload index, in arrival order (kept by
  // reference: it must outlive the recorder). Jobs ending after the last arrival are left
  // out, as in compute_metrics.
  explicit WaitRecorder(std::span<const Time> submits);

  void event() override {}
  void arrived(std::uint32_t, const Job&, Time) override {}
  void prediction_changed(std::uint32_t, Time, Time) override {}
  void started(std::uint32_t, const Job&, Time, Time) override {}
  void ended(std::uint32_t i, const Job& job, Time start, Time now, bool killed_at_limit) override;
  void killed(std::uint32_t, const Job&, Time, Time) override {}
  void planned(const ClusterState&, const Decision&) override {}

  WaitAndSlowdown average(const MetricsOptions& options = {}) const;

 private:
  struct Ended {
    Time start = 0;
    Time end = 0;
    std::int64_t rank = -1;  // -1: never ended
  };
  std::span<const Time> submits_;
  std::vector<Ended> ended_;
  std::int64_t ends_ = 0;
};

}  // namespace easypp::measure

#endif
