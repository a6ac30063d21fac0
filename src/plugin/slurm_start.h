// Starting a job the policy chose, the way Slurm's schedulers do: select_nodes (which
// enforces limits, QOS, reservations, features, licenses and picks the nodes), then
// launch_job for batch jobs or srun_allocate for waiting salloc/srun allocations.
// Caller holds slurmctld's locks {READ conf, WRITE job, WRITE node, READ part, READ fed}.
#ifndef EASYPP_PLUGIN_SLURM_START_H
#define EASYPP_PLUGIN_SLURM_START_H

#include <cstdint>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "plugin/slurm_api.h"

namespace easypp::plugin {

// Minutes a job starting at `start` on some of `nodes` may run before the first later
// reservation of the plan on one of them (NO_VAL: none), for a job with --time-min.
using FreeMinutes = std::function<std::uint32_t(const bitstr_t* nodes, time_t start)>;

// SLURM_SUCCESS or Slurm's error code; the job then stays pending. With `allowed` (the
// nodes the plan gave the job), every other node is added to the job's excluded nodes
// for select_nodes and the job's own exclusions are restored afterwards, as stock
// backfill's _start_job does: the job cannot take what the plan keeps for another job.
// A job with --time-min is tested first with its full limit cut to `free_minutes` on
// `allowed`, then on its minimum (slurm_time_limit.h); without either, or in an advance
// reservation: on its minimum only.
int start_job(job_record_t* job, part_record_t* partition, std::uint32_t priority,
              bool backfilled, const bitstr_t* allowed = nullptr,
              const FreeMinutes& free_minutes = {});

// One queue record of a job by name and id (pointers do not survive an unlock): where,
// and under which QOS, it may start. A job has one per record, in priority order.
struct StartChoice {
  std::string partition;
  std::uint32_t priority = 0;
  std::uint32_t qos_id = 0;  // the record's QOS (24.11; 0: the job's own)
  std::string reservation;   // the record's (several names, or MAGNETIC); empty: none
  bool magnetic = false;
};

// A partition's name ("" for none), for logs and choices.
inline std::string partition_name(const part_record_t* part) {
  return part && part->name ? part->name : "";
}

// Where, and under which QOS, a queued job may start: its queue records, by name and id
// (pointers do not survive an unlock), in priority order.
struct QueuedByName {
  std::vector<StartChoice> choices;
};

// Starts a job the plan placed on `allowed`, as stock does with the record it chose: in the
// first choice whose partition still exists, schedules and is still one of the job's
// (stock's _job_part_valid) and holds every allowed node (else the first such), with that record's priority, QOS and reservation (set on the job as
// stock backfill does: job_queue_rec_resv_list, job_queue_rec_magnetic_resv; a magnetic
// one is taken off again if the job does not start). Of that partition's records, those
// whose reservation holds every allowed node come first, then those without one. When
// select_nodes refuses a record for anything but resources (a limit of that QOS), the
// next is tried; refused for resources, the next in another reservation. `started_in` gets the partition tried last (nullptr: none
// exists any more, the result is then ESLURM_INVALID_PARTITION_NAME).
// `planned_in`, when not empty, is the partition the plan chose (a job queued in several):
// tried first, as another may refuse the same nodes (exclusive, MaxNodes, caps).
int start_job(job_record_t* job, const std::vector<StartChoice>& choices, bool backfilled,
              const bitstr_t* allowed, part_record_t** started_in,
              const FreeMinutes& free_minutes = {}, const std::string& planned_in = {});

// Stock backfill's tests of a job before it starts, after the locks were given back
// (backfill.c: _job_runnable_now, job_independent): still pending, not revoked, held or
// completing, and independent (dependencies, begin time, the array's %N throttle), none
// of which select_nodes tests. job_independent sets the job's reason when it is not.
bool still_startable(job_record_t* job);

// True when select_nodes refused for resources (busy, or the model missed something
// about the nodes); false for limits, licences, reservations and the like.
bool refused_for_resources(int rc);

}  // namespace easypp::plugin

#endif
