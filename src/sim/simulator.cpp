#include "sim/simulator.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <ctime>
#include <cmath>
#include <cstdint>
#include <queue>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/job_ledger.h"
#include "core/job_request.h"
#include "core/machine.h"
#include "core/predictions.h"
#include "easypp/predictor.h"
#include "measure/outcome_recorder.h"
#include "measure/perfect_start.h"

#ifndef EASYPP_SIM_CHECKS
#define EASYPP_SIM_CHECKS 0
#endif

namespace easypp::sim {
namespace {

constexpr bool kChecks = EASYPP_SIM_CHECKS != 0;

// Terminations sort before expiries of the same moment, so a job ending exactly when its
// prediction expires is not corrected. A wake-up (Decision.wake_at) comes last: the
// policy asked to plan at that moment whatever else happens.
enum class EventKind : std::uint8_t { end = 0, expiry = 1, wake = 2 };

struct Event {
  Time time;
  EventKind kind;
  std::uint32_t job;      // index into the workload
  std::uint32_t version;  // the job's run; events of an earlier (killed) run are stale
};

struct EventAfter {
  bool operator()(const Event& a, const Event& b) const {
    if (a.time != b.time) return a.time > b.time;
    if (a.kind != b.kind) return a.kind > b.kind;
    return a.job > b.job;  // same moment: log order, so the predictor learns reproducibly
  }
};

enum class Status : std::uint8_t { future, waiting, running, done };

struct JobState {
  Status status = Status::future;
  bool underpredicted = false;  // running with predicted end before its real end
  std::uint32_t version = 0;
  std::int32_t run_pos = -1;    // index into ClusterState::running
  Time start = measure::kUnset;
  Time end = measure::kUnset;            // when the current run ends (termination event)
  Time runtime = 0;             // T_r: runtime of a full run under the runtime mode
  // Where the policy placed it (a Machine's nodes), from marking to its start.
  std::shared_ptr<const Allocation> allocation;
};

[[noreturn]] void fail(const std::string& policy, Time now, const std::string& what) {
  throw std::logic_error("simulator: policy " + policy + " at t=" + std::to_string(now) +
                         ": " + what);
}

class Engine {
 public:
  Engine(const Workload& workload, Policy& policy, const SimOptions& options)
      : workload_(workload),
        policy_(policy),
        options_(options),
        ledger_(policy.traits(), {}, JobLedger::Driver::events),
        policy_name_(policy.name()),
        jobs_(workload.jobs.size()) {
    state_.procs = workload.procs;
    state_.machine = workload.machine.get();
    state_.ends_of = &state_.running;  // kept sorted: add_end, remove_end
    if (state_.machine) node_used_.assign(state_.machine->nodes().size(), Resources{});
    skip_blocked_ = options.fast_passes && policy.traits().blocked_passes_idle &&
                    state_.machine == nullptr;
    if (skip_blocked_) {
      waiting_by_procs_.assign(static_cast<std::size_t>(state_.procs) + 2, 0);
      waiting_sizes_.assign(waiting_by_procs_.size() / 64 + 1, 0);
    }
    for (std::size_t i = 0; i < workload.jobs.size(); ++i) {
      const SimJob& s = workload.jobs[i];
      jobs_[i].runtime = options.runtime == RuntimeMode::cap ? std::min(s.runtime, s.job.estimate)
                                                             : s.runtime;
    }
    give_predictor_the_workload();
  }

  // What is known of the run before it starts, for the outcome recorder.
  measure::SimOutcome skeleton() const {
    measure::SimOutcome out;
    out.policy = policy_name_;
    out.trace = workload_.trace;
    out.procs = workload_.procs;
    out.jobs.resize(workload_.jobs.size());
    if (!workload_.jobs.empty()) {
      out.first_submit = workload_.jobs.front().job.submit;
      out.last_arrival = workload_.jobs.back().job.submit;
    }
    for (std::size_t i = 0; i < workload_.jobs.size(); ++i) {
      const SimJob& s = workload_.jobs[i];
      measure::JobOutcome& o = out.jobs[i];
      o.submit = s.job.submit;
      o.procs = s.job.procs;
      o.runtime = jobs_[i].runtime;
      o.end_state = s.end_state;
    }
    return out;
  }
  // The predictor's canonical spec (with the seed it was given).
  std::string predictor_spec() const { return ledger_.predictions().spec(); }

