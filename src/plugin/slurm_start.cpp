#include "plugin/slurm_start.h"

#include <algorithm>

#include "plugin/slurm_handles.h"
#include "plugin/slurm_time_limit.h"

namespace easypp::plugin {

namespace {

char kSchedulerName[] = "sched/easypp";  // deadline_ok's caller (char* on 22.05)

// select_nodes restricted to `allowed`: the job's excluded nodes become its own plus every
// node outside `allowed`, and are put back afterwards (select_nodes may reset them; an
// array's meta job keeps its own too, as in stock backfill).
int select_on(job_record_t* job, const bitstr_t* allowed, std::uint16_t flag) {
  if (!allowed || !job->details) return compat::select_nodes_now(job, nullptr, flag);
  bitstr_t* original = job->details->exc_node_bitmap
                           ? bit_copy(job->details->exc_node_bitmap)
                           : nullptr;
  bitstr_t* excluded = bit_copy(const_cast<bitstr_t*>(allowed));
  bit_not(excluded);
  if (original) bit_or(excluded, original);
  job->details->exc_node_bitmap = excluded;
  const bool array_meta = job->array_recs != nullptr;
  const std::uint32_t array_id = job->array_job_id;
  const int rc = compat::select_nodes_now(job, nullptr, flag);
  if (array_meta) {
    // The task that started is split off `job`; the meta record keeps waiting.
    job_record_t* meta = find_job_record(array_id);
    if (meta && meta != job && meta->array_recs && meta->details) {
      FREE_NULL_BITMAP(meta->details->exc_node_bitmap);
      if (original) meta->details->exc_node_bitmap = bit_copy(original);
    }
  }
  if (job->details) {
    FREE_NULL_BITMAP(job->details->exc_node_bitmap);
    job->details->exc_node_bitmap = original;
  } else {
    FREE_NULL_BITMAP(original);
  }
  return rc;
}

// select_nodes with the job's limit set to `longest`, then, refused for something a
// shorter limit may pass, to `shortest`. select_nodes so checks limits, advance
// reservations and accounting with the limit the job runs with. Its own limit comes back
// if it does not start, and to an array's meta record whatever select_nodes returned (it
// may split off a task first).
int select_with_limits(job_record_t* job, std::uint32_t longest, std::uint32_t shortest,
                       const bitstr_t* allowed, std::uint16_t flag) {
  const std::uint32_t own_limit = job->time_limit;
  const bool array_meta = job->array_recs != nullptr;
  const std::uint32_t array_id = job->array_job_id;
  job->time_limit = longest;
  int rc = select_on(job, allowed, flag);
  if (rc != SLURM_SUCCESS && longest != shortest && shorter_may_start(rc)) {
    job->time_limit = shortest;
    rc = select_on(job, allowed, flag);
  }
  if (rc != SLURM_SUCCESS) job->time_limit = own_limit;
  // The meta record, split off the task select_nodes started (or began to) with its
  // fields, waits with its own limit.
  if (array_meta)
    if (job_record_t* meta = find_job_record(array_id);
        meta && meta != job && IS_JOB_PENDING(meta))
      meta->time_limit = own_limit;
  return rc;
}

// A job with --time-min: first with as much of its limit as the plan leaves on the nodes
// it may take (those it gets are among them), then on its minimum, as stock backfill
// tests it.
int select_with_time_min(job_record_t* job, std::uint32_t full_limit, const bitstr_t* allowed,
                         std::uint16_t flag, const FreeMinutes& free_minutes) {
  // In an advance reservation: its minimum only, as stock (the plan does not cap a limit
  // at the reservation's end).
  const std::uint32_t free =
      free_minutes && allowed && !job->resv_ptr ? free_minutes(allowed, time(nullptr)) : 0;
  return select_with_limits(job, start_limit_minutes(job, full_limit, free), job->time_min,
                            allowed, flag);
}

// The job takes the QOS of id `qos_id` (a queue record's) if it still requests it.
bool job_takes_qos(job_record_t* job, std::uint32_t qos_id) {
  if (!compat::chooses_qos(job, qos_id)) return true;
  const AssocMgrReadLock lock;
  return compat::set_job_qos(job, qos_id, lock);
}

// The job still asks for a queue record's reservation: the plan was made without the
// locks, and `scontrol update job=... reservation=` may have changed it meanwhile. A
// magnetic record is for a job that asks none (job_queue_rec_magnetic_resv; our own
// attempts clear what they set before the next record). A job's own reservations are
// its resv_list when it names several (22.05's update keeps only the first name in
// resv_name), else its resv_name.
bool job_asks_reservation(job_record_t* job, const StartChoice& c) {
  if (c.magnetic) return !job->resv_name;
  if (job->resv_list) {
    OwnedIterator it(job->resv_list);
    while (const slurmctld_resv_t* r = it.next<slurmctld_resv_t>())
      if (r->name && c.reservation == r->name) return true;
    return false;
  }
  return job->resv_name && c.reservation == job->resv_name;
}

// The job may still run in `part` (backfill.c: _job_part_valid).
bool job_may_use(job_record_t* job, const part_record_t* part) {
  if (!job->part_ptr_list) return job->part_ptr == part;
  OwnedIterator it(job->part_ptr_list);
  while (const part_record_t* p = it.next<part_record_t>())
    if (p == part) return true;
  return false;
}

}  // namespace

bool still_startable(job_record_t* job) {
  if (IS_JOB_REVOKED(job) || !IS_JOB_PENDING(job) || IS_JOB_COMPLETING(job) || job->priority == 0)
    return false;
  return job_independent(job);
}

int start_job(job_record_t* job, part_record_t* partition, std::uint32_t priority,
              bool backfilled, const bitstr_t* allowed, const FreeMinutes& free_minutes) {
  if (!IS_JOB_PENDING(job) || job->priority == 0) return ESLURM_JOB_HELD;
  // Licences, as Slurm's main scheduler tests them before select_nodes: 22.05's does not
  // test them at all (24.11's cons_tres does), so without this a start could take a
  // licence another start of this pass, or an advance reservation, holds.
  if (job->license_list && license_job_test(job, time(nullptr), true) != SLURM_SUCCESS)
    return compat::kLicencesUnavailable;
  // A job queued in several partitions is started in the one that planned it (as
  // stock backfill does), with that partition's priority.
  job->part_ptr = partition;
  job->priority = priority;
  // The plain record's features, as stock backfill sets them before each test:
  // feature_list_use is Slurm's temporary (left NULL once a job was queued, or at the
  // --prefer list), and select_nodes applies counts and brackets only through it.
  if (job->details) {
    job->details->features_use = job->details->features;
    job->details->feature_list_use = job->details->feature_list;
  }
  const std::uint16_t flag = backfilled ? SLURMDB_JOB_FLAG_BACKFILL : SLURMDB_JOB_FLAG_SCHED;
  const std::uint32_t own_limit = job->time_limit;
  const std::uint32_t full_limit = full_limit_minutes(job, partition);
  // --deadline, as Slurm's schedulers (job_scheduler.c, backfill.c): deadline_ok fails a
  // job that can no longer end by its deadline; one that starts runs to it at most.
  const bool has_deadline = job->deadline != 0 && job->deadline != NO_VAL;
  if (has_deadline && !deadline_ok(job, kSchedulerName)) return ESLURM_INVALID_TIME_LIMIT;
  const std::uint32_t deadline_limit =
      has_deadline ? limit_to_deadline(full_limit, job->deadline, time(nullptr)) : 0;
  const bool on_minimum = tested_on_time_min(job, full_limit);
  // In a federation, the origin cluster's lock on the job first, as every scheduler takes
  // it (a sibling cluster may be starting it); told of the start, or unlocked. Nothing
  // to do outside a federation.
  if (fed_mgr_job_lock(job) != SLURM_SUCCESS) return ESLURM_FED_JOB_LOCK;
  const int rc =
      on_minimum     ? select_with_time_min(job, full_limit, allowed, flag, free_minutes)
      : has_deadline ? select_with_limits(job, deadline_limit, deadline_limit, allowed, flag)
                     : select_on(job, allowed, flag);
  if (rc != SLURM_SUCCESS) {
    fed_mgr_job_unlock(job);
    return rc;
  }
  fed_mgr_job_start(job, job->start_time);
  if ((on_minimum || has_deadline) && own_limit == NO_VAL)
    job->limit_set.time = 1;  // set by the system, as stock marks it
  if (on_minimum)
    info("sched/easypp: JobId=%u started with --time-min=%u: time limit %u of %u min",
         job->job_id, job->time_min, job->time_limit, full_limit);
  else if (has_deadline && deadline_limit != full_limit)
    info("sched/easypp: JobId=%u started with time limit %u min, to its deadline", job->job_id,
         job->time_limit);
  last_job_update = time(nullptr);
  if (job->batch_flag == 0)
    srun_allocate(job);  // an salloc/srun waiting for its allocation
  else if (!IS_JOB_CONFIGURING(job))
    launch_job(job);  // nodes booting: slurmctld launches once they are up
  rebuild_job_part_list(job);  // as the main scheduler does after a start
  return rc;
}

int start_job(job_record_t* job, const std::vector<StartChoice>& choices, bool backfilled,
              const bitstr_t* allowed, part_record_t** started_in,
              const FreeMinutes& free_minutes, const std::string& planned_in) {
  *started_in = nullptr;
  // The partition: the one the plan chose if it still may be used, else the first that
  // exists and holds the planned nodes, else the first.
  const StartChoice* first = nullptr;
  part_record_t* part = nullptr;
  // Takes c's partition if it may be used and none is taken yet, or if it holds the
  // planned nodes: then true, the search is over.
  const auto take_partition = [&](const StartChoice& c) {
    part_record_t* p = find_part_record(const_cast<char*>(c.partition.c_str()));
    // Gone, down or drained, or the job was moved out of it while we planned.
    if (!p || !(p->state_up & PARTITION_SCHED) || !p->node_bitmap || !job_may_use(job, p))
      return false;
    const bool holds = allowed && bit_super_set(const_cast<bitstr_t*>(allowed), p->node_bitmap);
    if (!first || holds) {
      first = &c;
      part = p;
    }
    return holds;
  };
  const auto planned = planned_in.empty()
                           ? choices.end()
                           : std::find_if(choices.begin(), choices.end(), [&](const StartChoice& c) {
                               return c.partition == planned_in;
                             });
  if (planned == choices.end() || !take_partition(*planned))
    for (const StartChoice& c : choices)
      if ((planned_in.empty() || c.partition != planned_in) && take_partition(c)) break;
  if (!part) return ESLURM_INVALID_PARTITION_NAME;
  *started_in = part;
  // Then that partition's records, those in a reservation that holds the planned nodes
  // first, then those without one, then the rest, each group in priority order.
  auto rank = [&](const StartChoice& c) {
    if (c.reservation.empty()) return 1;
    slurmctld_resv_t* resv = find_resv_name(const_cast<char*>(c.reservation.c_str()));
    if (allowed && resv && resv->node_bitmap &&
        bit_super_set(const_cast<bitstr_t*>(allowed), resv->node_bitmap))
      return 0;
    return 2;
  };
  std::vector<std::pair<int, const StartChoice*>> order;
  for (const StartChoice& c : choices)
    if (c.partition == first->partition) order.emplace_back(rank(c), &c);
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  int rc = ESLURM_INVALID_QOS;
  std::vector<std::pair<std::uint32_t, std::string>> tried;
  std::vector<std::string> busy;  // reservations refused for resources
  for (const auto& [r, c] : order) {
    const std::pair<std::uint32_t, std::string> key{c->qos_id, c->reservation};
    if (std::find(tried.begin(), tried.end(), key) != tried.end()) continue;
    if (std::find(busy.begin(), busy.end(), c->reservation) != busy.end()) continue;
    tried.push_back(key);
    if (!c->reservation.empty() && !job_asks_reservation(job, *c)) {
      rc = ESLURM_RESERVATION_INVALID;  // changed since the queue was read
      continue;
    }
    if (!job_takes_qos(job, c->qos_id)) continue;  // no longer requested
    if (!c->reservation.empty()) {
      slurmctld_resv_t* resv = find_resv_name(const_cast<char*>(c->reservation.c_str()));
      if (!resv) continue;  // deleted since the queue was read
      job->resv_ptr = resv;
      job->resv_id = resv->resv_id;
      if (c->magnetic) {
        xfree(job->resv_name);
        job->resv_name = xstrdup(resv->name);
        job->bit_flags |= JOB_MAGNETIC;
      }
    }
    rc = start_job(job, part, c->priority, backfilled, allowed, free_minutes);
    if (c->magnetic) {
      // Kept only by a job that started; an array's meta record (split off a started
      // task, with its fields) waits without it, as stock backfill's next record clears it.
      job_resv_clear_magnetic_flag(job);
      if (job->array_task_id != NO_VAL)
        if (job_record_t* meta = find_job_record(job->array_job_id); meta && meta != job)
          job_resv_clear_magnetic_flag(meta);
    }
    if (rc == SLURM_SUCCESS) break;
    if (refused_for_resources(rc)) busy.push_back(c->reservation);
  }
  return rc;
}

bool refused_for_resources(int rc) {
  switch (rc) {
    case ESLURM_NODES_BUSY:
    case ESLURM_NODE_NOT_AVAIL:
    case ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE:
    case ESLURM_PORTS_BUSY:
      return true;
    default:
      return false;
  }
}

}  // namespace easypp::plugin
