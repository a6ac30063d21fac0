// What one simulation leaves behind for the metrics: one record per job, plus the few
// whole-run numbers the metrics need. Kept apart from the engine so metrics can be
// tested on hand-made outcomes.
#ifndef EASYPP_MEASURE_OUTCOME_H
#define EASYPP_MEASURE_OUTCOME_H

#include <cstdint>
#include <string>
#include <vector>

#include "core/job.h"

namespace easypp::measure {

inline constexpr Time kUnset = -1;

struct JobOutcome {
  Time submit = 0;
  Time start = kUnset;  // start of the final run
  Time end = kUnset;    // end of the final run
  int procs = 0;
  // Runtime of the final run (what the metrics call T_r): the recorded runtime, or under
  // --runtime cap the time until the job was killed at its estimate.
  Time runtime = 0;
  bool killed_at_limit = false;  // ended by its kill time (only under --runtime cap)
  bool backfilled = false;       // its final start was a backfill
  // Position among terminations (0 = first job to end), for the warm-up exclusion.
  std::int64_t end_rank = -1;
  // Prediction accuracy weighted by how long each prediction was in effect between
  // submit and termination (paper 000 section 2), in [0, 1].
  double accuracy = 0;
  int corrections = 0;  // prediction corrections over the job's life
  Time prediction_at_start = kUnset;  // what the scheduler planned with when it started
  // First reservation any pass gave the job (kUnset: never got one).
  Time first_reservation = kUnset;
  // Heel and toe (paper 000 Table 10), for jobs that were the head (reservations[0]):
  // the earliest start with perfect knowledge of running jobs' runtimes when the job first
  // became the head, and how many passes pushed that earliest start later.
  Time first_perfect_start = kUnset;
  int pushbacks = 0;
  // Kill-and-requeue (papers 002/004): restarts, and time spent in runs that were killed.
  int restarts = 0;
  Time run_before_final = 0;
  // How the job ended (enum epp_end_state, from the SWF status): failing jobs of paper 004.
  int end_state = 0;
};

// One run that was killed and requeued (papers 002/004): which job (index into
// SimOutcome.jobs) held its processors when. The fairness checkers need every run.
struct KilledRun {
  std::uint32_t job = 0;
  Time start = 0;
  Time end = 0;
};

struct SimOutcome {
  std::string policy;
  std::string trace;
  std::string predictor;  // the predictor's canonical spec
  int procs = 0;
  std::vector<JobOutcome> jobs;  // in workload (submit) order
  Time first_submit = 0;
  Time last_arrival = 0;  // submit time of the last job
  Time last_end = 0;
  // Processor-seconds used by all runs, including killed ones; and by killed runs only.
  double busy_proc_seconds = 0;
  double lost_proc_seconds = 0;
  std::vector<KilledRun> killed_runs;  // in the order they were killed
  // Engine counters, for reports and performance checks.
  std::int64_t events = 0;
  std::int64_t passes = 0;
  double sim_seconds = 0;      // wall time of the simulation (not reading the trace)
  double sim_cpu_seconds = 0;  // CPU time of the same (less sensitive to a busy machine)
};

}  // namespace easypp::measure

#endif
