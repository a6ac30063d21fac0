// The real schedule as the simulator's outcome: accounting records of a replay, times
// scaled back up by the speedup, turned into a measure::SimOutcome so the simulator's own
// metrics (measure/metrics.h) are computed on it.
#ifndef EASYPP_REPLAY_LIVE_OUTCOME_H
#define EASYPP_REPLAY_LIVE_OUTCOME_H

#include <cstdint>
#include <string>
#include <vector>

#include "core/policy.h"
#include "replay/replay_plan.h"
#include "measure/outcome.h"

namespace easypp::replay {

// One replayed job's record, real epoch seconds (as accounting gives them).
struct RealTimes {
  bool recorded = false;     // accounting had an ended record for it
  std::uint64_t slurm_job = 0;
  Time submit = 0, start = 0, end = 0;
  int end_state = 0;         // enum epp_end_state
  std::string state;         // Slurm's name
  bool backfilled = false;
  int restarts = 0;             // runs killed and requeued before the final one
  double lost_cpu_seconds = 0;  // their CPU-seconds, real time
};

struct LiveOutcome {
  measure::SimOutcome outcome;   // recorded jobs only, in plan order, trace seconds
  std::vector<std::size_t> plan_index;  // outcome.jobs[i] is plan.jobs[plan_index[i]]
  int missing = 0;           // planned jobs without an ended record
  int timeouts = 0;          // ended TIMEOUT (killed at the limit)
  int killed_before_limit = 0;  // FAILED/CANCELLED/NODE_FAIL...: ended by something else
};

// real_start: epoch second the replay treated as the slice's first submit. Real times t
// map to trace time plan.trace_start + (t - real_start) * speedup. procs of the outcome:
// plan.cluster_cpus. Prediction accuracy is reconstructed with `traits`' predictor (see
// reconstruct_accuracy).
LiveOutcome live_outcome(const ReplayPlan& plan, const std::vector<RealTimes>& real,
                         double real_start, const PolicyTraits& traits,
                         const std::string& policy_label, const std::string& trace_name);

// Prediction accuracy of a finished schedule, replayed through the policy's predictor:
// each job is predicted at its submit from the history of the jobs that ended before it,
// corrected when it outlives its prediction, and taught at its end, in time order (ends
// before submits at the same second, as in the simulator). Fills accuracy (time-weighted,
// as the simulator measures it) and corrections of every job. `estimates` are the limits
// the scheduler saw; `users` the trace users.
void reconstruct_accuracy(measure::SimOutcome& outcome, const std::vector<Time>& estimates,
                          const std::vector<UserId>& users, const PolicyTraits& traits);

}  // namespace easypp::replay

#endif
