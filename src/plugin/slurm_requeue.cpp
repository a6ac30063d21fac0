#include "plugin/slurm_requeue.h"

namespace easypp::plugin {

int requeue_victim(std::uint32_t job_id, const std::set<std::string>& partitions,
                   std::string& why) {
  job_record_t* job = find_job_record(job_id);
  if (!job || !IS_JOB_RUNNING(job)) {
    why = "no longer running";
    return ESLURM_JOB_NOT_RUNNING;
  }
  if (!slurm_may_requeue(job)) {
    why = "Slurm would not requeue it (not a batch job, --no-requeue, JobRequeue=0, or part "
          "of a heterogeneous job or array meta record)";
    return ESLURM_DISABLED;
  }
  if (!partitions.count(running_partition(job))) {
    why = "its partition " + running_partition(job) + " is not in easypp_requeue_partitions";
    return ESLURM_DISABLED;
  }
  // As SlurmUser (an operator), not as a preemption: the run ends in state REQUEUED.
  const int rc = job_requeue(slurm_conf.slurm_user_id, job_id, nullptr, false, 0);
  if (rc != SLURM_SUCCESS) why = slurm_strerror(rc);
  return rc;
}

int requeue_victims(const std::vector<std::uint64_t>& victims,
                    const std::set<std::string>& partitions, const std::string& policy) {
  int requeued = 0;
  for (std::uint64_t id : victims) {
    const auto job_id = static_cast<std::uint32_t>(id);
    std::string why;
    if (requeue_victim(job_id, partitions, why) == SLURM_SUCCESS) {
      ++requeued;
      info("sched/easypp: killed and requeued JobId=%u (%s)", job_id, policy.c_str());
    } else {
      info("sched/easypp: JobId=%u not requeued (%s): %s", job_id, policy.c_str(), why.c_str());
    }
  }
  // As the requeue RPC does after job_requeue: the saved job state shows the victims
  // pending again, not running, should slurmctld stop before its next periodic save.
  if (requeued > 0) schedule_job_save();
  return requeued;
}

}  // namespace easypp::plugin
