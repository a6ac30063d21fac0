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
#include <vector>

#include "core/decision.h"
#include "core/job.h"
#include "core/profile.h"

namespace easypp {

class StartForecast {
 public:
  // Estimates for at most `limit` waiting jobs (priority order) that `decision` neither
  // starts nor reserves; jobs wider than the domain get none. Cost O(limit * (R + limit)).
  std::vector<Reservation> forecast(const ClusterState& state, const Decision& decision,
                                    std::size_t limit);

 private:
  AvailabilityProfile profile_;  // reused across passes
};

}  // namespace easypp

#endif