  // Paper 003's evaluation predictors: the seed, and the whole workload for their
  // per-trace category bounds (each job's runtime as this run replays it).
  void give_predictor_the_workload() {
    epp_predictor* p = ledger_.predictions().handle();
    epp_predictor_set_seed(p, options_.seed);
    if (epp_predictor_needs_workload(p) == 0) return;
    std::vector<epp_workload_job> all(workload_.jobs.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
      const SimJob& s = workload_.jobs[i];
      all[i] = epp_workload_job{s.job.id, jobs_[i].runtime, s.job.procs, s.application};
    }
    char err[512] = {0};
    if (epp_set_workload(p, all.data(), all.size(), err, sizeof err) != 0) {
      throw std::invalid_argument(std::string(err));
    }
  }

  // Drives the whole run, telling `observer` what happens.
  void run(measure::RunObserver& observer) {
    observer_ = &observer;
    const std::size_t n = workload_.jobs.size();
    std::size_t next_arrival = 0;
    while (next_arrival < n || !events_.empty()) {
      Time now = kNever;
      if (next_arrival < n) now = workload_.jobs[next_arrival].job.submit;
      if (!events_.empty()) now = std::min(now, events_.top().time);
      state_.now = now;
      bool woken = false;
      while (!events_.empty() && events_.top().time == now) {
        Event e = events_.top();
        events_.pop();
        if (e.kind != EventKind::expiry) changed_since_pass_ = true;
        observer_->event();
        if (e.kind == EventKind::end) {
          end_job(e);
        } else if (e.kind == EventKind::expiry) {
          expire_prediction(e);
        } else {
          wake_times_.erase(e.time);
          woken = true;
        }
      }
      while (next_arrival < n && workload_.jobs[next_arrival].job.submit == now) {
        arrive(static_cast<std::uint32_t>(next_arrival++));
        observer_->event();
      }
      if ((!state_.waiting.empty() && !blocked()) || woken) plan();
    }
    for (const JobState& js : jobs_) {
      if (js.status != Status::done) fail(policy_name_, state_.now, "a job never ended");
    }
  }

 private:
  // Called for every job a pass touches: the error path is kept out of line so this
  // inlines.
  std::uint32_t index_of(JobId id) const {
    if (id == 0 || id > jobs_.size()) [[unlikely]] unknown_job(id);
    return static_cast<std::uint32_t>(id - 1);
  }
  [[noreturn, gnu::cold, gnu::noinline]] void unknown_job(JobId id) const {
    fail(policy_name_, state_.now, "decision names unknown job id " + std::to_string(id));
  }

  // A pass now could start nothing and the policy says it would change nothing
  // (SimOptions::skip_blocked_passes): no waiting job fits the idle processors.
  bool blocked() {
    if (!skip_blocked_) return false;
    const int idle = state_.procs - used_procs_;
    if (idle >= static_cast<int>(waiting_by_procs_.size()) - 1) return false;
    if (smallest_waiting_ >= idle) return smallest_waiting_ > idle;
    // Up to the first size in use, but not past `idle` (a scan of the sizes one by one
    // once; the words of waiting_sizes_ now).
    smallest_waiting_ = std::min(first_size_in_use(smallest_waiting_), idle);
    return false;
  }
  // The smallest bucket from `from` on with a waiting job (the number of buckets if none).
  int first_size_in_use(int from) const {
    std::size_t w = static_cast<std::size_t>(from) / 64;
    std::uint64_t bits = waiting_sizes_[w] & (~std::uint64_t{0} << (from % 64));
    while (bits == 0) {
      if (++w == waiting_sizes_.size()) return static_cast<int>(waiting_by_procs_.size());
      bits = waiting_sizes_[w];
    }
    return static_cast<int>(w * 64) + std::countr_zero(bits);
  }
  // Counts waiting jobs by processors (jobs larger than the machine, or below one, in the
  // end buckets); smallest_waiting_ is at most the smallest count in use.
  void count_waiting(int procs, int delta) {
    if (!skip_blocked_) return;
    const std::size_t top = waiting_by_procs_.size() - 1;
    const std::size_t b = procs < 0 ? 0 : std::min(static_cast<std::size_t>(procs), top);
    const bool was_used = waiting_by_procs_[b] != 0;
    waiting_by_procs_[b] += delta;
    if (was_used != (waiting_by_procs_[b] != 0)) waiting_sizes_[b / 64] ^= std::uint64_t{1} << (b % 64);
    if (delta > 0) smallest_waiting_ = std::min(smallest_waiting_, static_cast<int>(b));
  }

