// A pending job's time limit as Slurm's schedulers resolve it, and --time-min ("the job
// may have its --time limit lowered to a value no lower than --time-min if doing so
// permits the job to begin execution earlier", sbatch(1)).
// Stock backfill (22.05 backfill.c:2228, 24.11 :2638) tests such a job on its minimum and
// plans it so; sched/easypp plans it so too (planned_limit_minutes). Started, stock's
// keeps its minimum (comp_time_limit is the minimum, and _reset_job_time_limit only
// lowers it; t_live_time_min: 5 of 60 min). sched/easypp first tests it with as much of
// its limit as the plan's later reservations, and the advance reservations, on the nodes
// it may take allow (start_limit_minutes), then on its minimum: select_nodes checks
// limits, advance reservations and accounting with the limit the job runs with, and
// slurmdbd records it.
#ifndef EASYPP_PLUGIN_SLURM_TIME_LIMIT_H
#define EASYPP_PLUGIN_SLURM_TIME_LIMIT_H

#include <cstdint>
#include <ctime>

#include "plugin/slurm_api.h"

namespace easypp::plugin {

// The job's own limit in minutes, else the partition's DefaultTime, else its MaxTime;
// never above MaxTime (INFINITE: none).
std::uint32_t full_limit_minutes(const job_record_t* job, const part_record_t* part);

// True for a job with --time-min below `full_minutes` and no --deadline (stock then plans
// on the deadline instead).
bool tested_on_time_min(const job_record_t* job, std::uint32_t full_minutes);

// What the plan takes as the job's limit: the minimum where tested_on_time_min, else the
// full limit.
std::uint32_t planned_limit_minutes(const job_record_t* job, const part_record_t* part);

// The limit a job tested on its minimum is first tried with: `full_minutes` cut to
// `free_minutes` (until the first later reservation of the plan on the nodes it may take;
// NO_VAL: none), never below its minimum.
std::uint32_t start_limit_minutes(const job_record_t* job, std::uint32_t full_minutes,
                                  std::uint32_t free_minutes);

// A --deadline job's limit at `now`: `full_minutes` cut to the whole minutes left before
// `deadline` (Slurm's schedulers: (deadline - now) / 60).
std::uint32_t limit_to_deadline(std::uint32_t full_minutes, time_t deadline, time_t now);

// True when select_nodes refused for something a shorter limit may pass: a limit on run
// time (accounting) or an advance reservation (busy or excluded nodes).
bool shorter_may_start(int rc);

}  // namespace easypp::plugin

#endif
