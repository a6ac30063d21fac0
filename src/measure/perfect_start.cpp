#include "measure/perfect_start.h"

#include <algorithm>

#include "core/job_request.h"

namespace easypp::measure {

Time PerfectStart::of(const ClusterState& state, const Job& job,
                      const std::function<Time(JobId)>& real_end) {
  if (state.machine == nullptr) {
    busy_.clear();
    for (const RunningJob& rj : state.running) busy_.push_back({real_end(rj.job.id), rj.job.procs});
    profile_.reset(state.now, state.procs, busy_);
    return profile_.earliest_start(job.procs, 1);
  }
  state_.now = state.now;
  state_.procs = state.procs;
  state_.machine = state.machine;
  state_.running = state.running;
  for (RunningJob& rj : state_.running) {
    rj.job.prediction = std::max<Time>(real_end(rj.job.id) - rj.start, 1);
  }
  nodes_.reset(state_, RunningEnd::predicted);
  const JobRequest request = job.request ? *job.request : JobRequest::cpus(job.procs);
  return nodes_.earliest_start(request, 1, 1).start;
}

}  // namespace easypp::measure
