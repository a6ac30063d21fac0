// The one hook through which a run is measured. A driver (the simulator's event loop)
// only drives: it tells its observer what happened, and the measures (outcome_recorder.h
// for the papers' per-job outcomes) observe. Jobs are named by their index i in the
// workload, whose job ids are i + 1; `now` is the moment of the event.
#ifndef EASYPP_MEASURE_RUN_OBSERVER_H
#define EASYPP_MEASURE_RUN_OBSERVER_H

#include <cstdint>

#include "core/decision.h"
#include "core/job.h"

namespace easypp::measure {

class RunObserver {
 public:
  virtual ~RunObserver() = default;
  // An event was applied (an arrival, a termination, a prediction expiry, a wake-up).
  virtual void event() = 0;
  // Job i arrived, with the prediction the scheduler gave it.
  virtual void arrived(std::uint32_t i, const Job& job, Time now) = 0;
  // Job i's prediction changed (a correction of a running job, a re-prediction).
  virtual void prediction_changed(std::uint32_t i, Time prediction, Time now) = 0;
  // Job i started now (as `job`, its prediction then); it will end at `real_end` (what
  // only a simulator knows: heel and toe measures against it).
  virtual void started(std::uint32_t i, const Job& job, Time now, Time real_end) = 0;
  // Job i's run that started at `start` ended now; `job` as it ran (its corrections).
  // killed_at_limit: it was ended by its kill time.
  virtual void ended(std::uint32_t i, const Job& job, Time start, Time now,
                     bool killed_at_limit) = 0;
  // Job i's run that started at `start` was killed and requeued now.
  virtual void killed(std::uint32_t i, const Job& job, Time start, Time now) = 0;
  // One pass planned `decision`, already carried out: `state` is the state after its kills
  // and starts.
  virtual void planned(const ClusterState& state, const Decision& decision) = 0;
};

}  // namespace easypp::measure

#endif
