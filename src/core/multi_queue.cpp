#include "core/multi_queue.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace easypp {
namespace {

Time duration_of(const Job& job) { return std::max<Time>(job.prediction, 1); }

}  // namespace

MultiQueuePolicy::MultiQueuePolicy(MultiQueueConfig config) : config_(std::move(config)) {
  for (std::size_t i = 0; i < config_.limits.size(); ++i) {
    const Time limit = config_.limits[i];
    if (limit <= 0 || (i > 0 && limit <= config_.limits[i - 1])) {
      throw std::invalid_argument("policy=" + config_.name + ": queue limit[" +
                                  std::to_string(i) + "]=" + std::to_string(limit) +
                                  " must be > 0 and above the previous limit");
    }
  }
  if (config_.delay) delay_.emplace(*config_.delay);
  const std::size_t k = config_.limits.size() + 1;
  partitions_.resize(k);
  busy_.resize(k);
  pivots_.resize(k);
}

int MultiQueuePolicy::queue_of(const Job& job) const {
  const auto it = std::lower_bound(config_.limits.begin(), config_.limits.end(), job.estimate);
  return static_cast<int>(it - config_.limits.begin());
}

void MultiQueuePolicy::commit_partitions(const ClusterState& state) {
  const int k = queues();
  int sum = 0;
  for (int s : sizes_) sum += s;
  if (static_cast<int>(sizes_.size()) != k || sum != state.procs) {
    // First pass (or the machine changed): the paper's even split.
    sizes_.assign(static_cast<std::size_t>(k), state.procs / k);
    for (int q = 0; q < state.procs % k; ++q) ++sizes_[static_cast<std::size_t>(q)];
  } else {
    for (const Move& m : pending_moves_) {
      const bool running = std::any_of(state.running.begin(), state.running.end(),
                                       [&](const RunningJob& r) { return r.job.id == m.job; });
      if (!running) continue;  // not started after all (or already over): nothing moved
      sizes_[static_cast<std::size_t>(m.from)] -= m.procs;
      sizes_[static_cast<std::size_t>(m.to)] += m.procs;
    }
  }
  pending_moves_.clear();
  // A snapshot may show a partition holding more than it owns (a driver that started jobs
  // itself): it takes the difference from partitions with idle processors.
  std::vector<int>& used = available_;
  used.assign(static_cast<std::size_t>(k), 0);
  for (const RunningJob& r : state.running) {
    used[static_cast<std::size_t>(queue_of(r.job))] += r.job.procs;
  }
  for (int q = 0; q < k; ++q) {
    int deficit = used[static_cast<std::size_t>(q)] - sizes_[static_cast<std::size_t>(q)];
    for (int r = 0; r < k && deficit > 0; ++r) {
      const int spare = sizes_[static_cast<std::size_t>(r)] - used[static_cast<std::size_t>(r)];
      if (r == q || spare <= 0) continue;
      const int take = std::min(spare, deficit);
      sizes_[static_cast<std::size_t>(r)] -= take;
      sizes_[static_cast<std::size_t>(q)] += take;
      deficit -= take;
    }
  }
}

void MultiQueuePolicy::observe_completions(const ClusterState& state) {
  struct Completed {
    Time end;
    JobId id;
    bool short_job;
    double slowdown;
  };
  std::vector<Completed> done;
  std::unordered_map<JobId, Seen> now_running;
  now_running.reserve(state.running.size());
  for (const RunningJob& r : state.running) {
    now_running.emplace(r.job.id, Seen{r.job.submit, r.start, r.job.prediction, queue_of(r.job)});
  }
  std::unordered_set<JobId> waiting;  // filled if a planned start is not running
  std::unordered_map<JobId, Time> ended;  // filled if a job is no longer running
  for (const auto& [id, seen] : last_running_) {
    if (now_running.count(id)) continue;
    if (seen.planned) {
      // The driver may not have started it after all (the plugin: refused by Slurm).
      if (waiting.empty())
        for (const Job& j : state.waiting) waiting.insert(j.id);
      if (waiting.count(id)) continue;
    }
    if (ended.empty())
      for (const ClusterState::Ended& e : state.ended) ended.emplace(e.job, e.end);
    // Its real end, as the driver saw it; else no later than now, and (on exact
    // estimates, the paper's setting) at its predicted end.
    const auto real = ended.find(id);
    const Time end = real != ended.end() ? real->second : std::min(state.now, seen.start + seen.prediction);
    const double runtime = static_cast<double>(std::max<Time>(end - seen.start, 1));
    const double wait = static_cast<double>(std::max<Time>(seen.start - seen.submit, 0));
    done.push_back({end, id, seen.queue == 0, 1.0 + wait / runtime});
  }
  std::sort(done.begin(), done.end(), [](const Completed& a, const Completed& b) {
    return a.end != b.end ? a.end < b.end : a.id < b.id;
  });
  for (const Completed& c : done) delay_->job_completed(c.short_job, c.slowdown);
  last_running_ = std::move(now_running);
}

