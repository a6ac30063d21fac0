// What a pass shows users: the start time and nodes `squeue --start` reads, and the reason
// `squeue` gives for a pending job. Written into slurmctld's job records after the plan
// was carried out. Caller holds slurmctld's job write lock and node read lock (node names).
#ifndef EASYPP_PLUGIN_SLURM_SHOW_PLAN_H
#define EASYPP_PLUGIN_SLURM_SHOW_PLAN_H

#include <cstdint>
#include <ctime>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/decision.h"
#include "core/job.h"
#include "core/job_request.h"
#include "plugin/cluster_model.h"
#include "plugin/planner.h"
#include "plugin/slurm_api.h"
#include "plugin/slurm_start.h"

namespace easypp::plugin {

// A job a limit refused under assoc_limit_stop, and the start squeue --start shows it
// (limit_wait_shown of its group).
struct LimitWait {
  std::uint32_t job = 0;
  Time shown = 0;
};

// The starts squeue was last told of, by job id. squeue -i asks only for what changed
// since its last answer (slurmctld compares last_job_update), so a pass that moves a shown
// start must move the job stamp, as stock backfill does when it moves a start later. A
// move counts from kToldSlack seconds on: a start planned behind a job the plan starts
// but select_nodes refuses creeps a second a second, and moving the stamp for each would
// make the next pass, and the next, a second apart. What squeue holds is only known while
// no one else moved the stamp: after another change it may have fetched any start between
// passes (one moved by less than the slack, or none: build_job_queue clears them), so the
// next pass moves the stamp for every start it shows. A shown start is thus at most
// kToldSlack stale, and exact after any other change to a job.
struct ToldStarts {
  static constexpr time_t kToldSlack = 60;
  std::unordered_map<std::uint32_t, time_t> start;
  time_t stamp = 0;  // last_job_update as show_plan left it
};

// The nodes of an allocation as a Slurm node bitmap (caller frees). Node indices past the
// node table are skipped.
bitstr_t* node_bitmap_of(const Allocation& allocation);

// A group's partitions joined by '+' ("cluster" when it names none), for logs.
std::string group_name(const GroupPlan& group, const ClusterModel& model);

// Shows `plan` on the pending jobs among `queued` (this round's queue, by id):
// - start time and SchedNodeList for each reserved job, then each forecast
//   (`forecasts[g]` for group g; none past its end), then each job in `limit_waits`
//   (start only: a limit, not nodes, holds it). A start is never before now + 1, and an
//   earlier start already shown in this pass is kept (build_job_queue cleared last pass's).
// - the reason of the others waiting in a group with a reservation: a reserved job waits
//   for Resources, a job behind a reserved one for Priority, a job nothing may be
//   reserved for that is ahead of every reserved job for Resources. Only reasons the
//   plugin owns are replaced (none, Resources, Priority): limits and holds stay. A changed
//   reason moves last_job_update.
// - last_job_update also moves when a start shown differs from the one `told` holds by
//   ToldStarts::kToldSlack or more, is shown for the first time, or is no longer shown on
//   a job still pending, and for any start shown or told once someone else moved it
//   since `told.stamp`; `told` then holds the starts squeue will fetch.
// Copies of an array's meta record (planned ids past 32 bits) show no reservation or
// forecast: the meta record shows the earliest (a copy refused for a limit is in
// `limit_waits` under the meta record's id). `trace`: one log line per start shown.
void show_plan(const ClusterPlan& plan, const std::vector<std::vector<Reservation>>& forecasts,
               const std::vector<LimitWait>& limit_waits, const ClusterModel& model,
               const std::unordered_map<JobId, QueuedByName>& queued, ToldStarts& told,
               time_t now, bool trace);

}  // namespace easypp::plugin

#endif
