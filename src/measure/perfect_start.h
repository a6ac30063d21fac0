// Heel and toe (paper 000 section 6): the earliest start of a job if every running job's
// real end were known, on a pool of processors or a Machine's nodes. The recorder
// measures stalls with it; the simulator's checked build tests reservations against it.
#ifndef EASYPP_MEASURE_PERFECT_START_H
#define EASYPP_MEASURE_PERFECT_START_H

#include <functional>
#include <vector>

#include "core/job.h"
#include "core/node_plan.h"
#include "core/profile.h"

namespace easypp::measure {

class PerfectStart {
 public:
  // `real_end(id)`: when running job `id` really ends.
  Time of(const ClusterState& state, const Job& job, const std::function<Time(JobId)>& real_end);

 private:
  std::vector<AvailabilityProfile::Busy> busy_;
  AvailabilityProfile profile_;
  ClusterState state_;  // the running jobs with their real ends (nodes)
  NodePlan nodes_;
};

}  // namespace easypp::measure

#endif