  // What the workload says of job i, as the ledger takes it.
  JobFacts facts_of(std::uint32_t i) const {
    const SimJob& s = workload_.jobs[i];
    JobFacts f;
    f.id = s.job.id;
    f.user = s.job.user;
    f.submit = s.job.submit;
    f.priority = -s.job.submit;  // FCFS: earlier submits first (ties: smaller id)
    f.procs = s.job.procs;
    f.limit = s.job.estimate;  // the user's own (the kill time)
    f.request = s.job.request;
    f.requeueable = s.job.requeueable;
    f.actual_runtime = jobs_[i].runtime;
    return f;
  }

  void arrive(std::uint32_t i) {
    const SimJob& s = workload_.jobs[i];
    JobState& js = jobs_[i];
    // The scheduler's view of the estimate (X2 doubles it) and the prediction, by the
    // ledger's rules; the kill time stays the user's own estimate (s.job.estimate).
    Job job = ledger_.admit(facts_of(i));
    job.partition = s.job.partition;
    js.status = Status::waiting;
    observer_->arrived(i, job, state_.now);
    // Arrivals come in submit order and requeued jobs are older, so appending keeps the
    // queue in FCFS order.
    state_.waiting.push_back(job);
    count_waiting(job.procs, 1);
    ++arrived_since_pass_;
  }

  void schedule_expiry(std::uint32_t i, const RunningJob& rj) {
    JobState& js = jobs_[i];
    std::optional<Time> at = ledger_.next_correction(rj);
    js.underpredicted = rj.predicted_end() < js.end;
    if (at && *at < js.end) {
      if (*at <= state_.now) fail(policy_name_, state_.now, "correction time not in the future");
      events_.push(Event{*at, EventKind::expiry, i, js.version});
    }
  }

  // ClusterState::predicted_ends, latest (end, job) first: a running job's entry comes
  // with its start, moves with each correction and goes with its end or kill.
  static bool end_before(const ClusterState::PredictedEnd& a, const ClusterState::PredictedEnd& b) {
    return a.end != b.end ? a.end > b.end : a.job > b.job;
  }
  void add_end(const RunningJob& rj) {
    const ClusterState::PredictedEnd e{rj.predicted_end(), rj.job.id, rj.job.procs};
    auto& ends = state_.predicted_ends;
    ends.insert(std::upper_bound(ends.begin(), ends.end(), e, end_before), e);
  }
  std::vector<ClusterState::PredictedEnd>::iterator find_end(Time end, JobId id) {
    auto& ends = state_.predicted_ends;
    auto it = std::lower_bound(ends.begin(), ends.end(), ClusterState::PredictedEnd{end, id, 0},
                               end_before);
    if (it == ends.end() || it->end != end || it->job != id) [[unlikely]] ends_out_of_step(id);
    return it;
  }
  [[noreturn, gnu::cold, gnu::noinline]] void ends_out_of_step(JobId id) const {
    fail(policy_name_, state_.now, "predicted ends out of step at job " + std::to_string(id));
  }
  void remove_end(Time end, JobId id) { state_.predicted_ends.erase(find_end(end, id)); }

  // A correction moves an end later, towards the front: the entries between shift back.
  void move_end(Time before, const RunningJob& rj) {
    auto& ends = state_.predicted_ends;
    const auto from = find_end(before, rj.job.id);
    const ClusterState::PredictedEnd e{rj.predicted_end(), rj.job.id, rj.job.procs};
    if (!end_before(e, *from)) {
      fail(policy_name_, state_.now, "a correction moved job " + std::to_string(rj.job.id) +
                                         "'s end earlier");
    }
    const auto to = std::upper_bound(ends.begin(), from, e, end_before);
    std::move_backward(to, from, from + 1);
    *to = e;
  }

