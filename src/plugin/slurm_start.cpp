#include "plugin/slurm_start.h"

namespace easypp::plugin {

int start_job(job_record_t* job, part_record_t* partition, std::uint32_t priority,
              bool backfilled) {
  if (!IS_JOB_PENDING(job) || job->priority == 0) return ESLURM_JOB_HELD;
  // A job queued in several partitions is started in the one that planned it (as
  // stock backfill does), with that partition's priority.
  job->part_ptr = partition;
  job->priority = priority;
  const int rc = select_nodes(job, false, nullptr, nullptr, false,
                              backfilled ? SLURMDB_JOB_FLAG_BACKFILL : SLURMDB_JOB_FLAG_SCHED);
  if (rc != SLURM_SUCCESS) return rc;
  last_job_update = time(nullptr);
  if (job->batch_flag == 0)
    srun_allocate(job);  // an salloc/srun waiting for its allocation
  else if (!IS_JOB_CONFIGURING(job))
    launch_job(job);  // nodes booting: slurmctld launches once they are up
  rebuild_job_part_list(job);  // as the main scheduler does after a start
  return rc;
}

}  // namespace easypp::plugin