void MultiQueuePolicy::forget_the_last_run() {
  if (config_.delay) delay_.emplace(*config_.delay);
  sizes_.clear();
  pending_moves_.clear();
  release_.clear();
  last_running_.clear();
}

bool MultiQueuePolicy::released(const Job& job, Time now) {
  if (!delay_ || queue_of(job) != queues() - 1) return true;
  auto [it, inserted] = release_.try_emplace(job.id, 0);
  if (inserted) it->second = job.submit + static_cast<Time>(std::llround(delay_->delay()));
  return now >= it->second;
}

bool MultiQueuePolicy::split(int q, int procs, const std::vector<int>& available,
                             std::vector<int>& share) const {
  share.assign(available.size(), 0);
  int need = procs;
  auto take = [&](std::size_t r) {
    const int t = std::min(need, std::max(available[r], 0));
    share[r] += t;
    need -= t;
  };
  take(static_cast<std::size_t>(q));
  for (std::size_t r = 0; r < available.size() && need > 0; ++r) {
    if (static_cast<int>(r) != q) take(r);
  }
  return need == 0;
}

const JobRequest& MultiQueuePolicy::request_of(const Job& job) {
  if (job.request) return *job.request;
  cpu_request_ = JobRequest::cpus(job.procs);  // the papers' job: procs CPUs anywhere
  return cpu_request_;
}

void MultiQueuePolicy::replan(const ClusterState& state) {
  const bool on_nodes = state.machine != nullptr;
  if (on_nodes) {
    nodes_.reset(state, RunningEnd::predicted);
    for (const NodeStart& s : node_starts_) nodes_.start_now(*s.allocation, s.duration);
    pivot_now_.assign(partitions_.size(), nullptr);
  } else {
    machine_.reset(state.now, state.procs, machine_busy_);
  }
  for (std::size_t q = 0; q < partitions_.size(); ++q) {
    partitions_[q].reset(state.now, working_sizes_[q], busy_[q]);
    pivots_[q].reset();
  }
  // Each queue's pivot: its first released job that the machine can hold. Reserved in
  // arrival order on the whole machine, so an earlier pivot is never delayed by a later
  // one; each claim is drawn from the pivot's own partition first.
  std::size_t found = 0;
  for (std::uint32_t i = 0; i < state.waiting.size() && found < pivots_.size(); ++i) {
    const int q = queue_of_waiting_[i];
    if (q < 0 || started_[i] || pivots_[static_cast<std::size_t>(q)]) continue;
    const Job& job = state.waiting[i];
    const Time d = duration_of(job);
    Time t = kNever;
    std::shared_ptr<const Allocation> nodes;
    if (on_nodes) {
      NodePlan::Slot slot = nodes_.earliest_start(request_of(job), d, job.estimate);
      t = slot.start;
      if (t == kNever) continue;  // windows keep it off every node for good
      // Where it can start now: on idle resources, before its own claim is planned.
      if (t <= state.now && nodes_.fits_now(slot.allocation, d)) {
        pivot_now_[static_cast<std::size_t>(q)] =
            std::make_shared<const Allocation>(slot.allocation);
      }
      nodes_.reserve(slot.allocation, t, d);
      nodes = std::make_shared<const Allocation>(std::move(slot.allocation));
    } else {
      t = machine_.earliest_start(job.procs, d);
      machine_.reserve(t, d, job.procs);
    }
    std::vector<int>& free_then = available_;
    free_then.resize(partitions_.size());
    for (std::size_t r = 0; r < partitions_.size(); ++r) free_then[r] = partitions_[r].free_at(t);
    split(q, job.procs, free_then, share_);
    // Whatever the partitions' plans cannot show (they are counts, like the machine's)
    // stays on the pivot's own partition, which only makes its plan more careful.
    int claimed = 0;
    for (int s : share_) claimed += s;
    share_[static_cast<std::size_t>(q)] += job.procs - claimed;
    for (std::size_t r = 0; r < partitions_.size(); ++r) {
      if (share_[r] > 0) partitions_[r].reserve(t, d, share_[r]);
    }
    pivots_[static_cast<std::size_t>(q)] = Pivot{i, t, std::move(nodes)};
    ++found;
  }
}

