#include "plugin/slurm_accounting.h"

#include <algorithm>

#include "plugin/slurm_api.h"
#include "plugin/slurm_handles.h"
#include "plugin/slurm_snapshot.h"

namespace easypp::plugin {

bool read_accounting_history(const std::string& cluster, std::uint32_t uid, Time from, Time to,
                             std::vector<FinishedJob>& out, std::string& error) {
  slurmdb_job_cond_t cond{};
  OwnedList clusters(list_create(xfree_ptr));
  list_append(clusters.get(), xstrdup(cluster.c_str()));
  cond.cluster_list = clusters.get();
  // Only jobs that ended in the window, in a state a job ends in: with a state list
  // slurmdbd selects `state = S && time_end between usage_start and usage_end` (22.05,
  // 24.11 as_mysql_jobacct_process.c, _state_time_string); without one it would also list
  // every job pending or running then, in each day's answer. Not REQUEUE, RESIZING or
  // REVOKED: a run cut by a requeue, a piece of a resized job, a federated copy.
  static constexpr std::uint32_t kEndStates[] = {JOB_COMPLETE,  JOB_CANCELLED, JOB_FAILED,
                                                 JOB_TIMEOUT,   JOB_NODE_FAIL, JOB_PREEMPTED,
                                                 JOB_BOOT_FAIL, JOB_DEADLINE,  JOB_OOM};
  OwnedList states(list_create(xfree_ptr));
  for (std::uint32_t state : kEndStates) list_append(states.get(), xstrdup_printf("%u", state));
  cond.state_list = states.get();
  cond.usage_start = from;
  cond.usage_end = to;
  // Whole jobs with their real start and end, not cut to the window.
  cond.flags = JOBCOND_FLAG_NO_STEP | JOBCOND_FLAG_NO_TRUNC;
  // 0 would mean "only jobs started with no scheduler flag": none.
  cond.db_flags = SLURMDB_JOB_FLAG_NOTSET;
  OwnedList jobs(jobacct_storage_g_get_jobs_cond(acct_db_conn, uid, &cond));
  if (!jobs.get()) {
    error = "slurmdbd returned no job list";
    return false;
  }
  OwnedIterator it(jobs.get());
  while (slurmdb_job_rec_t* rec = it.next<slurmdb_job_rec_t>()) {
    if (rec->start <= 0 || rec->end < rec->start) continue;  // never ran, or still runs
    if (rec->end < from || rec->end > to) continue;         // another window's
    // A pending job cancelled gets start = end and no nodes: it never ran.
    if (rec->start == rec->end && rec->alloc_nodes == 0) continue;
    // A run cut by a requeue (the job ran again; slurmdbd may list only this row), or a
    // piece of a resized job: not a runtime the job had.
    if (rec->state & (JOB_REQUEUE | JOB_RESIZING)) continue;
    FinishedJob f;
    f.job.id = rec->jobid;
    f.job.user = rec->uid;
    f.job.submit = rec->submit;
    f.job.start = rec->start;
    f.job.limit = limit_seconds(rec->timelimit);
    f.job.procs = std::max<int>(1, static_cast<int>(rec->req_cpus));
    f.end = rec->end;
    f.end_state = end_state_of(rec->state);
    out.push_back(f);
  }
  return true;
}

}  // namespace easypp::plugin
