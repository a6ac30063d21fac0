#include "replay/live_outcome.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/predictions.h"
#include "easypp/predictor.h"
#include "measure/metrics.h"

namespace easypp::replay {

namespace {

using measure::accuracy_of;

struct Tracked {
  Job job;
  Time since = 0;
  double sum = 0;
  bool started = false;
};

void integrate(Tracked& t, Time runtime, Time now) {
  t.sum += accuracy_of(t.job.prediction, runtime) * static_cast<double>(now - t.since);
  t.since = now;
}

}  // namespace

void reconstruct_accuracy(measure::SimOutcome& outcome, const std::vector<Time>& estimates,
                          const std::vector<UserId>& users, const PolicyTraits& traits) {
  Predictions predictions(traits);
  const std::size_t n = outcome.jobs.size();
  std::vector<Tracked> tracked(n);
  // Events: (time, kind, job); kind 0 = end, 1 = submit, 2 = start.
  struct Event {
    Time time;
    int kind;
    std::size_t job;
  };
  std::vector<Event> events;
  events.reserve(3 * n);
  for (std::size_t i = 0; i < n; ++i) {
    const measure::JobOutcome& o = outcome.jobs[i];
    events.push_back({o.submit, 1, i});
    events.push_back({o.start, 2, i});
    events.push_back({o.end, 0, i});
  }
  std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    return a.time != b.time ? a.time < b.time : a.kind < b.kind;
  });
  for (const Event& e : events) {
    measure::JobOutcome& o = outcome.jobs[e.job];
    Tracked& t = tracked[e.job];
    if (e.kind == 1) {
      t.job.id = static_cast<JobId>(e.job + 1);
      t.job.user = users[e.job];
      t.job.submit = o.submit;
      t.job.procs = o.procs;
      t.job.estimate = std::max<Time>(
          1, static_cast<Time>(std::llround(static_cast<double>(estimates[e.job]) *
                                            traits.estimate_factor)));
      predictions.predict(t.job, o.runtime);
      t.since = o.submit;
    } else if (e.kind == 2) {
      t.started = true;
    } else {
      RunningJob rj{t.job, o.start};
      // Corrections at each predicted end the job outlived, as the simulator's expiries.
      for (Time last = -1;;) {
        std::optional<Time> at = predictions.next_correction_time(rj);
        if (!at || *at >= o.end || *at <= last) break;
        last = *at;
        integrate(t, o.runtime, std::max(*at, t.since));
        if (!predictions.correct(rj, *at)) break;
        t.job = rj.job;
      }
      integrate(t, o.runtime, o.end);
      const Time lifetime = o.end - o.submit;
      o.accuracy = lifetime > 0 ? t.sum / static_cast<double>(lifetime)
                                : accuracy_of(t.job.prediction, o.runtime);
      o.corrections = t.job.corrections;
      const int end_state = o.killed_at_limit ? EPP_END_TIMEOUT : EPP_END_COMPLETED;
      auto ended = predictions.job_ended(t.job, o.start, o.end, end_state);
      if (ended.repredict_user) {
        for (std::size_t k = 0; k < n; ++k) {
          Tracked& w = tracked[k];
          if (w.job.id == 0 || w.started || w.job.user != *ended.repredict_user) continue;
          integrate(w, outcome.jobs[k].runtime, e.time);
          predictions.predict(w.job, outcome.jobs[k].runtime);
        }
      }
    }
  }
}

LiveOutcome live_outcome(const ReplayPlan& plan, const std::vector<RealTimes>& real,
                         double real_start, const PolicyTraits& traits,
                         const std::string& policy_label, const std::string& trace_name) {
  LiveOutcome live;
  measure::SimOutcome& out = live.outcome;
  out.policy = policy_label;
  out.trace = trace_name;
  out.procs = plan.cluster_cpus;
  const double f = plan.speedup;
  auto to_trace = [&](Time t) {
    return plan.trace_start +
           static_cast<Time>(std::llround((static_cast<double>(t) - real_start) * f));
  };
  std::vector<Time> estimates;
  std::vector<UserId> users;
  for (std::size_t i = 0; i < plan.jobs.size(); ++i) {
    const RealTimes& r = real[i];
    if (!r.recorded) {
      ++live.missing;
      continue;
    }
    const PlannedJob& p = plan.jobs[i];
    measure::JobOutcome o;
    o.submit = to_trace(r.submit);
    o.start = to_trace(r.start);
    o.end = to_trace(r.end);
    o.procs = p.procs;
    o.runtime = o.end - o.start;
    o.killed_at_limit = r.end_state == EPP_END_TIMEOUT;
    if (o.killed_at_limit) ++live.timeouts;
    if (r.end_state == EPP_END_FAILED || r.end_state == EPP_END_CANCELLED) {
      ++live.killed_before_limit;
    }
    o.backfilled = r.backfilled;
    // Killed runs (requeued): work lost, in trace time like everything else here.
    o.restarts = r.restarts;
    if (p.procs > 0)
      o.run_before_final = static_cast<Time>(std::llround(r.lost_cpu_seconds * f / p.procs));
    out.lost_proc_seconds += r.lost_cpu_seconds * f;
    out.busy_proc_seconds += r.lost_cpu_seconds * f;
    out.jobs.push_back(o);
    live.plan_index.push_back(i);
    estimates.push_back(static_cast<Time>(std::llround(static_cast<double>(p.limit_min) * 60.0 * f)));
    users.push_back(p.user);
    out.busy_proc_seconds += static_cast<double>(p.procs) * static_cast<double>(o.runtime);
  }
  if (!out.jobs.empty()) {
    out.first_submit = out.jobs.front().submit;
    for (const measure::JobOutcome& o : out.jobs) {
      out.first_submit = std::min(out.first_submit, o.submit);
      out.last_arrival = std::max(out.last_arrival, o.submit);
      out.last_end = std::max(out.last_end, o.end);
    }
  }
  // Termination order, for the metrics' warm-up exclusion (ties: plan order).
  std::vector<std::size_t> order(out.jobs.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return out.jobs[a].end < out.jobs[b].end;
  });
  for (std::size_t rank = 0; rank < order.size(); ++rank) {
    out.jobs[order[rank]].end_rank = static_cast<std::int64_t>(rank);
  }
  reconstruct_accuracy(out, estimates, users, traits);
  return live;
}

}  // namespace easypp::replay
