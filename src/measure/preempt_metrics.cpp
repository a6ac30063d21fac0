#include "measure/preempt_metrics.h"

#include <algorithm>
#include <set>
#include <vector>

#include "easypp/predictor.h"

namespace easypp::measure {
namespace {

// Processors held by jobs of index < i (higher priority), O(log n) per update and query.
class PrefixSums {
 public:
  explicit PrefixSums(std::size_t n) : tree_(n + 1, 0) {}
  void add(std::size_t i, std::int64_t v) {
    for (std::size_t k = i + 1; k < tree_.size(); k += k & (~k + 1)) tree_[k] += v;
  }
  std::int64_t below(std::size_t i) const {  // sum over indices < i
    std::int64_t s = 0;
    for (std::size_t k = i; k > 0; k -= k & (~k + 1)) s += tree_[k];
    return s;
  }

 private:
  std::vector<std::int64_t> tree_;
};

enum class Change : std::uint8_t { becomes_waiting, starts, ends };

struct Event {
  Time time;
  std::uint32_t job;
  Change change;
};

double bounded_slowdown(Time wait, Time runtime) {
  const double rt = static_cast<double>(std::max<Time>(runtime, 10));
  return (static_cast<double>(wait) + rt) / rt;
}

void add_wait(WaitStats& w, Time wait) {
  ++w.count;
  w.avg_s += static_cast<double>(wait);
  w.max_s = std::max(w.max_s, static_cast<double>(wait));
}

void finish(WaitStats& w) {
  if (w.count > 0) w.avg_s /= static_cast<double>(w.count);
}

}  // namespace

void check_fairness(const SimOutcome& o, FairnessCheck& fairness, ReservationCheck& reservation) {
  const std::size_t n = o.jobs.size();
  std::vector<Event> events;
  events.reserve(3 * n + 2 * o.killed_runs.size());
  for (std::uint32_t j = 0; j < n; ++j) {
    const JobOutcome& job = o.jobs[j];
    events.push_back({job.submit, j, Change::becomes_waiting});
    if (job.start == kUnset) continue;
    events.push_back({job.start, j, Change::starts});
    events.push_back({job.end, j, Change::ends});
  }
  for (const KilledRun& k : o.killed_runs) {
    events.push_back({k.start, k.job, Change::starts});
    events.push_back({k.end, k.job, Change::ends});
    events.push_back({k.end, k.job, Change::becomes_waiting});
  }
  std::sort(events.begin(), events.end(),
            [](const Event& a, const Event& b) { return a.time < b.time; });

  PrefixSums held(n);
  std::vector<int> waiting_count(n, 0);  // > 0: waiting (order within a moment is free)
  std::set<std::uint32_t> waiting;
  std::vector<Time> delayed_since(n, kUnset);
  std::vector<Time> delay(n, 0);
  std::vector<bool> violated(n, false);
  for (std::size_t e = 0; e < events.size();) {
    const Time now = events[e].time;
    for (; e < events.size() && events[e].time == now; ++e) {
      const Event& ev = events[e];
      const JobOutcome& job = o.jobs[ev.job];
      if (ev.change == Change::ends) {
        held.add(ev.job, -job.procs);
        continue;
      }
      const int before = waiting_count[ev.job];
      waiting_count[ev.job] += ev.change == Change::becomes_waiting ? 1 : -1;
      if (ev.change == Change::starts) {
        held.add(ev.job, job.procs);
        if (delayed_since[ev.job] != kUnset) {
          delay[ev.job] += now - delayed_since[ev.job];
          delayed_since[ev.job] = kUnset;
        }
      }
      if (before <= 0 && waiting_count[ev.job] > 0) waiting.insert(ev.job);
      if (before > 0 && waiting_count[ev.job] <= 0) waiting.erase(ev.job);
    }
    if (waiting.empty()) continue;
    const std::uint32_t head = *waiting.begin();
    const JobOutcome& h = o.jobs[head];
    if (o.procs - held.below(head) < h.procs) continue;
    // Lower-priority jobs hold processors the head could start on, until the next event.
    if (delayed_since[head] == kUnset) delayed_since[head] = now;
    const Time next = e < events.size() ? events[e].time : now;
    if (h.first_reservation != kUnset && h.start > h.first_reservation &&
        next > h.first_reservation) {
      violated[head] = true;
    }
  }

  fairness = FairnessCheck{};
  reservation = ReservationCheck{};
  double delay_sum = 0;
  double dtr_sum = 0;
  double si_sum = 0;
  double procs_sum = 0;
  for (std::uint32_t j = 0; j < n; ++j) {
    const JobOutcome& job = o.jobs[j];
    if (job.start != kUnset && !job.backfilled && job.start > job.submit) ++fairness.blocked;
    if (delay[j] > 0) {
      ++fairness.delayed;
      delay_sum += static_cast<double>(delay[j]);
      fairness.delay_max_hours =
          std::max(fairness.delay_max_hours, static_cast<double>(delay[j]) / 3600.0);
    }
    if (violated[j]) {
      const Time dtr = job.start - job.first_reservation;
      const double si =
          static_cast<double>(dtr) / static_cast<double>(std::max<Time>(job.runtime, 10));
      ++reservation.violations;
      procs_sum += job.procs;
      dtr_sum += static_cast<double>(dtr);
      si_sum += si;
      reservation.dtr_max_hours =
          std::max(reservation.dtr_max_hours, static_cast<double>(dtr) / 3600.0);
      reservation.si_max = std::max(reservation.si_max, si);
    }
  }
  if (fairness.delayed > 0) {
    fairness.delay_mean_min = delay_sum / static_cast<double>(fairness.delayed) / 60.0;
  }
  if (reservation.violations > 0) {
    const double v = static_cast<double>(reservation.violations);
    reservation.mean_parallelism = procs_sum / v;
    reservation.dtr_mean_min = dtr_sum / v / 60.0;
    reservation.si_mean = si_sum / v;
  }
}

PreemptMetrics compute_preempt_metrics(const SimOutcome& o, Time trial_length) {
  PreemptMetrics m;
  check_fairness(o, m.fairness, m.reservation);
  double bsld = 0, wbsld = 0, weight = 0;
  double big = 0, wbig = 0, big_weight = 0;
  double small = 0, wsmall = 0, small_weight = 0;
  double kills = 0, rtw = 0;
  std::int64_t finished = 0;
  for (const JobOutcome& j : o.jobs) {
    if (j.start == kUnset) continue;
    ++finished;
    const Time wait = j.start - j.submit;
    const double b = bounded_slowdown(wait, j.runtime);
    bsld += b;
    wbsld += b * j.procs;
    weight += j.procs;
    if (j.backfilled) ++m.backfilled;
    if (!j.backfilled && j.start > j.submit) {
      if (4 * j.procs > o.procs) {
        ++m.blocked_big;
        big += b;
        wbig += b * j.procs;
        big_weight += j.procs;
      } else {
        ++m.blocked_small;
        small += b;
        wsmall += b * j.procs;
        small_weight += j.procs;
      }
    }
    if (j.restarts > 0) {
      ++m.preempted_jobs;
      kills += j.restarts;
      rtw += static_cast<double>(j.run_before_final) /
             static_cast<double>(std::max<Time>(j.runtime, 1));
    }
    const bool failed = j.end_state == EPP_END_FAILED;
    const bool is_short = j.runtime <= trial_length;
    add_wait(m.wait_all, wait);
    if (failed) add_wait(m.wait_failed, wait);
    if (is_short) add_wait(m.wait_short, wait);
    if (failed && is_short) add_wait(m.wait_short_failed, wait);
  }
  if (finished > 0) {
    m.mbs = bsld / static_cast<double>(finished);
    m.mwbs = wbsld / weight;
    m.preempted_pct = 100.0 * static_cast<double>(m.preempted_jobs) / static_cast<double>(finished);
  }
  if (m.blocked_big > 0) {
    m.mbs_blocked_big = big / static_cast<double>(m.blocked_big);
    m.mwbs_blocked_big = wbig / big_weight;
  }
  if (m.blocked_small > 0) {
    m.mbs_blocked_small = small / static_cast<double>(m.blocked_small);
    m.mwbs_blocked_small = wsmall / small_weight;
  }
  if (m.preempted_jobs > 0) {
    m.mkt = kills / static_cast<double>(m.preempted_jobs);
    m.rtw_pct = 100.0 * rtw / static_cast<double>(m.preempted_jobs);
  }
  const double capacity =
      static_cast<double>(o.procs) * static_cast<double>(o.last_end - o.first_submit);
  if (capacity > 0) {
    m.total_load_pct = 100.0 * o.busy_proc_seconds / capacity;
    m.wasted_load_pct = 100.0 * o.lost_proc_seconds / capacity;
  }
  finish(m.wait_all);
  finish(m.wait_failed);
  finish(m.wait_short);
  finish(m.wait_short_failed);
  return m;
}

}  // namespace easypp::measure
