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
}

Decision TimedRunPolicy::plan(const ClusterState& state) {
  require_pool(state, name());
  Decision d;
  const Time now = state.now;
  const Time trial = trial_length_;
  int idle = state.procs;
  for (const RunningJob& r : state.running) idle -= r.job.procs;

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
  // Running jobs: committed ones stay in the base plan as running; the others are on
  // their trial or past it (terminable). A job this policy never started (a policy object
  // created while jobs run) counts as committed.
  queue_.clear();
  busy_.clear();
  int terminable_procs = 0;
  std::optional<Time> wake;
  for (std::size_t i = 0; i < state.running.size(); ++i) {
    const RunningJob& r = state.running[i];
    if (trial == 0 || !trial_started_.contains(r.job.id)) {
      busy_.push_back({r.predicted_end(), r.job.procs});
      continue;
    }
    const Time trial_end = r.start + trial;
    if (trial_end > now) {
      queue_.push_back({r.job, Kind::on_trial, trial_end, i, false});
      busy_.push_back({std::min(trial_end, r.predicted_end()), r.job.procs});
      wake = wake ? std::min(*wake, trial_end) : trial_end;
    } else {
      queue_.push_back({r.job, Kind::terminable, trial_end, i, false});
      terminable_procs += r.job.procs;
    }
  }

  // Trial runs first: every job that never ran and fits, in arrival order. Processors of
  // terminable jobs count as free (they are killed below if a start needs them).
  int free = idle + terminable_procs;
  int needed = 0;  // really idle processors the starts of this pass need
  for (const Job& w : state.waiting) {
    require_plannable(w);
    ++d.examined;
    if (trial > 0 && w.restarts == 0 && w.procs <= free) {
      free -= w.procs;
      needed += w.procs;
      trial_started_.insert(w.id);
      d.start.push_back(w.id);
      queue_.push_back({w, Kind::on_trial, now + trial, kNotRunning, false});
      busy_.push_back({now + std::min(trial, w.prediction), w.procs});
      wake = wake ? std::min(*wake, now + trial) : now + trial;
    } else {
      queue_.push_back({w, Kind::waiting, 0, kNotRunning, false});
    }
  }
  std::stable_sort(queue_.begin(), queue_.end(),
                   [](const Entry& a, const Entry& b) { return before(a.job, b.job); });

  // The base scheduler, in its own (FCFS) order, on the processors left.
  auto commit = [&](Entry& e, bool backfill) {
    e.committed = true;
    trial_started_.erase(e.job.id);
    if (e.kind == Kind::waiting) {
      d.start.push_back(e.job.id);
      if (backfill) d.backfilled.push_back(e.job.id);
      needed += e.job.procs;
      busy_.push_back({now + e.job.prediction, e.job.procs});
    } else {  // terminable: simply continues
      const RunningJob& r = state.running[e.running_index];
      busy_.push_back({r.predicted_end(), r.job.procs});
    }
  };
  std::size_t k = 0;
  for (; k < queue_.size(); ++k) {
    Entry& e = queue_[k];
    if (e.job.procs > state.procs) continue;  // can never start: must not block
    if (e.kind == Kind::on_trial || e.job.procs > free) break;
    free -= e.job.procs;
    commit(e, false);
  }
  if (k < queue_.size()) {
    const Entry& head = queue_[k];
    profile_.reset(now, state.procs, busy_);
    auto [shadow, extra] = profile_.shadow(head.job.procs, head.job.prediction);
    if (head.kind == Kind::on_trial && shadow < head.trial_end) {
      // Not before its trial ends; the plan only gains processors over time.
      shadow = head.trial_end;
      extra = profile_.free_at(shadow) - head.job.procs;
    }
    if (head.kind != Kind::on_trial) d.reservations.push_back({head.job.id, shadow});
    if (base_ == BaseScheduler::easy) {
      for (std::size_t j = k + 1; j < queue_.size() && free > 0; ++j) {
        Entry& e = queue_[j];
        if (e.kind == Kind::on_trial || e.job.procs > free) continue;
        const Time end = e.kind == Kind::waiting
                             ? now + e.job.prediction
                             : state.running[e.running_index].predicted_end();
        if (end > shadow) {
          if (e.job.procs > extra) continue;
          extra -= e.job.procs;
        }
        free -= e.job.procs;
        commit(e, true);
      }
    }
  }

  // Lazy termination: kill terminable jobs, the one whose trial ended first first, until
  // the starts of this pass have their processors.
  if (needed > idle) {
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

std::unique_ptr<Policy> make_timed_run(const PolicyOptions& options) {
  BaseScheduler base = BaseScheduler::easy;
  if (options.base == "fcfs") {
    base = BaseScheduler::fcfs;
  } else if (options.base != "easy") {
    throw std::invalid_argument("timed-run: base=" + options.base + ": expected fcfs or easy");
  }
  PolicyTraits traits;
  traits.predictor = options.predictor.empty() ? "estimate" : options.predictor;
  return std::make_unique<TimedRunPolicy>("timed-run", std::move(traits), base,
                                          options.trial_length);
}

}  // namespace easypp
