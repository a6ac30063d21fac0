// Carrying out the core's kill-and-requeue decisions (papers 002, 004) inside slurmctld,
// the way Slurm requeues a job itself (scontrol requeue, preemption by REQUEUE):
// job_requeue() ends the run (its processes are signalled, KillWait applies), counts
// it in the job's restart_cnt, and puts the job back in the queue with its priority; the
// job restarts from the beginning. Slurm then holds it until its nodes are clean and its
// begin time passes: the requeued job's begin time is set to now + the credential
// lifetime + 1 s when its run has completed (batch_requeue_fini; AuthInfo=cred_expire,
// default 120 s, at least 5), so the new launch credential is newer than the revoked one.
// Caller holds slurmctld's locks {READ conf, WRITE job, WRITE node, READ part, READ fed}.
#ifndef EASYPP_PLUGIN_SLURM_REQUEUE_H
#define EASYPP_PLUGIN_SLURM_REQUEUE_H

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "plugin/slurm_api.h"

namespace easypp::plugin {

// Slurm's own rule for a job it would requeue (_job_requeue_op): a batch job whose
// details allow it (--requeue, or JobRequeue=1 in slurm.conf, the default, without
// --no-requeue), not a component of a heterogeneous job (requeued only as a whole) and
// not an array's meta record (its pending tasks would go with it). slurm_may_requeue:
// that, for a job running now (not completing).
// Inline: the snapshot reads it without linking job_requeue.
inline bool slurm_requeue_allowed(const job_record_t* job) {
  return job && job->batch_flag && job->details && job->details->requeue &&
         job->het_job_id == 0 && !job->het_job_list && !job->array_recs;
}
inline bool slurm_may_requeue(const job_record_t* job) {
  return job && IS_JOB_RUNNING(job) && !IS_JOB_COMPLETING(job) && slurm_requeue_allowed(job);
}

// The partition a running job runs in (its part_ptr; empty if unknown).
inline std::string running_partition(const job_record_t* job) {
  if (job && job->part_ptr && job->part_ptr->name) return job->part_ptr->name;
  return job && job->partition ? job->partition : "";
}

// Kills and requeues running job `job_id`, if it still may be requeued and runs in one
// of `partitions` (easypp_requeue_partitions): the state may have changed since the
// plan. SLURM_SUCCESS, or why not (an ESLURM_* code; `why` says it in words).
int requeue_victim(std::uint32_t job_id, const std::set<std::string>& partitions,
                   std::string& why);

// Carries out one plan's kill_requeue list (the policy's victims, in its order) with
// requeue_victim, logging each at info level. Returns how many were requeued.
int requeue_victims(const std::vector<std::uint64_t>& victims,
                    const std::set<std::string>& partitions, const std::string& policy);

}  // namespace easypp::plugin

#endif
