// Start estimates for the waiting jobs a pass neither starts nor reserves (what squeue
// --start shows for them). EASY reserves only the head; users still want a time for the
// rest. Each such job, in priority order, is placed at its earliest start in a plan that
// holds the running jobs (predicted ends), the pass's starts and the policy's own
// reservations, as conservative backfilling would place it. An estimate, not a promise:
// later passes may backfill other jobs ahead of it, and predictions get corrected.
// Read-only with respect to the decision: it never changes what starts.
#ifndef EASYPP_CORE_START_FORECAST_H
#define EASYPP_CORE_START_FORECAST_H

#include <cstddef>
#include <unordered_map>
#include <vector>

#include "core/decision.h"
#include "core/job.h"
#include "core/node_plan.h"
#include "core/profile.h"

namespace easypp {

class StartForecast {
 public:
  // Estimates for at most `limit` waiting jobs (priority order) that `decision` neither
  // starts nor reserves; jobs wider than the domain get none. Cost O(limit * (R + limit));
  // on a Machine, each job is placed on nodes (the estimate carries them too).
  std::vector<Reservation> forecast(const ClusterState& state, const Decision& decision,
                                    std::size_t limit);

 private:
  std::vector<Reservation> forecast_on_nodes(const ClusterState& state,
                                             const Decision& decision,
                                             std::unordered_map<JobId, Time>& planned,
                                             std::size_t limit);
  AvailabilityProfile profile_;  // reused across passes
  NodePlan plan_;
};

}  // namespace easypp

#endif
