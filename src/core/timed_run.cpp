#include "core/timed_run.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace easypp {
namespace {

constexpr std::size_t kNotRunning = std::numeric_limits<std::size_t>::max();

// The driver's priority order (the simulator's FCFS in paper 004).
bool before(const Job& a, const Job& b) { return higher_priority(a, b); }

}  // namespace

TimedRunPolicy::TimedRunPolicy(std::string name, PolicyTraits traits, BaseScheduler base,
                               Time trial_length)
    : name_(std::move(name)), traits_(std::move(traits)), base_(base), trial_length_(trial_length) {
  if (trial_length < 0) {
    throw std::invalid_argument("timed-run: trial_length=" + std::to_string(trial_length) +
                                ": must be >= 0 seconds");
  }
  traits_.kills = true;
  traits_.never_backfills = base == BaseScheduler::fcfs;
}

Decision TimedRunPolicy::plan(const ClusterState& state) {
  Decision d;
  const Time now = state.now;
  const Time trial = trial_length_;
  int idle = state.procs;
  for (const RunningJob& r : state.running)
    if (!r.job.releasing) idle -= r.job.procs;

  // A new run of the same object (easypp-sim --repeat) starts earlier: forget the last.
  if (state.now < last_now_) trial_started_.clear();
  last_now_ = state.now;
  // Forget jobs that ended during their trial (the set only matters for running jobs).
  if (trial_started_.size() > 2 * state.running.size() + 1024) {
    std::erase_if(trial_started_, [&](JobId id) {
      return std::none_of(state.running.begin(), state.running.end(),
                          [id](const RunningJob& r) { return r.job.id == id; });
    });
  }
  // A job waiting again (killed, or its trial start refused) has no trial under way: if
  // another scheduler (Slurm's main one) starts it, that run is committed, never killed.
  for (const Job& w : state.waiting) trial_started_.erase(w.id);
  // Running jobs: committed ones stay in the base plan as running; the others are on
  // their trial or past it (terminable: not counted, so their share is free to the plan;
  // they are killed below if a start needs it). A job this policy never started (a policy
  // object created while jobs run) counts as committed, and so does a restarted one (one
  // trial per job, paper 004).
  queue_.clear();
  plan_.begin(state);
  std::optional<Time> wake;
  for (std::size_t i = 0; i < state.running.size(); ++i) {
    const RunningJob& r = state.running[i];
    // On its way out (a victim still completing): its share is free to the plan, as a
    // terminable one's, but it is no victim (a start there waits for Slurm's clean-up).
    if (r.job.releasing) continue;
    if (trial == 0 || !r.job.requeueable || r.job.restarts > 0 ||
        !trial_started_.contains(r.job.id)) {
      plan_.count(r, r.predicted_end());
      continue;
    }
    const Time trial_end = r.start + trial;
    if (trial_end > now) {
      queue_.push_back({r.job, Kind::on_trial, trial_end, i, false, r.allocation});
      plan_.count(r, std::min(trial_end, r.predicted_end()));
      wake = wake ? std::min(*wake, trial_end) : trial_end;
    } else {
      queue_.push_back({r.job, Kind::terminable, trial_end, i, false, r.allocation});
    }
  }

  // Trial runs first: every job that never ran and fits, in arrival order.
  int needed = 0;  // really idle processors the starts of this pass need (pool)
  for (const Job& w : state.waiting) {
    require_plannable(w);
    ++d.examined;
    std::optional<EasyPlan::Placement> placement;
    const Time trial_run_end = now + std::min(trial, w.prediction);
    // A job that may not be requeued gets no trial (it could not be terminated lazily):
    // the base scheduler alone starts it, and it runs to completion.
    if (trial > 0 && w.restarts == 0 && w.requeueable) placement = plan_.fits_now(w, trial_run_end);
    if (placement) {
      plan_.start(w, *placement, trial_run_end);
      needed += w.procs;
      trial_started_.insert(w.id);
      EasyPlan::record(d, w, *placement, false);
      queue_.push_back({w, Kind::on_trial, now + trial, kNotRunning, false, *placement});
      wake = wake ? std::min(*wake, now + trial) : now + trial;
    } else {
      queue_.push_back({w, Kind::waiting, 0, kNotRunning, false, nullptr});
    }
  }
  std::stable_sort(queue_.begin(), queue_.end(),
                   [](const Entry& a, const Entry& b) { return before(a.job, b.job); });

  // The base scheduler, in its own (FCFS) order, on what is left.
  auto fits = [&](const Entry& e, EasyPlan::Placement& placement) {
    if (e.kind == Kind::waiting) {
      auto p = plan_.fits_now(e.job, now + e.job.prediction);
      if (p) placement = *p;
      return p.has_value();
    }
    const RunningJob& r = state.running[e.running_index];
    return plan_.holds_now(r, r.predicted_end());
  };
  auto commit = [&](Entry& e, const EasyPlan::Placement& placement, bool backfill) {
    e.committed = true;
    trial_started_.erase(e.job.id);
    if (e.kind == Kind::waiting) {
      EasyPlan::record(d, e.job, placement, backfill);
      needed += e.job.procs;
      plan_.start(e.job, placement, now + e.job.prediction);
    } else {  // terminable: simply continues
      const RunningJob& r = state.running[e.running_index];
      plan_.keep(r, r.predicted_end());
    }
  };
  std::size_t k = 0;
  for (; k < queue_.size(); ++k) {
    Entry& e = queue_[k];
    if (e.kind == Kind::waiting && !plan_.ever_fits(e.job)) continue;  // must not block
    EasyPlan::Placement placement;
    if (e.kind == Kind::on_trial || !fits(e, placement)) break;
    commit(e, placement, false);
  }
  if (k < queue_.size()) {
    const Entry& head = queue_[k];
    // A job on trial is not committed before its trial ends (on nodes: on its own ones).
    const bool on_trial = head.kind == Kind::on_trial;
    const EasyPlan::Slot slot =
        plan_.head_start(head.job, on_trial ? head.trial_end : 0,
                         on_trial ? head.placement : nullptr);
    plan_.reserve(head.job, slot);
    if (!on_trial) d.reservations.push_back({head.job.id, slot.start, slot.allocation});
    if (base_ == BaseScheduler::easy) {
      for (std::size_t j = k + 1; j < queue_.size() && !plan_.full(); ++j) {
        Entry& e = queue_[j];
        EasyPlan::Placement placement;
        if (e.kind == Kind::on_trial || !fits(e, placement)) continue;
        commit(e, placement, true);
      }
    }
  }

  // Lazy termination: kill terminable jobs, the one whose trial ended first first, until
  // the starts of this pass have their processors.
  if (plan_.on_nodes()) {
    kill_overbooking(state, d);
  } else if (needed > idle) {
    std::vector<const Entry*> victims;
    for (const Entry& e : queue_) {
      if (e.kind == Kind::terminable && !e.committed) victims.push_back(&e);
    }
    std::sort(victims.begin(), victims.end(), [](const Entry* a, const Entry* b) {
      return a->trial_end != b->trial_end ? a->trial_end < b->trial_end : a->job.id < b->job.id;
    });
    for (const Entry* v : victims) {
      if (needed <= idle) break;
      d.kill_requeue.push_back(v->job.id);
      idle += v->job.procs;
    }
    if (needed > idle) {
      throw std::logic_error("timed-run: starts need " + std::to_string(needed) +
                             " processors, only " + std::to_string(idle) + " can be freed");
    }
  }
  d.wake_at = wake;
  return d;
}