  void remove_running(std::uint32_t i) {
    JobState& js = jobs_[i];
    auto pos = static_cast<std::size_t>(js.run_pos);
    remove_end(state_.running[pos].predicted_end(), state_.running[pos].job.id);
    if (pos + 1 != state_.running.size()) {
      state_.running[pos] = std::move(state_.running.back());
      jobs_[index_of(state_.running[pos].job.id)].run_pos = static_cast<std::int32_t>(pos);
    }
    state_.running.pop_back();
    js.run_pos = -1;
    used_procs_ -= workload_.jobs[i].job.procs;
    if (js.allocation) {
      for (const NodeShare& share : js.allocation->shares) node_used_[share.node] -= share.amount;
      js.allocation.reset();
    }
    ++running_changes_;
  }

  void end_job(const Event& e) {
    JobState& js = jobs_[e.job];
    if (js.status != Status::running || js.version != e.version) return;  // killed run
    const Time now = state_.now;
    const RunningJob& rj = state_.running[static_cast<std::size_t>(js.run_pos)];
    const SimJob& s = workload_.jobs[e.job];
    if constexpr (kChecks) {
      if (now - js.start < std::min(s.runtime, s.job.estimate)) {
        fail(policy_name_, now, "job " + std::to_string(rj.job.id) +
                                    " ended before min(runtime, estimate)");
      }
    }
    const bool killed_at_limit = options_.runtime == RuntimeMode::cap && s.runtime > s.job.estimate;
    observer_->ended(e.job, rj.job, js.start, now, killed_at_limit);
    const int end_state = killed_at_limit ? EPP_END_TIMEOUT : s.end_state;
    JobFacts facts = facts_of(e.job);
    facts.start = js.start;
    auto learnt = ledger_.ended(facts, now, end_state);
    state_.ended.push_back({rj.job.id, now});
    js.status = Status::done;
    if (js.underpredicted) --underpredicted_running_;
    js.underpredicted = false;
    remove_running(e.job);
    if (learnt.repredict_user) repredict_user(*learnt.repredict_user);
  }

  // Propagation (predictor option): waiting jobs of a user whose job just taught the
  // history get a fresh prediction.
  void repredict_user(UserId user) {
    for (Job& w : state_.waiting) {
      if (w.user != user) continue;
      std::uint32_t i = index_of(w.id);
      const Time before = w.prediction;
      ledger_.repredict(w, jobs_[i].runtime);
      if (w.prediction != before) observer_->prediction_changed(i, w.prediction, state_.now);
    }
  }

  void expire_prediction(const Event& e) {
    JobState& js = jobs_[e.job];
    if (js.status != Status::running || js.version != e.version) return;
    RunningJob& rj = state_.running[static_cast<std::size_t>(js.run_pos)];
    const Time end_before_correction = rj.predicted_end();
    if (!ledger_.correct(rj, state_.now)) return;
    move_end(end_before_correction, rj);
    corrected_until_ = std::max(corrected_until_, rj.predicted_end());
    observer_->prediction_changed(e.job, rj.job.prediction, state_.now);
    const bool was_under = js.underpredicted;
    schedule_expiry(e.job, rj);
    if (was_under != js.underpredicted) underpredicted_running_ += js.underpredicted ? 1 : -1;
  }

  void kill_requeue(JobId id) {
    std::uint32_t i = index_of(id);
    JobState& js = jobs_[i];
    if (js.status != Status::running) {
      fail(policy_name_, state_.now, "kill_requeue of job " + std::to_string(id) +
                                         " which is not running");
    }
    Job job = state_.running[static_cast<std::size_t>(js.run_pos)].job;
    if (!job.requeueable) {
      fail(policy_name_, state_.now, "kill_requeue of job " + std::to_string(id) +
                                         " which may not be requeued");
    }
    observer_->killed(i, job, js.start, state_.now);
    ++job.restarts;
    if (js.underpredicted) --underpredicted_running_;
    js.underpredicted = false;
    remove_running(i);
    ++js.version;  // its end and expiry events are now stale
    js.status = Status::waiting;
    js.start = measure::kUnset;
    // Back into the queue at its FCFS place (submit time, then id).
    auto at = std::lower_bound(state_.waiting.begin(), state_.waiting.end(), job,
                               [](const Job& a, const Job& b) {
                                 return a.submit != b.submit ? a.submit < b.submit : a.id < b.id;
                               });
    state_.waiting.insert(at, job);
    count_waiting(job.procs, 1);
    changed_since_pass_ = true;
  }

