#include "measure/wait_recorder.h"

namespace easypp::measure {

WaitRecorder::WaitRecorder(std::span<const Time> submits)
    : submits_(submits), ended_(submits_.size()) {}

void WaitRecorder::ended(std::uint32_t i, const Job& /*job*/, Time start, Time now,
                         bool /*killed_at_limit*/) {
  ended_[i] = Ended{start, now, ends_++};
}

WaitAndSlowdown WaitRecorder::average(const MetricsOptions& options) const {
  // The last arrival as the simulator's outcome has it (its workload's last submit).
  WaitAndSlowdownSum sum(ended_.size(), submits_.empty() ? 0 : submits_.back(), options);
  // A job's final run lasts its runtime under the run's runtime mode (what OutcomeRecorder
  // records as JobOutcome::runtime), so end - start stands for it. Jobs that never ended
  // (rank -1) are not counted, whatever their times.
  for (std::size_t i = 0; i < ended_.size(); ++i) {
    const Ended& e = ended_[i];
    sum.add(submits_[i], e.start, e.end, e.end - e.start, e.rank);
  }
  return sum.result();
}

}  // namespace easypp::measure
