// The eligible job queue, built as Slurm's build_job_queue(true, true) + sort_job_queue
// build it, but in slices: the locks can be given back between jobs, so that 20,000
// pending jobs do not hold slurmctld's job write lock for 100-250 ms in one piece.
// Callers hold slurmctld's locks {READ conf, WRITE job, WRITE node, READ part, READ fed}.
#ifndef EASYPP_PLUGIN_SLURM_JOB_QUEUE_H
#define EASYPP_PLUGIN_SLURM_JOB_QUEUE_H

#include "plugin/slurm_api.h"
#include "plugin/slurm_snapshot.h"

#include <vector>

namespace easypp::plugin {

struct QueueBuild {
  // Queue records in queue order. Their job pointers are valid in the current hold only
  // when `yielded` is false; else each job is found again by record.job_id.
  std::vector<job_queue_rec_t> records;
  bool yielded = false;
  bool abandoned = false;   // a yield said abandon: no queue
  int jobs_tested = 0;      // pending jobs looked at
  long sort_usec = 0;       // the order (in one hold)
  bool slurm_sort = false;  // preemption enabled: Slurm's own sort_job_queue was used
};

// What build_job_queue(true, true) does for every pending job (its third loop: the
// backfill flag, accrue time and reason bookkeeping, _job_runnable_test1, then per
// partition, and from 24.11 per partition x QOS, _job_runnable_test2 with the job's
// priority there, and one record per reservation or magnetic reservation), one job at a
// time, with `yield` between jobs. Each record's sort values are copied in the hold that
// made it, and the records are ordered as sort_job_queue orders them on those values (so
// the sort reads no job record: a job whose priority changed during a later yield is
// ordered by the priority it had when it was looked at; slurmctld recomputes priorities
// every PriorityCalcPeriod, 5 minutes by default).
//
// Not replicated (static in job_scheduler.c, or deliberately different):
// - the splitting of job arrays for burst buffer staging and aftercorr dependencies
//   (build_job_queue's first loops; bb_array_stage_cnt, correspond_after_task_cnt are
//   static): slurmctld's main scheduler does it at its every pass (build_job_queue(false,
//   false)), so such tasks are queued here from its next split on;
// - build_queue_timeout (2 s, static): the slices yield instead of stopping;
// - HAVE_FRONT_END's reason reset (front-end builds only, not supported here);
// - with preemption enabled, sort_job_queue itself is called (its preempt_g comparison
//   reads the job records), in one hold (`before_sort` is asked first; records of jobs
//   gone meanwhile are dropped before it).
QueueBuild build_queue_in_slices(const YieldPoint& yield, const YieldPoint& before_sort = {});

}  // namespace easypp::plugin

#endif