  // The queue is in FCFS order, which is id order (ids number the workload in submit
  // order; a requeued job goes back to its FCFS place), so the marked jobs are found by
  // their ids and started in queue order without scanning the whole queue.
  void start_marked_jobs() {
    const Time now = state_.now;
    marked_.assign(decision_.start.begin(), decision_.start.end());
    std::sort(marked_.begin(), marked_.end());
    auto from = state_.waiting.begin();
    std::size_t first_started = state_.waiting.size();
    for (JobId id : marked_) {
      from = std::lower_bound(from, state_.waiting.end(), id,
                              [](const Job& w, JobId v) { return w.id < v; });
      if (from == state_.waiting.end() || from->id != id) {
        fail(policy_name_, now, "queue not in id order at job " + std::to_string(id));
      }
      const Job& w = *from;
      std::uint32_t i = index_of(w.id);
      JobState& js = jobs_[i];
      if (js.status != Status::running || js.run_pos >= 0) continue;
      first_started = std::min(first_started, static_cast<std::size_t>(from - state_.waiting.begin()));
      if constexpr (kChecks) {
        if (now < w.submit) {
          fail(policy_name_, now, "job " + std::to_string(w.id) + " started before submit");
        }
      }
      ++js.version;
      js.start = now;
      js.end = now + js.runtime;
      count_waiting(w.procs, -1);
      js.run_pos = static_cast<std::int32_t>(state_.running.size());
      state_.running.push_back(RunningJob{w, now, js.allocation});
      add_end(state_.running.back());
      used_procs_ += w.procs;
      if (js.allocation) take_nodes(w.id, *js.allocation);
      observer_->started(i, w, now, js.end);
      events_.push(Event{js.end, EventKind::end, i, js.version});
      schedule_expiry(i, state_.running.back());
      if (js.underpredicted) ++underpredicted_running_;
      ++running_changes_;
    }
    // Only from the first started job on: the queue before it stays as it is.
    if (first_started < state_.waiting.size()) {
      state_.waiting.erase(
          std::remove_if(state_.waiting.begin() + static_cast<std::ptrdiff_t>(first_started),
                         state_.waiting.end(),
                         [&](const Job& w) { return jobs_[w.id - 1].status == Status::running; }),
          state_.waiting.end());
    }
  }

  // Plans until a pass kills nothing: killed jobs are back in the queue and their
  // processors free, which the policy must see before time moves on.
  void plan() {
    constexpr int kMaxPassesPerMoment = 100;
    for (int pass = 1;; ++pass) {
      plan_pass();
      if (decision_.kill_requeue.empty() || state_.waiting.empty()) return;
      if (pass == kMaxPassesPerMoment) {
        fail(policy_name_, state_.now,
             "kills and requeues jobs in " + std::to_string(pass) + " passes at one moment");
      }
    }
  }

  void plan_pass() {
    state_.since_last_pass = {options_.fast_passes && !changed_since_pass_,
                              arrived_since_pass_, corrected_until_};
    policy_.plan_into(state_, decision_);
    state_.ended.clear();
    changed_since_pass_ = false;
    arrived_since_pass_ = 0;
    corrected_until_ = -1;
    for (JobId id : decision_.kill_requeue) kill_requeue(id);
    if (decision_.wake_at && *decision_.wake_at > state_.now &&
        wake_times_.insert(*decision_.wake_at).second) {
      events_.push(Event{*decision_.wake_at, EventKind::wake, 0, 0});
    }
    if (!decision_.start.empty()) {
      int wanted = used_procs_;
      for (const JobId& id : decision_.start) {
        std::uint32_t i = index_of(id);
        if (jobs_[i].status != Status::waiting) {
          fail(policy_name_, state_.now, "started job " + std::to_string(id) +
                                             " which is not waiting");
        }
        jobs_[i].status = Status::running;  // marked; started below in queue order
        wanted += workload_.jobs[i].job.procs;
        if (state_.machine) {
          const std::size_t k = static_cast<std::size_t>(&id - decision_.start.data());
          if (k >= decision_.start_allocations.size() || !decision_.start_allocations[k]) {
            fail(policy_name_, state_.now, "started job " + std::to_string(id) +
                                               " without nodes on a machine of nodes");
          }
          jobs_[i].allocation = decision_.start_allocations[k];
        }
      }
      if (wanted > state_.procs) {
        fail(policy_name_, state_.now, "starts need " + std::to_string(wanted) +
                                           " processors of " + std::to_string(state_.procs));
      }
      start_marked_jobs();
    }
    observer_->planned(state_, decision_);
    if constexpr (kChecks) {
      if (!decision_.reservations.empty()) {
        // A policy that reports other reservations than it plans with (double booking)
        // keeps only its planned one; that is the one backfilling must respect.
        const Reservation& planned = decision_.planned_reservations.empty()
                                         ? decision_.reservations.front()
                                         : decision_.planned_reservations.front();
        check_head(decision_.reservations.front(), planned);
      }
      check_state();
    }
  }