void TimedRunPolicy::kill_overbooking(const ClusterState& state, Decision& d) const {
  const Machine& machine = *state.machine;
  std::vector<Resources> used(machine.nodes().size());
  Resources licences;
  auto add = [&](const Allocation& a, int sign) {
    for (const NodeShare& s : a.shares) {
      if (sign > 0) used[s.node] += s.amount; else used[s.node] -= s.amount;
    }
    if (sign > 0) licences += a.licences; else licences -= a.licences;
  };
  for (const RunningJob& r : state.running) {
    if (r.allocation && !r.job.releasing) add(*r.allocation, +1);
  }
  for (const auto& a : d.start_allocations) add(*a, +1);
  Resources licence_total;
  for (std::size_t l = 0; l < machine.licences().size(); ++l)
    licence_total[l] = machine.licences()[l].count;
  auto overbooked = [&](NodeIndex n) { return !machine.nodes()[n].capacity.covers(used[n]); };
  auto any_overbooked = [&] {
    if (!licence_total.covers(licences)) return true;
    for (NodeIndex n = 0; n < used.size(); ++n)
      if (overbooked(n)) return true;
    return false;
  };
  std::vector<const Entry*> victims;
  for (const Entry& e : queue_) {
    if (e.kind == Kind::terminable && !e.committed && e.placement) victims.push_back(&e);
  }
  std::sort(victims.begin(), victims.end(), [](const Entry* a, const Entry* b) {
    return a->trial_end != b->trial_end ? a->trial_end < b->trial_end : a->job.id < b->job.id;
  });
  for (const Entry* v : victims) {
    if (!any_overbooked()) break;
    const Allocation& a = *v->placement;
    const bool frees_licence = !licence_total.covers(licences) && !(a.licences == Resources{});
    const bool frees_node = std::any_of(a.shares.begin(), a.shares.end(),
                                        [&](const NodeShare& s) { return overbooked(s.node); });
    if (!frees_licence && !frees_node) continue;
    d.kill_requeue.push_back(v->job.id);
    add(a, -1);
  }
  if (any_overbooked()) {
    throw std::logic_error("timed-run: the starts overbook nodes that no kill can free");
  }
}

std::unique_ptr<Policy> make_timed_run(PolicyTraits traits, PolicyParams& params) {
  // Paper 004: the base scheduler and the trial length (90 s in its evaluation).
  const std::string base = params.word("base", "easy", {"fcfs", "easy"});
  const Time trial = params.integer("trial", 90, 0, 100'000'000);
  // Named by its spec, as the EASY family: runs with other keys must be told apart.
  return std::make_unique<TimedRunPolicy>(
      params.spec(), std::move(traits), base == "fcfs" ? BaseScheduler::fcfs : BaseScheduler::easy,
      trial);
}

}  // namespace easypp
