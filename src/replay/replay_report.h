// easypp-replay's outputs: one JSON object with the simulator's metric fields (the same
// names as easypp-sim --format json, from sim/report.h) plus the replay's own, and a
// per-job CSV. Live replays and simulated rows use the same writers, so easypp-compare
// reads both alike.
#ifndef EASYPP_REPLAY_REPLAY_REPORT_H
#define EASYPP_REPLAY_REPLAY_REPORT_H

#include <cstdint>
#include <string>
#include <vector>

#include "replay/live_outcome.h"
#include "replay/replay_plan.h"
#include "measure/metrics.h"
#include "measure/outcome.h"
#include "sim/workload.h"

namespace easypp::replay {

struct ReplaySummary {
  std::string mode;        // "live" or "sim"
  std::string scheduler;   // SchedulerType (live) or "easypp-sim"
  std::string policy;      // the policy whose predictions accuracy is measured with
  std::string predictor;   // its canonical spec
  double speedup = 1;
  int jobs_planned = 0;
  int jobs_recorded = 0;
  int missing = 0;
  int timeouts = 0;
  int killed_before_limit = 0;
  int procs_capped = 0;
  int runtime_capped = 0;
  int limits_rounded_up = 0;   // jobs whose Slurm limit exceeds the trace estimate
  double avg_wait_all_min = 0; // every recorded job (no warm-up/cool-down exclusion)
  double wall_seconds = 0;     // real duration of the replay
  double max_submit_lag = 0;   // worst lateness of an sbatch against its scaled time, s
  std::string records_from;    // "sacct", "jobcomp:PATH" or "simulator"
};

// Mean wait in minutes over all jobs of an outcome.
double mean_wait_all_min(const measure::SimOutcome& outcome);

// Metrics over every job: the simulator's definitions, but with no cool-down exclusion
// (a short slice ends most jobs after its last arrival, leaving few counted ones).
measure::Metrics metrics_all_jobs(const measure::SimOutcome& outcome,
                                  const measure::MetricsOptions& options);

// `all`: metrics_all_jobs of the same outcome, reported as all_* fields.
std::string summary_json(const measure::Metrics& metrics, const measure::Metrics& all,
                         const sim::Workload& workload, const ReplaySummary& summary);

// Per job: trace job, user, account, procs, trace-time submit/start/end (seconds since
// the slice's first submit), wait, runtime, Slurm limit (min), estimate seen (s),
// payload (s), state, backfilled, counted (in the metrics' averages), accuracy, and for
// live runs the Slurm job id and the real epoch times.
void write_jobs_csv(const std::string& path, const ReplayPlan& plan,
                    const measure::SimOutcome& outcome, const std::vector<std::size_t>& plan_index,
                    const std::vector<RealTimes>* real, const measure::MetricsOptions& options);

}  // namespace easypp::replay

#endif