  // The checked build's promise of the EASY family: with no running job underpredicted,
  // the real availability is at least the planned one at every moment, so a reservation
  // the backfills respected must be reachable with real ends (on every resource of every
  // node on a machine). The head's earliest start with real ends changes only with starts
  // and kills, so it is recomputed only then or when the head changes.
  void check_head(const Reservation& head, const Reservation& planned) {
    const std::uint32_t i = index_of(head.job);
    if (jobs_[i].status != Status::waiting) return;
    if (head.job != checked_head_ || running_changes_ != checked_changes_) {
      checked_head_ = head.job;
      checked_changes_ = running_changes_;
      checked_start_ = perfect_.of(state_, workload_.jobs[i].job,
                                   [this](JobId id) { return jobs_[index_of(id)].end; });
    }
    if (!policy_.traits().kills && underpredicted_running_ == 0 && planned.job == head.job &&
        checked_start_ > planned.start) {
      fail(policy_name_, state_.now,
           "backfilling delayed the head reservation of job " + std::to_string(head.job) +
               ": reserved " + std::to_string(planned.start) + ", earliest possible " +
               std::to_string(checked_start_));
    }
  }

  // A started job takes its shares; no node may give more than it has, in any resource.
  void take_nodes(JobId id, const Allocation& allocation) {
    const std::vector<Node>& nodes = state_.machine->nodes();
    for (const NodeShare& share : allocation.shares) {
      if (share.node >= nodes.size()) {
        fail(policy_name_, state_.now, "job " + std::to_string(id) + " placed on unknown node " +
                                           std::to_string(share.node));
      }
      node_used_[share.node] += share.amount;
      if (!nodes[share.node].capacity.covers(node_used_[share.node])) {
        fail(policy_name_, state_.now, "job " + std::to_string(id) + " overbooks node " +
                                           nodes[share.node].name);
      }
    }
  }

  void check_nodes() {
    std::vector<Resources> used(node_used_.size());
    std::int64_t cpus = 0;
    Resources licences;  // cluster-wide counts held by running jobs
    for (const RunningJob& rj : state_.running) {
      if (!rj.allocation) fail(policy_name_, state_.now, "a running job holds no nodes");
      licences += rj.allocation->licences;
      std::int64_t job_cpus = 0;
      for (const NodeShare& share : rj.allocation->shares) {
        used[share.node] += share.amount;
        job_cpus += share.amount[kCpu];
      }
      if (job_cpus < rj.job.procs) {
        fail(policy_name_, state_.now, "job " + std::to_string(rj.job.id) + " holds " +
                                           std::to_string(job_cpus) + " CPUs for " +
                                           std::to_string(rj.job.procs) + " processors");
      }
      cpus += job_cpus;
    }
    for (std::size_t n = 0; n < used.size(); ++n) {
      if (!(used[n] == node_used_[n]) || !state_.machine->nodes()[n].capacity.covers(used[n])) {
        fail(policy_name_, state_.now, "node " + state_.machine->nodes()[n].name +
                                           " usage out of step or over its capacity");
      }
    }
    const std::vector<Licence>& counts = state_.machine->licences();
    for (std::size_t l = 0; l < kMaxResourceKinds; ++l) {
      const std::int64_t have = l < counts.size() ? counts[l].count : 0;
      if (licences[l] > have) {
        fail(policy_name_, state_.now, "licences " +
                                           (l < counts.size() ? counts[l].name : std::to_string(l)) +
                                           " held " + std::to_string(licences[l]) + " of " +
                                           std::to_string(have));
      }
    }
    (void)cpus;
  }

