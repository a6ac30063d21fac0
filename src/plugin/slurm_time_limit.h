// A pending job's time limit as Slurm's schedulers resolve it, and --time-min ("the job
// may have its --time limit lowered to a value no lower than --time-min if doing so
// permits the job to begin execution earlier", sbatch(1)).
// Stock backfill (22.05 backfill.c:2228, 24.11 :2638) tests such a job on its minimum and
// plans it so; sched/easypp does the same (planned_limit_minutes, start_job). Once the
// job started, stock sets its limit to comp_time_limit, which for such a job is the
// minimum itself, and _reset_job_time_limit only lowers it: the job runs with its
// minimum (t_live_time_min: 5 of 60 min). sched/easypp gives it as much of its own limit
// as the plan's later reservations on its nodes allow, never below the minimum, as the
// documentation describes (raise_time_limit).
// Callers hold slurmctld's job write lock.
#ifndef EASYPP_PLUGIN_SLURM_TIME_LIMIT_H
#define EASYPP_PLUGIN_SLURM_TIME_LIMIT_H

#include <cstdint>

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

// After a job tested on its minimum started: its limit becomes `full_minutes`, cut to
// `free_minutes` (until the first later reservation on its nodes; NO_VAL: none) but
// never below the minimum. Accounting's running-time charge (acct_policy_alter_job), the
// end time and advance reservations (job_time_adj_resv) follow, as in stock backfill.
// Returns the limit the job got.
std::uint32_t raise_time_limit(job_record_t* job, std::uint32_t full_minutes,
                               std::uint32_t free_minutes);

}  // namespace easypp::plugin

#endif