void MultiQueuePolicy::start(const ClusterState& state, std::uint32_t position, int q,
                             Time duration, const std::vector<int>& share, bool backfilled,
                             Decision& decision, std::shared_ptr<const Allocation> allocation) {
  const Job& job = state.waiting[position];
  started_[position] = 1;
  decision.start.push_back(job.id);
  if (delay_) started_this_pass_.push_back({job.id, Seen{job.submit, state.now, job.prediction, q, true}});
  if (backfilled) decision.backfilled.push_back(job.id);
  const Time end = state.now + duration;
  if (allocation) {
    nodes_.start_now(*allocation, duration);
    node_starts_.push_back({allocation, duration});
    decision.start_allocations.push_back(std::move(allocation));
  } else {
    machine_busy_.push_back({end, job.procs});
    machine_.start_now(job.procs, duration);
  }
  // Borrowed processors join the job's partition for good (Fig. 4 5.a.I, 6.c.I).
  const auto uq = static_cast<std::size_t>(q);
  for (std::size_t r = 0; r < share.size(); ++r) {
    if (share[r] == 0) continue;
    if (r != uq) {
      working_sizes_[r] -= share[r];
      working_sizes_[uq] += share[r];
      pending_moves_.push_back({job.id, static_cast<int>(r), q, share[r]});
    }
  }
  busy_[uq].push_back({end, job.procs});
}

Decision MultiQueuePolicy::plan(const ClusterState& state) {
  Decision decision;
  const bool on_nodes = state.machine != nullptr;
  if (state.now < last_now_) forget_the_last_run();
  last_now_ = state.now;
  node_starts_.clear();
  started_this_pass_.clear();
  if (on_nodes) nodes_.reset(state, RunningEnd::predicted);  // ever_fits below
  commit_partitions(state);
  if (delay_) observe_completions(state);
  const std::size_t k = static_cast<std::size_t>(queues());
  working_sizes_ = sizes_;

  machine_busy_.clear();
  for (auto& b : busy_) b.clear();
  for (const RunningJob& r : state.running) {
    machine_busy_.push_back({r.predicted_end(), r.job.procs});
    busy_[static_cast<std::size_t>(queue_of(r.job))].push_back({r.predicted_end(), r.job.procs});
  }
  const std::size_t n = state.waiting.size();
  queue_of_waiting_.assign(n, -1);  // -1: not in a queue now (delayed, or too wide)
  started_.assign(n, 0);
  Time next_release = kNever;
  for (std::size_t i = 0; i < n; ++i) {
    const Job& job = state.waiting[i];
    require_plannable(job);
    if (on_nodes ? !nodes_.ever_fits(request_of(job)) : job.procs > state.procs) continue;
    if (released(job, state.now)) {
      queue_of_waiting_[i] = queue_of(job);
    } else {
      next_release = std::min(next_release, release_.at(job.id));
    }
  }
  // A delayed job joins its queue at its release time: plan again then, even if nothing
  // else happens.
  if (next_release != kNever) decision.wake_at = next_release;
  replan(state);

  for (std::uint32_t i = 0; i < n; ++i) {
    // Nothing can start until something ends.
    if (on_nodes ? nodes_.idle_cpus() <= 0 : machine_.idle_now() == 0) break;
    decision.examined = static_cast<int>(i) + 1;
    const int q = queue_of_waiting_[i];
    if (q < 0) continue;
    const Job& job = state.waiting[i];
    if (on_nodes ? request_of(job).min_cpus() > nodes_.idle_cpus()
                 : job.procs > machine_.idle_now())
      continue;
    const auto uq = static_cast<std::size_t>(q);
    const Time d = duration_of(job);
    available_.resize(k);
    if (pivots_[uq] && pivots_[uq]->position == i) {
      // Fig. 4 step 5: the pivot starts when its reservation is now (on nodes: on the
      // nodes it is reserved, if they are idle).
      if (pivots_[uq]->time > state.now) continue;
      std::shared_ptr<const Allocation> where;
      if (on_nodes) {
        where = pivot_now_[uq];
        if (!where) continue;
      }
      for (std::size_t r = 0; r < k; ++r) available_[r] = partitions_[r].idle_now();
      if (!split(q, job.procs, available_, share_)) continue;
      start(state, i, q, d, share_, false, decision, std::move(where));
      replan(state);  // the queue has a new pivot; reservations in arrival order again
      continue;
    }
    // Step 6: anything else must leave every reservation on the machine where it is ...
    std::shared_ptr<const Allocation> where;
    if (on_nodes) {
      std::optional<Allocation> a = nodes_.place_now(request_of(job), d, job.estimate);
      if (!a) continue;
      where = std::make_shared<const Allocation>(std::move(*a));
    } else if (!machine_.fits_now(job.procs, d)) {
      continue;
    }
    if (partitions_[uq].fits_now(job.procs, d)) {
      // ... 6a/6b: on its own partition without delaying the plans made there;
      share_.assign(k, 0);
      share_[uq] = job.procs;
      start(state, i, q, d, share_, true, decision, std::move(where));
      partitions_[uq].start_now(job.procs, d);
      continue;
    }
    // ... 6c: or with idle processors of other partitions (no pivot is delayed: the
    // machine's plan holds every pivot's reservation).
    for (std::size_t r = 0; r < k; ++r) available_[r] = partitions_[r].idle_now();
    if (!split(q, job.procs, available_, share_)) continue;
    start(state, i, q, d, share_, true, decision, std::move(where));
    replan(state);  // partition totals changed
  }

  // Reservations: blocked pivots in arrival order (reservations[0] is the earliest).
  for (std::uint32_t i = 0; i < n; ++i) {
    const int q = queue_of_waiting_[i];
    if (q < 0 || started_[i]) continue;
    const auto& p = pivots_[static_cast<std::size_t>(q)];
    if (p && p->position == i) {
      decision.reservations.push_back({state.waiting[i].id, p->time, p->allocation});
    }
  }

  for (const auto& [id, seen] : started_this_pass_) last_running_.emplace(id, seen);
  if (delay_ && release_.size() > 2 * n + 64) {
    std::unordered_map<JobId, Time> kept;
    for (const Job& j : state.waiting) {
      if (auto it = release_.find(j.id); it != release_.end()) kept.emplace(*it);
    }
    release_ = std::move(kept);
  }
  return decision;
}

