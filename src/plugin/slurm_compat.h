// What differs between the Slurm releases the plugin builds against (22.05 to 24.11), as
// version checks in one place, so the glue is written once. Included by slurm_api.h only.
#ifndef EASYPP_PLUGIN_SLURM_COMPAT_H
#define EASYPP_PLUGIN_SLURM_COMPAT_H

#include <cerrno>
#include <cstdint>

#if EASYPP_SLURM_AT_LEAST(24, 5, 0)
// 24.05 removed the pointer typedefs List and ListIterator (list_t and list_itr_t remain).
using List = list_t*;
using ListIterator = list_itr_t*;
#endif

#if !EASYPP_SLURM_AT_LEAST(23, 2, 0)
// 23.02 made struct job_details an anonymous typedef job_details_t; the glue uses that name.
using job_details_t = struct job_details;
#endif

namespace easypp::plugin {
class AssocMgrReadLock;  // slurm_handles.h, which includes this file through slurm_api.h
}

namespace easypp::plugin::compat {

// A job's GRES request or allocation that consumes nothing (e.g. a licence-like GRES).
// 22.05 flags it on the job; later releases keep no_consume on the node only, so there
// every job GRES counts as consumed (the conservative reading for planning).
inline bool gres_no_consume(const gres_job_state_t* js) {
#ifdef GRES_NO_CONSUME
  return js->flags & GRES_NO_CONSUME;
#else
  (void)js;
  return false;
#endif
}

// Whether a job's reason is a QOS group limit (GrpTRES, GrpJobs, ...): stock backfill
// then blocks the QOS that set it (qos_blocking_ptr) under assoc_limit_stop.
inline bool qos_group_reason(std::uint32_t reason) {
#ifdef JSR_QOS_GRP
  return job_state_reason_check(static_cast<enum job_state_reason>(reason), JSR_QOS_GRP);
#else
  return job_state_qos_grp_limit(static_cast<enum job_state_reason>(reason));
#endif
}

// What a start refused for licences returns: 24.11's code for it (cons_tres's), else EAGAIN
// ("resource temporarily unavailable", what license_job_test says), not a code of nodes.
inline constexpr int kLicencesUnavailable =
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
    ESLURM_LICENSES_UNAVAILABLE;
#else
    EAGAIN;
#endif

// select_nodes for a real start (not test_only, not at submission).
inline int select_nodes_now(job_record_t* job, char** err_msg, std::uint32_t scheduler_flags) {
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
  // 24.11 passes the job through a job_node_select_t.
  job_node_select_t select = {};
  select.job_ptr = job;
  select.err_msg = err_msg;
  return select_nodes(&select, false, false, scheduler_flags);
#else
  return select_nodes(job, false, nullptr, err_msg, false, scheduler_flags);
#endif
}

// 24.11's queue has one record per (partition, QOS) of a job requesting several QOS
// (--qos=a,b), and build_job_queue leaves job_ptr->qos_ptr at whichever it tried last.
// A scheduler sets the record's QOS on the job before checking limits or starting it, as
// stock backfill and the main scheduler do (job_ptr->qos_ptr = job_queue_rec->qos_ptr).
// 22.05 has one QOS per job and no QOS in the record: all of these are no-ops there.

// The record's QOS id (0: none, or a release without per-record QOS).
inline std::uint32_t record_qos_id(const job_queue_rec_t* rec) {
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
  return rec->qos_ptr ? rec->qos_ptr->id : 0;
#else
  (void)rec;
  return 0;
#endif
}

// After the locks were given back, whether the record's QOS is still one the job runs
// under: its own, or one of those it requests (24.11's multi-QOS jobs). Compares pointers
// only: `scontrol update job qos=` may have changed the job's, and `sacctmgr delete qos`
// freed the record's (job_fail_qos leaves the job none). Always true on 22.05.
inline bool record_qos_current(const job_queue_rec_t* rec) {
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
  const job_record_t* job = rec->job_ptr;
  if (!rec->qos_ptr || !job) return true;
  if (!job->qos_list) return job->qos_ptr == rec->qos_ptr;
  return list_find_first(job->qos_list, [](void* x, void* key) { return x == key ? 1 : 0; },
                         rec->qos_ptr) != nullptr;
#else
  (void)rec;
  return true;
#endif
}

// The job takes the record's QOS (for acct_policy_job_runnable_pre_select).
inline void use_record_qos(const job_queue_rec_t* rec) {
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
  if (!rec->qos_ptr || !rec->job_ptr) return;
  rec->job_ptr->qos_ptr = rec->qos_ptr;
#if EASYPP_SLURM_AT_LEAST(25, 11, 0)
  rec->job_ptr->qos_id = rec->qos_ptr->id;  // 25.11 reads the id as well
#endif
#else
  (void)rec;
#endif
}

// After the locks were released (pointers from the queue are gone): whether the job must
// take the QOS of id `qos_id` back from its own requested list (24.11's multi-QOS jobs).
// Read without assoc_mgr's lock (the list is the job's, under the job lock); when false,
// set_job_qos has nothing to do, so the start path takes no lock.
inline bool chooses_qos(const job_record_t* job, std::uint32_t qos_id) {
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
  return qos_id != 0 && job->qos_list;
#else
  (void)job;
  (void)qos_id;
  return false;
#endif
}

// The job takes the QOS of id `qos_id` from its own requested list. False when the job no
// longer requests it; true (nothing to do) when !chooses_qos. `held`: assoc_mgr's QOS read
// lock, which the caller holds (slurm_handles.h; its type is only named here).
inline bool set_job_qos(job_record_t* job, std::uint32_t qos_id, const AssocMgrReadLock& held) {
  (void)held;
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
  if (!chooses_qos(job, qos_id)) return true;
  slurmdb_qos_rec_t* found = nullptr;
  list_itr_t* it = list_iterator_create(job->qos_list);
  while (auto* qos = static_cast<slurmdb_qos_rec_t*>(list_next(it)))
    if (qos->id == qos_id) {
      found = qos;
      break;
    }
  list_iterator_destroy(it);
  if (!found) return false;
  job->qos_ptr = found;
#if EASYPP_SLURM_AT_LEAST(25, 11, 0)
  job->qos_id = found->id;
#endif
  return true;
#else
  (void)job;
  (void)qos_id;
  return true;
#endif
}

// The QOS a job with several was started under, for the log ("" otherwise).
inline const char* chosen_qos_name(const job_record_t* job) {
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
  if (job->qos_list && job->qos_ptr && job->qos_ptr->name) return job->qos_ptr->name;
#else
  (void)job;
#endif
  return "";
}

// --- build_job_queue's per-job tests (slurm_job_queue.cpp), as each release has them ---
// Only 22.05 and 24.11 are supported; the boundary between them is drawn at 24.11.

// A requeued job whose previous run is still cleaning up: 22.05 also asks the select
// plugin and the steps (_is_step_cleaning); 24.11 has neither check.
inline bool job_cleaning(job_record_t* job) {
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
  (void)job;
  return false;
#else
  std::uint16_t cleaning = 0;
  select_g_select_jobinfo_get(job->select_jobinfo, SELECT_JOBDATA_CLEANING, &cleaning);
  if (cleaning || !job->step_list) return cleaning != 0;
  ListIterator it = list_iterator_create(job->step_list);
  while (auto* step = static_cast<step_record_t*>(list_next(it))) {
    if (step->step_id.step_id == SLURM_PENDING_STEP) continue;
    select_g_select_jobinfo_get(step->select_jobinfo, SELECT_JOBDATA_CLEANING, &cleaning);
    if (cleaning) break;
  }
  list_iterator_destroy(it);
  return cleaning != 0;
#endif
}

// A held job (priority 0) keeps these reasons; any other becomes WAIT_HELD.
inline bool held_reason_kept(std::uint32_t reason) {
  switch (reason) {
    case FAIL_BAD_CONSTRAINTS:
    case WAIT_RESV_DELETED:
    case FAIL_BURST_BUFFER_OP:
    case WAIT_HELD:
    case WAIT_HELD_USER:
    case WAIT_MAX_REQUEUE:
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
    case WAIT_RESV_INVALID:
#endif
      return true;
    default:
      return false;
  }
}

// _job_runnable_test2: a job passing the limits loses its reason only when that reason
// is a partition one.
inline bool partition_reason_may_clear(job_record_t* job) {
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
  return job_state_reason_check(static_cast<enum job_state_reason>(job->state_reason), JSR_PART);
#else
  return !part_policy_job_runnable_state(job);  // false for the partition reasons
#endif
}

// 24.11 queues a job once per requested QOS in each partition (setting job->qos_ptr to
// it, as build_job_queue does); 22.05 once per partition.
template <typename Fn>
void for_each_queue_qos(job_record_t* job, Fn fn) {
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
  if (job->qos_list) {
    list_itr_t* it = list_iterator_create(job->qos_list);
    while (auto* qos = static_cast<slurmdb_qos_rec_t*>(list_next(it))) {
      job->qos_ptr = qos;
      fn();
    }
    list_iterator_destroy(it);
    return;
  }
#endif
  (void)job;
  fn();
}

// Whether the job has per-partition (x QOS) priorities, and its priority in the queue
// record at `inx` (`listed`: the job has a partition list). 22.05 uses the array only for
// a job with a partition list; 24.11 whenever it has one (it also covers several QOS).
inline bool has_priority_array(const job_record_t* job) {
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
  return job->part_prio && job->part_prio->priority_array;
#else
  return job->priority_array != nullptr;
#endif
}
inline std::uint32_t queue_priority(const job_record_t* job, int inx, bool listed) {
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
  (void)listed;
  return has_priority_array(job) ? job->part_prio->priority_array[inx] : job->priority;
#else
  return listed && has_priority_array(job) ? job->priority_array[inx] : job->priority;
#endif
}

// sort_job_queue2 puts a --prefer record before its plain twin from 24.11 on.
inline constexpr bool kPreferSortsFirst = EASYPP_SLURM_AT_LEAST(24, 11, 0);

}  // namespace easypp::plugin::compat

#endif
