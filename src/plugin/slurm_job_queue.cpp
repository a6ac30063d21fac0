#include "plugin/slurm_job_queue.h"

#include <algorithm>
#include <chrono>
#include <unordered_set>
#include <vector>

#include "plugin/queue_order.h"
#include "plugin/slurm_handles.h"

namespace easypp::plugin {

namespace {

// The job stamp (last_job_update) moves to `now` on each change made here, never back:
// others may have moved it past `now` during a yield.

// _job_runnable_test1 (job_scheduler.c): pending, not revoked, not cleaning after a
// requeue, not held, independent. Sets the reasons it sets; clears start_time (the
// backfill caller's clear_start).
bool runnable_test1(job_record_t* job, time_t now) {
  if (!IS_JOB_PENDING(job) || IS_JOB_COMPLETING(job)) return false;
  if (IS_JOB_REVOKED(job)) return false;
  if (compat::job_cleaning(job) || (job->details && job->details->prolog_running) ||
      (job->step_list && list_count(job->step_list))) {
    job->state_reason = WAIT_CLEANING;
    xfree(job->state_desc);
    last_job_update = std::max(last_job_update, now);
    return false;
  }
  const bool independent = job_independent(job);
  job->start_time = 0;
  if (job->priority == 0) {  // held
    if (!compat::held_reason_kept(job->state_reason)) {
      job->state_reason = WAIT_HELD;
      xfree(job->state_desc);
      last_job_update = std::max(last_job_update, now);
    }
    return false;
  }
  if (!independent &&
      (job->state_reason == WAIT_HELD || job->state_reason == WAIT_HELD_USER)) {
    job->state_reason = WAIT_DEPENDENCY;  // released behind an active dependency
    xfree(job->state_desc);
    last_job_update = std::max(last_job_update, now);
  }
  return independent;
}

// _job_runnable_test2: the partition (and QOS) limits, with the backfill's minimum time.
bool runnable_test2(job_record_t* job, time_t now) {
  const int reason = job_limits_check(&job, true);
  if (reason != static_cast<int>(job->state_reason) &&
      (reason != WAIT_NO_REASON || compat::partition_reason_may_clear(job))) {
    job->state_reason = static_cast<decltype(job->state_reason)>(reason);
    xfree(job->state_desc);
    last_job_update = std::max(last_job_update, now);
  }
  return reason == WAIT_NO_REASON;
}

int queue_resv(void* x, void* arg) {
  auto* req = static_cast<job_queue_req_t*>(arg);
  req->resv_ptr = static_cast<slurmctld_resv_t*>(x);
  if ((req->job_ptr->bit_flags & JOB_PART_ASSIGNED) && req->resv_ptr->part_ptr)
    req->part_ptr = req->resv_ptr->part_ptr;
  job_queue_append_internal(req);
  return 0;
}

// _job_queue_append: a record per reservation of a multi-reservation job; else one, and
// magnetic reservations' records for a job that named none (not for het components).
void queue_append(List queue, job_record_t* job, part_record_t* part, std::uint32_t prio) {
  job_queue_req_t req = {};
  req.job_ptr = job;
  req.job_queue = queue;
  req.part_ptr = part;
  req.prio = prio;
  if (job->resv_list) {
    list_for_each(job->resv_list, queue_resv, &req);
    return;
  }
  job_queue_append_internal(&req);
  if (job->resv_name || job->het_job_id) return;
  job_resv_append_magnetic(&req);
}

// build_job_queue's work for one pending job.
void queue_job(List queue, job_record_t* job, time_t now) {
  job->bit_flags &= ~BACKFILL_SCHED;
  set_job_failed_assoc_qos_ptr(job);
  acct_policy_handle_accrue_time(job, false);
  if (job->state_reason != WAIT_NO_REASON && job->state_reason != WAIT_PRIORITY &&
      job->state_reason != WAIT_RESOURCES && job->state_reason != job->state_reason_prev_db) {
    job->state_reason_prev_db = job->state_reason;
    last_job_update = std::max(last_job_update, now);
  }
  if (!runnable_test1(job, now)) return;
  int prio_inx = -1;  // priority_array follows part_ptr_list (x qos_list from 24.11)
  const auto in_partition = [&](part_record_t* part) {
    job->part_ptr = part;
    compat::for_each_queue_qos(job, [&] {
      ++prio_inx;
      if (runnable_test2(job, now))
        queue_append(queue, job, part,
                     compat::queue_priority(job, prio_inx, job->part_ptr_list != nullptr));
    });
  };
  if (job->part_ptr_list) {
    OwnedIterator it(job->part_ptr_list);
    while (auto* part = it.next<part_record_t>()) in_partition(part);
    return;
  }
  if (!job->part_ptr) {
    part_record_t* part = find_part_record(job->partition);
    if (!part) {
      error("Could not find partition %s for %pJ", job->partition, job);
      return;
    }
    job->part_ptr = part;
    error("partition pointer reset for %pJ, part %s", job, job->partition);
    job->bit_flags |= JOB_PART_ASSIGNED;
  }
  in_partition(job->part_ptr);
}

QueueSortKey sort_key(const job_queue_rec_t* rec) {
  const job_record_t* job = rec->job_ptr;
  QueueSortKey k;
  k.het_job_id = job->het_job_id;
  k.resv_own = job->resv_id != 0 || rec->resv_ptr;
  k.tier_own = rec->part_ptr ? rec->part_ptr->priority_tier : 0;
  k.prio_own = job->part_ptr_list && compat::has_priority_array(job) ? rec->priority
                                                                      : job->priority;
  if (const het_job_details_t* het = job->het_details) {
    k.resv_het = het->any_resv;
    k.tier_het = het->priority_tier;
    k.prio_het = het->priority;
  } else {
    k.resv_het = k.resv_own;
    k.tier_het = k.tier_own;
    k.prio_het = k.prio_own;
  }
  if (job->details) {
    k.has_submit = true;
    k.submit = job->details->submit_time;
  }
  k.job_id = rec->array_task_id == NO_VAL ? rec->job_id : job->array_job_id;
  k.array_task_id = rec->array_task_id;
  if (rec->resv_ptr) {
    k.has_resv_start = true;
    k.resv_start = rec->resv_ptr->start_time;
  }
  k.use_prefer = rec->use_prefer;
  return k;
}

long usec_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

QueueBuild build_queue_in_slices(const YieldPoint& yield, const YieldPoint& before_sort) {
  QueueBuild out;
  const time_t now = time(nullptr);
  // One cheap walk in this hold: the per-job resets build_job_queue makes for every job
  // (pending or not), stock backfill's _clear_job_estimates for every pending one (the
  // start and nodes shown last pass: held, dependent or capped jobs keep none), and the
  // pending jobs' ids to visit in slices.
  std::vector<std::uint32_t> pending;
  {
    OwnedIterator it(job_list);
    while (auto* job = it.next<job_record_t>()) {
      job->preempt_in_progress = false;
      if (job->array_recs) job->array_recs->pend_run_tasks = 0;
      if (job->resv_list) job->resv_ptr = nullptr;
      if (IS_JOB_PENDING(job)) {
        job->start_time = 0;
        xfree(job->sched_nodes);
        pending.push_back(job->job_id);
      }
    }
  }
  const bool preemption = slurm_preemption_enabled();
  std::vector<QueueSortKey> keys;
  OwnedList made(list_create(xfree_ptr));  // one job's records, moved out at once
  // Gives the locks back at `point`; false when the pass is to be abandoned.
  auto give_back = [&out](const YieldPoint& point) {
    if (!point) return true;
    const Yield y = point();
    if (y == Yield::abandon) {
      out.abandoned = true;
      out.records.clear();
      return false;
    }
    out.yielded = out.yielded || y == Yield::yielded;
    return true;
  };
  for (const std::uint32_t id : pending) {
    if (!give_back(yield)) return out;
    // After a yield the job may have started, ended or been purged: found by id.
    job_record_t* job = find_job_record(id);
    if (!job || !IS_JOB_PENDING(job)) continue;
    ++out.jobs_tested;
    queue_job(made.get(), job, now);
    while (auto* rec = static_cast<job_queue_rec_t*>(list_pop(made.get()))) {
      if (!preemption) keys.push_back(sort_key(rec));
      out.records.push_back(*rec);
      xfree(rec);
    }
  }
  const auto t0 = std::chrono::steady_clock::now();
  if (!preemption) {
    const bool hetjob_prio = hetjob_prio_set(slurm_conf.sched_params ? slurm_conf.sched_params : "");
    std::vector<job_queue_rec_t> sorted;
    sorted.reserve(out.records.size());
    for (const std::size_t i : queue_order(keys, hetjob_prio, compat::kPreferSortsFirst))
      sorted.push_back(out.records[i]);
    out.records = std::move(sorted);
    out.sort_usec = usec_since(t0);
    return out;
  }
  // Preemption: Slurm's comparator reads the job records, so they are found again by id
  // (dropped when gone or started) and sorted by sort_job_queue in one hold.
  if (!give_back(before_sort)) return out;
  const auto t1 = std::chrono::steady_clock::now();
  std::unordered_set<const slurmctld_resv_t*> reservations;  // resv_ptr may have been freed
  if (out.yielded && resv_list) {
    OwnedIterator r(resv_list);
    while (auto* resv = r.next<slurmctld_resv_t>()) reservations.insert(resv);
  }
  OwnedList queue(list_create(xfree_ptr));
  for (const job_queue_rec_t& r : out.records) {
    job_record_t* job = out.yielded ? find_job_record(r.job_id) : r.job_ptr;
    if (!job || !IS_JOB_PENDING(job)) continue;
    if (out.yielded && r.resv_ptr && !reservations.count(r.resv_ptr)) continue;
    auto* rec = static_cast<job_queue_rec_t*>(xmalloc(sizeof(job_queue_rec_t)));
    *rec = r;
    rec->job_ptr = job;
    list_append(queue.get(), rec);
  }
  sort_job_queue(queue.get());
  out.records.clear();
  while (auto* rec = static_cast<job_queue_rec_t*>(list_pop(queue.get()))) {
    out.records.push_back(*rec);
    xfree(rec);
  }
  out.yielded = false;  // every record's job was found again in this hold
  out.slurm_sort = true;
  out.sort_usec = usec_since(t1);
  return out;
}

}  // namespace easypp::plugin