namespace {

// "60/3600" or the positional items of "mq:60:3600": increasing limits in seconds (the
// policy's constructor checks the order).
std::vector<Time> parse_limits(const std::string& spec, const std::vector<std::string>& items) {
  std::vector<Time> limits;
  for (const std::string& item : items) {
    Time limit = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), limit);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size()) {
      throw std::invalid_argument("policy=" + spec + ": queue limit '" + item +
                                  "' is not a whole number of seconds");
    }
    limits.push_back(limit);
  }
  return limits;
}

std::vector<std::string> split_slashes(const std::string& value) {
  std::vector<std::string> out;
  std::size_t from = 0;
  for (;;) {
    const std::size_t slash = value.find('/', from);
    out.push_back(value.substr(from, slash == std::string::npos ? std::string::npos : slash - from));
    if (slash == std::string::npos) return out;
    from = slash + 1;
  }
}

}  // namespace

std::unique_ptr<Policy> make_multi_queue(PolicyTraits traits, DelayRule delay, bool four_queues,
                                         PolicyParams& params) {
  MultiQueueConfig c;
  // Named by its spec (keys as given), so mq-vd:delay=600 is told apart from mq-vd.
  c.name = params.spec();
  c.traits = std::move(traits);
  if (!four_queues) c.limits.clear();
  if (delay != DelayRule::none) {
    c.delay = VariableDelayConfig{};
    c.delay->first_delta_is_slowdown = delay == DelayRule::paper;
    // D_1, the delay in force until the first batch closes (paper: 2500 s). A short one
    // lets a test or a trial partition see a release without waiting 42 minutes.
    c.delay->initial = static_cast<double>(
        params.integer("delay", static_cast<std::int64_t>(c.delay->initial), 0, 100'000'000));
  }
  if (four_queues) {
    // limits=L1/L2/... (seconds); the older mq:L1:L2 spelling, kept as an alias.
    const bool keyed = params.has("limits");
    const std::string given = params.value("limits", "");
    const std::vector<std::string>& old = params.positional();
    if (keyed && given.empty()) {
      throw std::invalid_argument("policy=" + params.text() + ": limits= needs L1/L2/... (seconds)");
    }
    if (!given.empty() && !old.empty()) {
      throw std::invalid_argument("policy=" + params.text() +
                                  ": give the queue limits once (limits=L1/L2/...)");
    }
    if (!given.empty()) {
      c.limits = parse_limits(params.text(), split_slashes(given));
    } else if (!old.empty()) {
      c.limits = parse_limits(params.text(), old);
      c.name = params.text();  // reports keep the name as written
    }
  }
  return std::make_unique<MultiQueuePolicy>(std::move(c));  // checks the limits
}

}  // namespace easypp
