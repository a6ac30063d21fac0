#include "plugin/slurm_carry_out.h"

#include <algorithm>
#include <optional>

#include "core/job_request.h"
#include "core/machine.h"
#include "plugin/slurm_handles.h"
#include "plugin/slurm_requeue.h"

namespace easypp::plugin {

namespace {

// Calls visit(group, reservation) for every reservation of the plan placed on nodes, in
// every group: the reservations shown and, under double booking, the ones planned with
// (the earlier; the same nodes).
template <typename Visit>
void for_each_placed_reservation(const ClusterPlan& plan, Visit visit) {
  for (const GroupPlan& group : plan.groups)
    for (const auto* list : {&group.decision.reservations, &group.decision.planned_reservations})
      for (const Reservation& r : *list)
        if (r.allocation) visit(group, r);
}

void clear_nodes(bitstr_t* bitmap, const Allocation& a) {
  for (const NodeShare& s : a.shares)
    if (static_cast<int>(s.node) < node_record_count) bit_clear(bitmap, s.node);
}

// Every node no reservation of the plan holds, in any group (caller frees).
bitstr_t* unreserved_nodes(const ClusterPlan& plan) {
  bitstr_t* bitmap = bit_alloc(node_record_count);
  bit_nset(bitmap, 0, node_record_count - 1);
  for_each_placed_reservation(plan, [&](const GroupPlan&, const Reservation& r) {
    clear_nodes(bitmap, *r.allocation);
  });
  return bitmap;
}

// Clears the nodes of the plan's starts not tried yet: those after `index` in `group`,
// and every start of the groups after it.
void clear_later_starts(bitstr_t* bitmap, const ClusterPlan& plan, const GroupPlan& group,
                        std::size_t index) {
  bool after = false;  // past `group`
  for (const GroupPlan& g : plan.groups) {
    const bool here = &g == &group;
    if (here || after) {
      const auto& starts = g.decision.start_allocations;
      for (std::size_t j = here ? index + 1 : 0; j < starts.size(); ++j)
        if (starts[j]) clear_nodes(bitmap, *starts[j]);
    }
    after = after || here;
  }
}

bool in_one_partition(const std::vector<StartChoice>& choices) {
  return std::all_of(choices.begin(), choices.end(), [&](const StartChoice& c) {
    return c.partition == choices.front().partition;
  });
}

// A heterogeneous job starts only when the plan starts every pending component now (then
// each starts on its planned nodes; launch_job and srun_allocate wait for the last).
// Otherwise none starts: what the plan gave the others stays idle for this pass, and
// the blocked component's reservation keeps later jobs from delaying it.
bool het_job_planned(const job_record_t* job, const std::unordered_set<JobId>& planned) {
  if (job->het_job_id == 0) return true;
  job_record_t* leader = find_job_record(job->het_job_id);
  if (!leader || !leader->het_job_list) return false;
  OwnedIterator it(leader->het_job_list);
  while (job_record_t* component = it.next<job_record_t>())
    if (IS_JOB_PENDING(component) && !planned.count(component->job_id)) return false;
  return true;
}

void count_start(CarryOutCounts& counts, bool backfilled) {
  ++counts.started;
  if (backfilled) {
    ++counts.backfilled;
    ++slurmctld_diag_stats.backfilled_jobs;
    ++slurmctld_diag_stats.last_backfilled_jobs;
  }
}

// The state a group was planned on and its decision, for DebugFlags=Backfill.
void trace_state(const std::string& name, const std::string& policy,
                 const ClusterState& s, const Decision& d) {
  info("sched/easypp: %s: policy %s, %d CPUs%s, %zu running, %zu waiting, now=%ld",
       name.c_str(), policy.c_str(), s.procs, s.machine ? " on nodes" : "", s.running.size(),
       s.waiting.size(), static_cast<long>(s.now));
  for (const RunningJob& r : s.running)
    info("sched/easypp: %s: running JobId=%lu cpus=%d predicted_end=+%lds kill=+%lds "
         "corrections=%d",
         name.c_str(), static_cast<unsigned long>(r.job.id), r.job.procs,
         static_cast<long>(r.predicted_end() - s.now), static_cast<long>(r.kill_time() - s.now),
         r.job.corrections);
  if (s.machine)
    for (const Node& n : s.machine->nodes())
      info("sched/easypp: %s: node %s cpus=%ld mem=%ld windows=%zu", name.c_str(), n.name.c_str(),
           static_cast<long>(n.capacity[kCpu]), static_cast<long>(n.capacity[kMemory]),
           n.windows.size());
  for (const Job& j : s.waiting) {
    info("sched/easypp: %s: waiting JobId=%lu user=%u cpus=%d estimate=%lds prediction=%lds",
         name.c_str(), static_cast<unsigned long>(j.id), j.user, j.procs,
         static_cast<long>(j.estimate), static_cast<long>(j.prediction));
    if (const JobRequest* r = j.request.get())
      info("sched/easypp: %s: request JobId=%lu nodes=%d-%d tasks=%d cpus/task=%ld "
           "mem/task=%ld mem/node=%ld exclusive=%d required=%zu excluded=%zu features=%zu "
           "partitions=%zu reservation=%s",
           name.c_str(), static_cast<unsigned long>(j.id), r->min_nodes, r->max_nodes, r->tasks,
           static_cast<long>(r->per_task[kCpu]), static_cast<long>(r->per_task[kMemory]),
           static_cast<long>(r->per_node[kMemory]), r->exclusive ? 1 : 0, r->required.count(),
           r->excluded.count(), r->features.size(), r->partitions.size(),
           r->reservation.empty() ? "-" : r->reservation.c_str());
  }
  for (JobId id : d.start)
    info("sched/easypp: %s: plan starts JobId=%lu", name.c_str(), static_cast<unsigned long>(id));
}

}  // namespace

std::uint32_t minutes_to_first_reservation(const ClusterPlan& plan, const bitstr_t* nodes,
                                           time_t start) {
  if (!nodes) return 0;
  std::optional<Time> first;
  const auto on_nodes = [nodes](NodeIndex n) {
    return static_cast<int>(n) < node_record_count && bit_test(const_cast<bitstr_t*>(nodes), n);
  };
  for_each_placed_reservation(plan, [&](const GroupPlan& group, const Reservation& r) {
    if (r.start <= group.state.now || (first && r.start >= *first)) return;
    for (const NodeShare& s : r.allocation->shares)
      if (on_nodes(s.node)) {
        first = r.start;
        return;
      }
  });
  // An advance reservation beginning later on one of the nodes (a window of the model's
  // machine): select_nodes would refuse a job not in it a limit that runs into it.
  for (const GroupPlan& group : plan.groups) {
    if (!group.state.machine) continue;
    const std::vector<Node>& machine_nodes = group.state.machine->nodes();
    for (NodeIndex n = 0; n < machine_nodes.size(); ++n) {
      if (!on_nodes(n)) continue;
      for (const NodeWindow& w : machine_nodes[n].windows)
        if (w.from > group.state.now && (!first || w.from < *first)) first = w.from;
    }
  }
  if (!first) return NO_VAL;
  if (*first <= start) return 0;
  // Below NO_VAL and INFINITE, which are not minutes.
  return static_cast<std::uint32_t>(std::min<Time>((*first - start) / 60, NO_VAL - 1));
}

bool carry_out(const ClusterPlan& plan, const ClusterModel& model, const ClusterSnapshot& snap,
               const std::unordered_map<JobId, QueuedByName>& where, const CarryOutRules& rules,
               std::unordered_set<JobId>& not_runnable, QosBlock& blocked,
               std::vector<LimitWait>& limit_waits, bool trace, CarryOutCounts& counts,
               const YieldPoint& yield, bool& stopped) {
  // Jobs whose feature expression the plan does not model: their planned nodes may be
  // wrong, so a refusal must not keep resources for them.
  std::unordered_set<JobId> unmodelled;
  // Jobs nothing may be reserved for (QOS NoReserve, bf_min_prio_reserve,
  // bf_min_age_reserve): a refused one keeps nothing either, as stock reserves nothing,
  // under a policy that honours that (fcfs waits for it, as Slurm's FIFO scheduler).
  std::unordered_set<JobId> unreservable;
  for (const JobRecord& r : snap.waiting) {
    if (r.request.features_left) unmodelled.insert(slurm_job_id(r.id));
    if (!r.reservable) unreservable.insert(slurm_job_id(r.id));
  }
  bool again = false;
  std::optional<OwnedBitmap> unreserved;  // made at the first refusal
  // The nodes of jobs refused and kept as planned for this pass (at the first one).
  std::optional<OwnedBitmap> kept;
  const FreeMinutes free_minutes = [&plan](const bitstr_t* nodes, time_t start) {
    return minutes_to_first_reservation(plan, nodes, start);
  };
  for (const GroupPlan& group : plan.groups) {
    const Decision& d = group.decision;
    counts.examined += d.examined;
    std::optional<Time> limit_wait;  // the group's, at its first limit refusal
    const std::unordered_set<JobId> planned(d.start.begin(), d.start.end());
    if (trace) trace_state(group_name(group, model), group.policy, group.state, d);
    // Kills first (papers 002/004): the plan's starts use what they free. Plan again
    // with the victims back in the queue. Only for starts still wanted: the plan was made
    // without the locks, and a job it kills for may have been started (by Slurm's main
    // scheduler), held or cancelled since; Slurm preempts only for a job starting now.
    if (!d.kill_requeue.empty()) {
      const bool wanted = std::all_of(d.start.begin(), d.start.end(), [](JobId planned) {
        job_record_t* job = find_job_record(static_cast<std::uint32_t>(slurm_job_id(planned)));
        return job && still_startable(job);
      });
      if (!wanted) {
        if (trace) info("sched/easypp: kills of a stale plan not carried out (a start it made room for is gone)");
        again = true;
      } else if (requeue_victims(d.kill_requeue, rules.requeue_partitions, group.policy) > 0) {
        again = true;
      }
    }
    for (std::size_t i = 0; i < d.start.size() && i < d.start_allocations.size(); ++i) {
      const JobId id = slurm_job_id(d.start[i]);
      auto w = where.find(id);
      if (w == where.end()) continue;
      if (rules.max_starts > 0 && counts.started >= rules.max_starts) break;
      if (yield() == Yield::abandon) {
        stopped = true;
        return false;
      }
      // The record now (an array's meta record moves on with each task started).
      job_record_t* job = find_job_record(static_cast<std::uint32_t>(id));
      // Held, moved, made dependent, its array at its %N throttle... since the read.
      if (!job || not_runnable.count(id) || !still_startable(job)) continue;
      if (!het_job_planned(job, planned)) continue;
      // A job with a record of a QOS blocked earlier in this decision (its own, or its
      // partition's) is planned again: the re-plan (nodes_queue) leaves out the blocked
      // records, and the job when none is left.
      if (blocked.blocks_any(job, id, w->second.choices)) {
        again = true;
        continue;
      }
      OwnedBitmap nodes(node_bitmap_of(*d.start_allocations[i]));
      const int planned_part = d.start_allocations[i]->partition;
      const std::string planned_in =
          planned_part >= 0 && static_cast<std::size_t>(planned_part) < model.machine.partitions().size()
              ? model.machine.partitions()[static_cast<std::size_t>(planned_part)].name
              : std::string();
      const bool backfilled =
          std::find(d.backfilled.begin(), d.backfilled.end(), d.start[i]) != d.backfilled.end();
      part_record_t* part = nullptr;
      const auto started = [&](const char* how) {
        count_start(counts, backfilled);
        const char* qos = compat::chosen_qos_name(job);
        info("sched/easypp: started JobId=%u in %s on %s (%s%s%s)%s%s", job->job_id,
             partition_name(part).c_str(), job->nodes ? job->nodes : "?",
             group.policy.c_str(), backfilled ? ", backfilled" : "", how,
             *qos ? " under QOS " : "", qos);
      };
      const int rc =
          start_job(job, w->second.choices, backfilled, nodes.get(), &part, free_minutes, planned_in);
      if (!part) continue;  // its partitions went away, stopped or were left while we planned
      if (rc == SLURM_SUCCESS) {
        started("");
        continue;
      }
      if (refused_for_resources(rc)) {
        // Refused on its planned nodes for what the model does not see (per-node task
        // counts, sockets, ...): let select_nodes choose among those nodes and every node
        // of the partition no reservation of this pass holds, as stock backfill lets it
        // choose among the nodes its reservations leave; nor the nodes of a job refused
        // before it and kept as planned (stock reserves them), nor those of starts not
        // tried yet. Jobs started this pass hold only what select_nodes gave them.
        if (!unreserved) unreserved.emplace(unreserved_nodes(plan));
        OwnedBitmap wider(bit_copy(unreserved->get()));
        if (kept) bit_and_not(wider.get(), kept->get());
        clear_later_starts(wider.get(), plan, group, i);
        // Within the partition it was tried in: a set reaching past it would make
        // start_job take another of its partitions that holds the whole set.
        if (part->node_bitmap) bit_and(wider.get(), part->node_bitmap);
        bit_or(wider.get(), nodes.get());
        if (!bit_equal(wider.get(), nodes.get()) &&
            start_job(job, w->second.choices, backfilled, wider.get(), &part, free_minutes,
                      partition_name(part)) ==
                SLURM_SUCCESS) {
          started("; select_nodes refused the planned nodes, it chose among the unreserved ones");
          continue;
        }
      }
      ++counts.refused;
      // Under assoc_limit_stop a job a limit holds back keeps what the plan gave it, as
      // stock backfill reserves for it: when its own QOS blocks it, or it is queued in
      // that partition alone. One queued in others is planned again without it, so
      // another record may start it.
      const bool limit_refused = rc == ESLURM_ACCOUNTING_POLICY && rules.assoc_limit_stop;
      const bool group_limit = limit_refused && job->qos_blocking_ptr &&
                               compat::qos_group_reason(job->state_reason);
      const bool limit_held =
          limit_refused && (in_one_partition(w->second.choices) ||
                            (group_limit && job->qos_blocking_ptr == job->qos_ptr));
      const bool held = (refused_for_resources(rc) || limit_held) && !unmodelled.count(id) &&
                        !(group.honours_reservable && unreservable.count(id));
      if (group_limit) blocked.block_for(job);
      if (held && limit_held) blocked.hold(id);
      if (held) {
        if (!kept) kept.emplace(bit_alloc(node_record_count));
        bit_or(kept->get(), nodes.get());
      }
      // By the record's id: a copy of an array's meta record refused after the meta
      // record's own entry started shows on the meta record, still pending with the
      // array's other tasks (the started task took a new id: job_array_split).
      if (limit_refused) {
        if (!limit_wait) limit_wait = limit_wait_shown(group.state);
        // Once per record (a further copy, or a later round, may be refused too): the
        // earliest start.
        auto shown = std::find_if(limit_waits.begin(), limit_waits.end(),
                                  [&](const LimitWait& l) { return l.job == job->job_id; });
        if (shown == limit_waits.end())
          limit_waits.push_back({job->job_id, *limit_wait});
        else
          shown->shown = std::min(shown->shown, *limit_wait);
      }
      if (!held) {
        again = true;
        // Blocked by a QOS group limit: the re-plan leaves out the records of that QOS,
        // as their own or their partition's, so one refused by the partition QOS of the
        // partition tried is planned again in its others.
        if (!group_limit) not_runnable.insert(id);
      }
      if (trace)
        info("sched/easypp: select_nodes refused JobId=%u on its planned nodes: %s (%s)",
             job->job_id, slurm_strerror(rc),
             held ? "kept as planned for this pass" : "not runnable now, planning again");
    }
  }
  return again;
}

}  // namespace easypp::plugin
