// Reading slurmctld's job, node and partition records into the plugin's plain snapshot
// (snapshot.h). Callers hold slurmctld's locks {READ conf, WRITE job, WRITE node,
// READ part, READ fed}.
#ifndef EASYPP_PLUGIN_SLURM_SNAPSHOT_H
#define EASYPP_PLUGIN_SLURM_SNAPSHOT_H

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "plugin/slurm_api.h"
#include "plugin/snapshot.h"

namespace easypp::plugin {

// What a reader of many records gets from a yield point, called between records: the
// locks were kept (none), or given back to slurmctld for a while and taken again
// (yielded: job pointers read before may dangle, so the reader finds its jobs again by
// id), or the pass must stop (abandon: partitions or configuration changed, or slurmctld
// is stopping; partition pointers may dangle).
enum class Yield { none, yielded, abandon };
using YieldPoint = std::function<Yield()>;

// One eligible queue record from build_job_queue, in priority order: a (job, partition)
// pair, from 24.11 a (job, partition, QOS) triple for a job requesting several QOS; a job
// with several reservations (or magnetic ones) has a record per reservation too.
struct QueuedJob {
  job_record_t* job = nullptr;
  std::uint32_t priority = 0;  // the job's priority in this partition (and QOS)
  part_record_t* partition = nullptr;
  std::uint32_t qos_id = 0;  // the record's QOS (24.11), to set before a start; 0: none
  // The record's reservation (one of --reservation=a,b, or a MAGNETIC one for a job that
  // named none), read while it was valid; empty: none.
  std::string reservation;
  bool magnetic = false;
  // Nothing may be reserved for it, as stock backfill reserves nothing: its QOS has the
  // NoReserve flag, or it is under bf_min_prio_reserve (or its QOS's MinPrioThreshold)
  // or bf_min_age_reserve.
  bool no_reserve = false;
};

struct PartitionQueue {
  part_record_t* partition = nullptr;
  std::vector<QueuedJob> jobs;
};

struct JobQueue {
  // In part_list order, only those with jobs; heterogeneous job components left out.
  std::vector<PartitionQueue> partitions;
  std::vector<QueuedJob> all;  // every kept record, priority order, het components too
  int length = 0;                          // queue records before the per-partition cap
  int not_runnable = 0;  // records left out for QOS/association limits or licences
  bool abandoned = false;  // the yield point said abandon: the rest is incomplete
  long build_usec = 0;     // the queue built and sorted, yields included (wall time)
  long sort_usec = 0;      // its sort (one hold)
};

// build_job_queue + sort_job_queue (as slurm_job_queue.h builds them, in slices): the
// jobs Slurm's own schedulers would consider (holds, dependencies, begin times and
// partition limits already filtered), less those not runnable now for QOS/association
// limits (acct_policy_job_runnable_pre_select and _post_select, which set their reason)
// or licences (see `licence_blocked`), at most `max_per_partition` per partition (records past it unchecked). Limits are checked with each record's QOS
// (24.11): a job whose first QOS is at a limit stays queued under its others. Building
// the queue and the limit checks that follow call `yield` between jobs and records;
// after a yield every job is found again by id, and one no longer pending (it started or
// ended meanwhile) is dropped.
// `before_sort` is asked once before the sort (a yield on a young hold: the sort cannot
// yield inside).
// `limit_blocked`: whether a job a QOS or association limit holds back now is left out
// (stock backfill's default) or planned (SchedulerParameters=assoc_limit_stop).
enum class LimitBlocked { left_out, planned };
// Stock backfill's bf_min_age_reserve and bf_min_prio_reserve (0: off): a record under
// either is not reserved for (QueuedJob::no_reserve).
struct ReserveRules {
  int min_age = 0;
  std::int64_t min_prio = 0;
};
// `licence_blocked`: whether a job whose licences are not free now is left out (stock
// backfill's default) or planned (SchedulerParameters=bf_licenses). One asking for more
// than the cluster has is left out either way.
enum class LicenceBlocked { left_out, planned };
JobQueue read_job_queue(int max_per_partition, const YieldPoint& yield = {},
                        const YieldPoint& before_sort = {},
                        LimitBlocked limit_blocked = LimitBlocked::left_out,
                        const ReserveRules& reserve = {},
                        LicenceBlocked licence_blocked = LicenceBlocked::left_out);

// A queued job once, with every partition it is queued in (highest priority first).
// `job` may go stale when an array task starts (the meta record is split, keeping `id`):
// refresh it by id.
struct ClusterJob {
  job_record_t* job = nullptr;
  std::vector<QueuedJob> in;
  JobId id = 0;
};

// A job array's pending tasks are planned as copies of its meta record, so that many
// start in one pass: copy k > 0 has this id (Slurm's ids are 32-bit).
inline JobId array_copy_id(JobId meta, std::uint32_t k) {
  return meta + (static_cast<JobId>(k) << 32);
}
inline JobId slurm_job_id(JobId planned) { return planned & 0xffffffffu; }

// The records of `queue` whose partition `keep` accepts, merged per job (first record's
// order): a job with several records (partitions, QOS, reservations) is one ClusterJob.
// A MAGNETIC reservation's record does not place the job (Slurm sorts every record with a
// reservation first, but stock backfill only tries to start such a record, it reserves
// nothing for it): the job's place is its first other record's, if it has one.
template <typename Keep>
std::vector<ClusterJob> cluster_jobs(const JobQueue& queue, Keep keep);

// The whole cluster: every node (index = Slurm's node index), partition and advance
// reservation still to end, the jobs holding resources with their per-node allocations,
// and `jobs` (those still pending) with their requests. Memory is planned only when it
// is a consumable resource (SelectTypeParameters CR_*_Memory).
// A pending job array's meta record becomes up to `array_tasks` copies (its remaining
// tasks, within its %max_run_tasks throttle).
// Nodes, partitions, reservations and running jobs are read in one hold, so the resources
// the plan sees held are one consistent picture; the pending jobs' requests follow, with
// `yield` between jobs (each found again by id after a yield; one no longer pending is
// left out). `*abandoned` set: the snapshot is incomplete and must not be planned.
// `fresh` is asked once first (a yield on a young hold, before the part that cannot yield).
ClusterSnapshot read_cluster(const std::vector<ClusterJob>& jobs, Time now, int array_tasks = 1,
                             const YieldPoint& yield = {}, bool* abandoned = nullptr,
                             const YieldPoint& fresh = {});

// Jobs that finished and are still in job_list. `finished` receives every finished job id
// still kept (deduplication bookkeeping), `active` every pending or running one.
std::vector<FinishedJob> read_finished_jobs(std::unordered_set<JobId>& finished,
                                            std::unordered_set<JobId>& active);

template <typename Keep>
std::vector<ClusterJob> cluster_jobs(const JobQueue& queue, Keep keep) {
  std::vector<ClusterJob> out;
  std::unordered_map<job_record_t*, std::size_t> index;
  for (const bool magnetic : {false, true}) {
    for (const QueuedJob& q : queue.all) {
      if (q.magnetic != magnetic || !keep(q.partition)) continue;
      auto [it, added] = index.emplace(q.job, out.size());
      if (added) out.push_back(ClusterJob{q.job, {}, q.job->job_id});
      out[it->second].in.push_back(q);
    }
  }
  return out;
}

// A time limit in Slurm's minutes as seconds (INFINITE/NO_VAL: a year), at least 1.
Time limit_seconds(std::uint32_t minutes);

// How a job ended (its job_state) as the predictor's epp_end_state.
int end_state_of(std::uint32_t job_state);

}  // namespace easypp::plugin

#endif
