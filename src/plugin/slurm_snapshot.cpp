#include "plugin/slurm_snapshot.h"

#include <algorithm>
#include <map>
#include <memory>

#include "easypp/predictor.h"
#include "plugin/slurm_handles.h"

namespace easypp::plugin {

namespace {

// A limit in minutes (Slurm's unit) as seconds; INFINITE plans as a year.
Time minutes_to_seconds(std::uint32_t minutes) {
  if (minutes == INFINITE || minutes == NO_VAL) return YEAR_SECONDS;
  return static_cast<Time>(minutes) * 60;
}

// The limit a pending job will get from select_nodes: its own, else the partition's
// DefaultTime, else MaxTime; never above MaxTime (as stock backfill plans).
Time pending_limit(const job_record_t* job, const part_record_t* part) {
  std::uint32_t minutes = job->time_limit;
  if (minutes == NO_VAL)
    minutes = part->default_time != NO_VAL ? part->default_time : part->max_time;
  if (part->max_time != INFINITE && part->max_time != NO_VAL && minutes != INFINITE)
    minutes = std::min(minutes, part->max_time);
  else if (part->max_time != INFINITE && part->max_time != NO_VAL)
    minutes = part->max_time;
  return std::max<Time>(1, minutes_to_seconds(minutes));
}

// CPUs a node offers to jobs (specialized cores excluded).
int node_cpus(const node_record_t* node) {
  return node->cpus_efctv > 0 ? node->cpus_efctv : node->cpus;
}

// CPUs a job holds on nodes of `usable` (its allocation's per-node CPU counts).
int held_cpus(const job_record_t* job, const bitstr_t* usable) {
  const job_resources_t* res = job->job_resrcs;
  if (!res || !res->node_bitmap || !res->cpus) return 0;
  int total = 0;
  int k = 0;  // index into res->cpus: the k-th node of the allocation
  const int n = bit_size(res->node_bitmap);
  for (int i = 0; i < n; ++i) {
    if (!bit_test(res->node_bitmap, i)) continue;
    if (bit_test(const_cast<bitstr_t*>(usable), i)) total += res->cpus[k];
    ++k;
  }
  return total;
}

// CPUs a pending job needs: its minimum CPU count, or whole nodes when exclusive.
int needed_cpus(const job_record_t* job, int max_node_cpus) {
  const struct job_details* d = job->details;
  if (!d) return 1;
  long cpus = d->min_cpus;
  const long nodes = std::max<std::uint32_t>(1, d->min_nodes);
  cpus = std::max<long>(cpus, nodes * d->pn_min_cpus);
  if (d->whole_node & WHOLE_NODE_REQUIRED) cpus = std::max<long>(cpus, nodes * max_node_cpus);
  return static_cast<int>(std::clamp<long>(cpus, 1, 1L << 30));
}

bool holds_resources(const job_record_t* job) {
  return IS_JOB_RUNNING(job) || IS_JOB_SUSPENDED(job) || IS_JOB_COMPLETING(job);
}

}  // namespace

Time limit_seconds(std::uint32_t minutes) { return std::max<Time>(1, minutes_to_seconds(minutes)); }

int end_state_of(std::uint32_t job_state) {
  switch (job_state & JOB_STATE_BASE) {
    case JOB_COMPLETE: return EPP_END_COMPLETED;
    case JOB_CANCELLED: return EPP_END_CANCELLED;
    case JOB_TIMEOUT: return EPP_END_TIMEOUT;
    default: return EPP_END_FAILED;
  }
}

JobQueue read_job_queue(int max_per_partition) {
  JobQueue out;
  OwnedList queue(build_job_queue(true, true));
  sort_job_queue(queue.get());
  std::map<part_record_t*, std::size_t> index;
  const auto free_rec = [](job_queue_rec_t* r) { xfree(r); };
  while (std::unique_ptr<job_queue_rec_t, decltype(free_rec)> owned{
             static_cast<job_queue_rec_t*>(list_pop(queue.get())), free_rec}) {
    job_queue_rec_t* rec = owned.get();
    ++out.length;
    // Heterogeneous jobs start all components together (the main scheduler's logic);
    // --prefer records are a second try of a queued job: neither is planned here.
    if (rec->job_ptr && rec->part_ptr && !rec->use_prefer && rec->job_ptr->het_job_id == 0) {
      auto [it, added] = index.emplace(rec->part_ptr, out.partitions.size());
      if (added) out.partitions.push_back(PartitionQueue{rec->part_ptr, {}});
      auto& jobs = out.partitions[it->second].jobs;
      if (static_cast<int>(jobs.size()) < max_per_partition)
        jobs.push_back(QueuedJob{rec->job_ptr, rec->priority});
    }
  }
  return out;
}

PartitionSnapshot read_partition(const PartitionQueue& queue, Time now) {
  part_record_t* part = queue.partition;
  PartitionSnapshot snap;
  snap.name = part->name ? part->name : "";
  snap.now = now;
  if (!part->node_bitmap || !avail_node_bitmap) return snap;

  // Usable = in the partition and available (up, not drained, responding).
  OwnedBitmap owned_usable(bit_copy(part->node_bitmap));
  bitstr_t* usable = owned_usable.get();
  bit_and(usable, avail_node_bitmap);
  int max_node_cpus = 1;
  node_record_t* node;
  for (int i = 0; (node = next_node(&i)); ++i) {
    if (!bit_test(usable, i)) continue;
    snap.procs += node_cpus(node);
    max_node_cpus = std::max(max_node_cpus, node_cpus(node));
  }

  OwnedIterator it(job_list);
  while (job_record_t* job = it.next<job_record_t>()) {
    if (!holds_resources(job)) continue;
    const int cpus = held_cpus(job, usable);
    if (cpus <= 0) continue;
    JobRecord r;
    r.id = job->job_id;
    r.user = job->user_id;
    r.submit = job->details ? job->details->submit_time : job->start_time;
    r.start = job->start_time;
    r.priority = job->priority;
    // The kill time Slurm enforces (end_time), as a duration; we never change it.
    r.limit = std::max<Time>(1, static_cast<Time>(job->end_time) - job->start_time);
    r.procs = cpus;
    snap.running.push_back(r);
  }

  for (const QueuedJob& q : queue.jobs) {
    JobRecord r;
    r.id = q.job->job_id;
    r.user = q.job->user_id;
    r.submit = q.job->details ? q.job->details->submit_time : now;
    r.priority = q.priority;
    r.limit = pending_limit(q.job, part);
    r.procs = needed_cpus(q.job, max_node_cpus);
    snap.waiting.push_back(r);
  }
  return snap;
}

std::vector<FinishedJob> read_finished_jobs(std::unordered_set<JobId>& finished,
                                            std::unordered_set<JobId>& active) {
  std::vector<FinishedJob> out;
  OwnedIterator it(job_list);
  while (job_record_t* job = it.next<job_record_t>()) {
    if (!IS_JOB_FINISHED(job)) {
      active.insert(job->job_id);
      continue;
    }
    finished.insert(job->job_id);
    if (job->start_time <= 0 || job->end_time < job->start_time) continue;  // never ran
    FinishedJob f;
    f.job.id = job->job_id;
    f.job.user = job->user_id;
    f.job.submit = job->details ? job->details->submit_time : job->start_time;
    f.job.start = job->start_time;
    f.job.limit = limit_seconds(job->time_limit);
    f.job.procs = std::max<int>(1, static_cast<int>(job->total_cpus));
    f.end = job->end_time;
    f.end_state = end_state_of(job->job_state);
    out.push_back(f);
  }
  return out;
}

}  // namespace easypp::plugin
