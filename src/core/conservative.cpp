#include "core/conservative.h"

namespace easypp {

Decision ConservativePolicy::plan(const ClusterState& state) {
  require_pool(state, name());
  Decision decision;
  if (state.waiting.empty()) return decision;
  profile_.reset(state, RunningEnd::predicted);
  bool someone_waits = false;  // a higher-priority job did not start: later starts backfill
  for (const Job& job : state.waiting) {
    require_plannable(job);
    ++decision.examined;
    const Time start = profile_.earliest_start(job.procs, job.prediction);
    if (start == kNever) continue;  // wider than the domain
    if (start == state.now && profile_.idle_now() >= job.procs) {
      profile_.start_now(job.procs, job.prediction);
      decision.start.push_back(job.id);
      if (someone_waits) decision.backfilled.push_back(job.id);
      continue;
    }
    // Not startable: either later in the plan, or "now" only because some running job's
    // prediction has expired; either way it holds its place in the plan.
    profile_.reserve(start, job.prediction, job.procs);
    decision.reservations.push_back({job.id, start});
    someone_waits = true;
  }
  return decision;
}

}  // namespace easypp