  void check_state() {
    if (state_.machine) check_nodes();
    int used = 0;
    int under = 0;
    for (const RunningJob& rj : state_.running) {
      used += rj.job.procs;
      const JobState& js = jobs_[index_of(rj.job.id)];
      if (js.underpredicted) ++under;
      if (rj.start < rj.job.submit) fail(policy_name_, state_.now, "start before submit");
    }
    if (used != used_procs_ || used > state_.procs) {
      fail(policy_name_, state_.now, "processors in use " + std::to_string(used) +
                                         " exceed the machine's " +
                                         std::to_string(state_.procs));
    }
    if (under != underpredicted_running_) {
      fail(policy_name_, state_.now, "underpredicted-running count out of step");
    }
    std::vector<ClusterState::PredictedEnd> ends;
    for (const RunningJob& rj : state_.running) ends.push_back({rj.predicted_end(), rj.job.id, rj.job.procs});
    std::sort(ends.begin(), ends.end(), end_before);
    bool same = state_.has_predicted_ends();
    for (std::size_t k = 0; same && k < ends.size(); ++k) {
      const auto& a = ends[k];
      const auto& b = state_.predicted_ends[k];
      same = a.end == b.end && a.job == b.job && a.procs == b.procs;
    }
    if (!same) fail(policy_name_, state_.now, "predicted ends out of step with the running jobs");
    for (std::size_t k = 1; k < state_.waiting.size(); ++k) {
      const Job& a = state_.waiting[k - 1];
      const Job& b = state_.waiting[k];
      if (a.submit > b.submit || (a.submit == b.submit && a.id > b.id)) {
        fail(policy_name_, state_.now, "waiting queue out of FCFS order");
      }
    }
  }

  const Workload& workload_;
  Policy& policy_;
  SimOptions options_;
  JobLedger ledger_;
  std::string policy_name_;
  std::vector<JobState> jobs_;
  measure::RunObserver* observer_ = nullptr;
  ClusterState state_;
  Decision decision_;
  std::vector<JobId> marked_;  // scratch: the ids a pass starts, in queue order
  std::priority_queue<Event, std::vector<Event>, EventAfter> events_;
  std::set<Time> wake_times_;  // wake-up events pending (one event per moment)
  int used_procs_ = 0;
  // SimOptions::skip_blocked_passes: waiting jobs by processors (blocked()).
  bool skip_blocked_ = false;
  std::vector<int> waiting_by_procs_;
  std::vector<std::uint64_t> waiting_sizes_;  // bit b: waiting_by_procs_[b] > 0
  int smallest_waiting_ = 0;
  // SimOptions::fast_passes: what happened since the last pass (arrivals only, or more).
  bool changed_since_pass_ = true;
  std::size_t arrived_since_pass_ = 0;
  Time corrected_until_ = -1;  // the latest predicted end a correction set
  std::vector<Resources> node_used_;  // per node of state_.machine
  int underpredicted_running_ = 0;
  // The checked build's head check (check_head).
  std::uint64_t running_changes_ = 0;
  std::uint64_t checked_changes_ = ~std::uint64_t(0);
  JobId checked_head_ = 0;
  Time checked_start_ = measure::kUnset;
  measure::PerfectStart perfect_;
};

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

void check_size(const Workload& workload) {
  if (workload.jobs.size() >= std::size_t(0xffffffffu)) {
    throw std::invalid_argument("simulator: too many jobs for one run");
  }
}

}  // namespace

bool invariants_checked() { return kChecks; }

void drive(const Workload& workload, Policy& policy, measure::RunObserver& observer,
           const SimOptions& options) {
  check_size(workload);
  Engine engine(workload, policy, options);
  engine.run(observer);
}

measure::SimOutcome simulate(const Workload& workload, Policy& policy, const SimOptions& options) {
  check_size(workload);
  Engine engine(workload, policy, options);
  measure::OutcomeRecorder recorder(engine.skeleton(), options.heel_and_toe);
  const auto wall_start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds();
  engine.run(recorder);
  measure::SimOutcome out = recorder.take();
  out.predictor = engine.predictor_spec();
  out.sim_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  out.sim_cpu_seconds = cpu_seconds() - cpu_start;
  return out;
}

}  // namespace easypp::sim
