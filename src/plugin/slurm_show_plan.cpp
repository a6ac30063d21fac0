#include "plugin/slurm_show_plan.h"

#include <algorithm>
#include <cstdlib>
#include <unordered_set>

#include "plugin/slurm_handles.h"
#include "plugin/slurm_snapshot.h"

namespace easypp::plugin {

bitstr_t* node_bitmap_of(const Allocation& allocation) {
  bitstr_t* bitmap = bit_alloc(node_record_count);
  for (const NodeShare& s : allocation.shares)
    if (static_cast<int>(s.node) < node_record_count) bit_set(bitmap, s.node);
  return bitmap;
}

std::string group_name(const GroupPlan& group, const ClusterModel& model) {
  std::string name;
  for (std::size_t p : group.partitions)
    name += (name.empty() ? "" : "+") + model.machine.partitions()[p].name;
  return name.empty() ? "cluster" : name;
}

void show_plan(const ClusterPlan& plan, const std::vector<std::vector<Reservation>>& forecasts,
               const std::vector<LimitWait>& limit_waits, const ClusterModel& model,
               const std::unordered_map<JobId, QueuedByName>& queued, ToldStarts& told,
               time_t now, bool trace) {
  auto job_of = [&](JobId id) -> job_record_t* {
    if (id != slurm_job_id(id) || !queued.count(id)) return nullptr;
    return find_job_record(static_cast<std::uint32_t>(id));
  };
  std::string where;  // the group's name, for traces
  std::vector<job_record_t*> shown;  // may repeat a job
  auto show = [&](job_record_t* job, Time planned, const Allocation* allocation,
                  const char* what) {
    if (!job || !IS_JOB_PENDING(job)) return;
    shown.push_back(job);
    const time_t start = std::max<time_t>(planned, now + 1);
    if (job->start_time != 0 && start >= job->start_time) return;
    job->start_time = start;
    if (allocation) {
      OwnedBitmap nodes(node_bitmap_of(*allocation));
      xfree(job->sched_nodes);
      job->sched_nodes = bitmap2node_name(nodes.get());
    }
    if (trace)
      info("sched/easypp: %s: JobId=%u %s %ld (in %lds) on %s", where.c_str(), job->job_id,
           what, static_cast<long>(start), static_cast<long>(start - now),
           job->sched_nodes ? job->sched_nodes : "?");
  };
  bool changed = false;
  auto set_reason = [&](job_record_t* job, std::uint32_t reason) {
    if (!job || !IS_JOB_PENDING(job) || job->state_reason == reason) return;
    if (job->state_reason != WAIT_NO_REASON && job->state_reason != WAIT_RESOURCES &&
        job->state_reason != WAIT_PRIORITY)
      return;
    job->state_reason = reason;
    xfree(job->state_desc);
    changed = true;
  };
  for (std::size_t g = 0; g < plan.groups.size(); ++g) {
    const GroupPlan& group = plan.groups[g];
    const Decision& d = group.decision;
    where = group_name(group, model);
    std::unordered_set<JobId> reserved;
    for (const Reservation& r : d.reservations) {
      job_record_t* job = job_of(r.job);
      show(job, r.start, r.allocation.get(), "reserved at");
      reserved.insert(r.job);
      set_reason(job, WAIT_RESOURCES);
    }
    if (g < forecasts.size())
      for (const Reservation& r : forecasts[g])
        show(job_of(r.job), r.start, r.allocation.get(), "forecast to start at");
    if (d.reservations.empty()) continue;
    // A job nothing may be reserved for that is ahead of every reserved job (priority
    // order) waits behind no one: for Resources, as Slurm's main scheduler says.
    std::unordered_set<JobId> started(d.start.begin(), d.start.end());
    bool behind = false;
    for (const Job& j : group.state.waiting) {
      if (reserved.count(j.id)) behind = true;
      if (started.count(j.id) || reserved.count(j.id)) continue;
      set_reason(job_of(j.id), behind || j.reservable ? WAIT_PRIORITY : WAIT_RESOURCES);
    }
  }
  // A job refused for a limit earlier in the pass may be out of this round's queue.
  where = "limits";
  for (const LimitWait& w : limit_waits)
    show(find_job_record(w.job), w.shown, nullptr, "refused for a limit, shown to start at");
  // Starts squeue was told of that moved, came or went. Once someone else moved the
  // stamp, squeue may hold any start (it may have fetched one cleared by build_job_queue):
  // every start shown or told is told again.
  if (last_job_update != told.stamp && (!shown.empty() || !told.start.empty())) changed = true;
  std::unordered_map<std::uint32_t, time_t> now_told;
  for (job_record_t* job : shown) {
    if (now_told.count(job->job_id)) continue;
    const auto before = told.start.find(job->job_id);
    if (before == told.start.end() ||
        std::abs(job->start_time - before->second) >= ToldStarts::kToldSlack)
      changed = true;
    now_told[job->job_id] = before == told.start.end() ? job->start_time : before->second;
  }
  for (const auto& [id, start] : told.start) {
    if (now_told.count(id)) continue;
    const job_record_t* job = find_job_record(id);
    if (job && IS_JOB_PENDING(job) && job->start_time != start) changed = true;
  }
  if (changed) {
    // squeue fetches every job again: it will hold each start as it is now.
    for (job_record_t* job : shown) now_told[job->job_id] = job->start_time;
    last_job_update = std::max(last_job_update, now);  // never back
  }
  told.start = std::move(now_told);
  told.stamp = last_job_update;
}

}  // namespace easypp::plugin
