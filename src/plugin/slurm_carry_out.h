// Carrying out a pass's plan in slurmctld: the kills and requeues the policies chose, then
// each planned start through select_nodes on the planned nodes (slurm_start.h), and what a
// refusal means for the rest of the pass. Caller holds slurmctld's locks {READ conf,
// WRITE job, WRITE node, READ part, READ fed}; carry_out takes assoc_mgr's QOS read lock
// itself where it needs it (a QOS blocked by a group limit, a job choosing among QOS).
#ifndef EASYPP_PLUGIN_SLURM_CARRY_OUT_H
#define EASYPP_PLUGIN_SLURM_CARRY_OUT_H

#include <cstdint>
#include <ctime>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/job.h"
#include "plugin/cluster_model.h"
#include "plugin/planner.h"
#include "plugin/slurm_qos_block.h"
#include "plugin/slurm_show_plan.h"
#include "plugin/slurm_snapshot.h"
#include "plugin/slurm_start.h"

namespace easypp::plugin {

// What the administrator's keys say about carrying out.
struct CarryOutRules {
  int max_starts = 0;            // easypp_max_starts: starts per pass, 0 = no limit
  bool assoc_limit_stop = false;  // SchedulerParameters=assoc_limit_stop
  std::set<std::string> requeue_partitions;  // easypp_requeue_partitions
};

// What carrying out a pass did, for sdiag and the pass's log line.
struct CarryOutCounts {
  int started = 0;
  int backfilled = 0;
  int refused = 0;   // by select_nodes, after the retry on unreserved nodes
  int examined = 0;  // jobs the policies looked at (Decision::examined)
};

// Whole minutes from `start` to the first reservation of the plan, later than the plan's
// now, on one of `nodes` (whole nodes, as stock backfill's node_space; 0 if it began since
// the plan; NO_VAL: none; no nodes: 0): what a job with --time-min, in no advance
// reservation, may run there (slurm_time_limit.h). Under double booking the reservations
// the policy planned with count too, and so do the advance reservations beginning later on
// those nodes (the machine's windows), as select_nodes would refuse a limit into one.
std::uint32_t minutes_to_first_reservation(const ClusterPlan& plan, const bitstr_t* nodes,
                                           time_t start);

// Starts what the plan starts, on the planned nodes. A job select_nodes refuses for
// anything but resources (limits that depend on the allocation, reservations...) is not
// runnable now: returns true so that the cluster is planned again without it (at most
// twice more), so it idles nothing. A job refused for resources keeps, for this pass,
// what the plan gave it: no later job takes it; so does one a QOS or association limit
// holds back under assoc_limit_stop; not one nothing may be reserved for. Every job a
// limit refused under assoc_limit_stop gets a start to show in `limit_waits`.
// `not_runnable`, `blocked` and `limit_waits` carry over between the pass's rounds.
// Between starts it may yield the locks (`yield`): every job and partition is found
// again by id and name for each start anyway. `stopped`: the yield said abandon.
bool carry_out(const ClusterPlan& plan, const ClusterModel& model, const ClusterSnapshot& snap,
               const std::unordered_map<JobId, QueuedByName>& where, const CarryOutRules& rules,
               std::unordered_set<JobId>& not_runnable, QosBlock& blocked,
               std::vector<LimitWait>& limit_waits, bool trace, CarryOutCounts& counts,
               const YieldPoint& yield, bool& stopped);

}  // namespace easypp::plugin

#endif
