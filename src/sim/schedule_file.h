// easypp-sim --schedule: every job's schedule of one run, so two simulators' schedules can
// be diffed job by job. SWF (the archive's 18 fields, with the simulated wait, the final
// run's start and runtime, and status from how it ended) or CSV (with what the scheduler
// planned: prediction at start, corrections, backfilled, restarts).
#ifndef EASYPP_SIM_SCHEDULE_FILE_H
#define EASYPP_SIM_SCHEDULE_FILE_H

#include <string>

#include "measure/outcome.h"
#include "sim/workload.h"

namespace easypp::sim {

// The file for one policy of a run: `path` itself when the run has one policy, else with
// the policy's name before the extension (sched.csv -> sched.easy++.csv; a '/' in it becomes '_').
std::string schedule_path(const std::string& path, const std::string& policy, bool several);

// Writes the schedule (CSV when `path` ends in .csv, else SWF) atomically: a temporary
// file renamed over `path`. Throws std::runtime_error naming the path on failure.
void write_schedule(const std::string& path, const Workload& workload,
                    const measure::SimOutcome& run);

}  // namespace easypp::sim

#endif
