#include "core/node_plan.h"

#include <algorithm>
#include <cassert>
#include <climits>
#include <stdexcept>
#include <string>
#include <tuple>

namespace easypp {
namespace {

// Features beyond this many distinct names are compared as strings (rare, slower).
constexpr std::size_t kFeatureBits = 63;
constexpr std::uint64_t kFeatureOverflow = std::uint64_t{1} << 63;

Time end_of(Time start, Time duration) {
  duration = std::max<Time>(duration, 1);  // a job always occupies its share for a moment
  return start > kNever - duration ? kNever : start + duration;
}

bool whole_nodes(const Machine& machine, const JobRequest& request) {
  if (request.exclusive) return true;
  for (std::size_t p : request.partitions)
    if (p < machine.partitions().size() && machine.partitions()[p].exclusive) return true;
  return false;
}

}  // namespace

void NodePlan::reset(const ClusterState& state, RunningEnd end) {
  if (state.machine == nullptr) throw std::invalid_argument("NodePlan: the state has no machine");
  machine_ = state.machine;
  now_ = state.now;
  const std::vector<Node>& nodes = machine_->nodes();
  const std::size_t n_nodes = nodes.size();
  idle_.resize(n_nodes);
  steps_.resize(n_nodes);
  reserved_.assign(n_nodes, 0);
  features_.assign(n_nodes, 0);
  feature_names_.clear();
  for (std::size_t n = 0; n < n_nodes; ++n) {
    idle_[n] = nodes[n].capacity;
    steps_[n].clear();
    for (const std::string& f : nodes[n].features) {
      auto it = std::find(feature_names_.begin(), feature_names_.end(), f);
      std::size_t bit = static_cast<std::size_t>(it - feature_names_.begin());
      if (it == feature_names_.end()) {
        bit = feature_names_.size();
        feature_names_.push_back(f);
      }
      if (bit < kFeatureBits) features_[n] |= std::uint64_t{1} << bit;
    }
  }
  licence_idle_ = Resources{};
  for (std::size_t l = 0; l < machine_->licences().size(); ++l)
    licence_idle_[l] = machine_->licences()[l].count;

  // (node, end, amount) of every running share, grouped by node in end order.
  struct Release {
    NodeIndex node;
    Time end;
    const Resources* amount;
  };
  std::vector<Release> releases;
  std::vector<std::pair<Time, const Resources*>> licence_releases;
  for (const RunningJob& r : state.running) {
    if (!r.allocation) {
      throw std::invalid_argument("NodePlan: running job id=" + std::to_string(r.job.id) +
                                  " has no allocation on the machine's nodes");
    }
    const Time e = end == RunningEnd::predicted ? r.predicted_end() : r.kill_time();
    for (const NodeShare& s : r.allocation->shares) {
      if (s.node >= n_nodes) {
        throw std::invalid_argument("NodePlan: running job id=" + std::to_string(r.job.id) +
                                    " holds unknown node index " + std::to_string(s.node));
      }
      idle_[s.node] -= s.amount;
      releases.push_back({s.node, e, &s.amount});
    }
    licence_idle_ -= r.allocation->licences;
    licence_releases.emplace_back(e, &r.allocation->licences);
  }
  std::sort(releases.begin(), releases.end(), [](const Release& a, const Release& b) {
    return std::tie(a.node, a.end) < std::tie(b.node, b.end);
  });
  idle_cpus_ = 0;
  std::size_t i = 0;
  for (std::size_t n = 0; n < n_nodes; ++n) {
    Resources free = idle_[n];
    // Ends already past release their share in the plan at `now`.
    for (; i < releases.size() && releases[i].node == n && releases[i].end <= now_; ++i)
      free += *releases[i].amount;
    Steps& steps = steps_[n];
    steps.push_back({now_, free});
    for (; i < releases.size() && releases[i].node == n; ++i) {
      free += *releases[i].amount;
      if (steps.back().time == releases[i].end) {
        steps.back().free = free;
      } else {
        steps.push_back({releases[i].end, free});
      }
    }
    idle_cpus_ += std::max<std::int64_t>(idle_[n][kCpu], 0);
  }
  idle_nodes_.clear();
  usable_cpus_ = 0;
  plain_failures_.clear();
  for (std::size_t n = 0; n < n_nodes; ++n) {
    bool gone = false;
    for (const NodeWindow& w : nodes[n].windows)
      gone = gone || (w.reservation.empty() && w.to == kNever && w.from <= now_);
    if (gone) continue;
    usable_cpus_ += nodes[n].capacity[kCpu];
    if (idle_[n][kCpu] > 0) idle_nodes_.push_back(static_cast<NodeIndex>(n));
  }
  std::sort(licence_releases.begin(), licence_releases.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  licence_steps_.clear();
  Resources lfree = licence_idle_;
  std::size_t j = 0;
  for (; j < licence_releases.size() && licence_releases[j].first <= now_; ++j)
    lfree += *licence_releases[j].second;
  licence_steps_.push_back({now_, lfree});
  for (; j < licence_releases.size(); ++j) {
    lfree += *licence_releases[j].second;
    if (licence_steps_.back().time == licence_releases[j].first) {
      licence_steps_.back().free = lfree;
    } else {
      licence_steps_.push_back({licence_releases[j].first, lfree});
    }
  }
  monotone_ = true;
}

Resources NodePlan::min_free(const Steps& steps, Time start, Time duration) {
  const Time end = end_of(start, duration);
  auto it = std::upper_bound(steps.begin(), steps.end(), start,
                             [](Time v, const Step& s) { return v < s.time; });
  std::size_t i = it == steps.begin() ? 0 : static_cast<std::size_t>(it - steps.begin()) - 1;
  Resources m = steps[i].free;
  for (std::size_t k = i + 1; k < steps.size() && steps[k].time < end; ++k)
    m = Resources::min(m, steps[k].free);
  return m;
}

void NodePlan::subtract(Steps& steps, Time start, Time duration, const Resources& amount) {
  if (start == kNever) return;
  const Time end = end_of(start, duration);
  start = std::max(start, steps.front().time);  // the part before now is over
  if (end <= start) return;
  // Index of the step beginning exactly at t, inserting one if needed (t > now then has
  // a previous step whose value continues at t).
  auto breakpoint = [&steps](Time t) {
    auto it = std::lower_bound(steps.begin(), steps.end(), t,
                               [](const Step& s, Time v) { return s.time < v; });
    if (it != steps.end() && it->time == t) return static_cast<std::size_t>(it - steps.begin());
    const Resources free = std::prev(it)->free;
    const auto inserted = steps.insert(it, Step{t, free});
    return static_cast<std::size_t>(inserted - steps.begin());
  };
  const std::size_t first = breakpoint(start);
  const std::size_t last = end == kNever ? steps.size() : breakpoint(end);
  for (std::size_t k = first; k < last; ++k) steps[k].free -= amount;
}

Resources NodePlan::free_at(NodeIndex n, Time t) const {
  const Steps& steps = steps_[n];
  auto it = std::upper_bound(steps.begin(), steps.end(), t,
                             [](Time v, const Step& s) { return v < s.time; });
  return it == steps.begin() ? steps.front().free : std::prev(it)->free;
}

std::uint64_t NodePlan::feature_mask(const JobRequest& request) const {
  constexpr std::uint64_t kNoNode = ~std::uint64_t{0};
  std::uint64_t mask = 0;
  for (const std::string& f : request.features) {
    auto it = std::find(feature_names_.begin(), feature_names_.end(), f);
    if (it == feature_names_.end()) {
      if (request.any_feature) continue;  // another may do
      return kNoNode;                     // no node has it
    }
    const auto bit = static_cast<std::size_t>(it - feature_names_.begin());
    mask |= bit < kFeatureBits ? std::uint64_t{1} << bit : kFeatureOverflow;
  }
  if (request.any_feature && !request.features.empty() && mask == 0) return kNoNode;
  return mask;
}

bool NodePlan::eligible(NodeIndex n, const JobRequest& request, std::uint64_t mask) const {
  if (!request.may_reach(*machine_, n)) return false;
  if ((mask & kFeatureOverflow) != 0)
    return mask != ~std::uint64_t{0} && request.features_on(machine_->nodes()[n]);
  if (request.any_feature && mask != 0) return (features_[n] & mask) != 0;
  return (features_[n] & mask) == mask;
}

bool NodePlan::blocked(NodeIndex n, const JobRequest& request, Time start, Time duration) const {
  const Time end = end_of(start, duration);
  bool inside_own = false;
  for (const NodeWindow& w : machine_->nodes()[n].windows) {
    const bool overlaps = start < w.to && end > w.from;
    if (!w.reservation.empty() && w.reservation == request.reservation) {
      inside_own = inside_own || (start >= w.from && start < w.to);
      continue;
    }
    if (overlaps) return true;
  }
  // A job in an advance reservation runs on its nodes, starting inside its time; on any
  // node inside its time if it has ANY_NODES (Slurm's job_test_resv: all active nodes).
  if (request.reservation.empty() || inside_own) return false;
  const ReservationSpan* span = any_nodes_span(request);
  return span == nullptr || start < span->from || start >= span->to;
}

const ReservationSpan* NodePlan::any_nodes_span(const JobRequest& request) const {
  for (const ReservationSpan& s : machine_->reservation_spans())
    if (s.any_nodes && s.name == request.reservation) return &s;
  return nullptr;
}

void NodePlan::span_times(const JobRequest& request, Time limit, std::vector<Time>& out) const {
  const Time l = std::max<Time>(limit, 1);
  const bool asks_licences = !(request.licences == Resources{});
  for (const ReservationSpan& s : machine_->reservation_spans()) {
    if (s.name == request.reservation) {
      if (s.any_nodes) {
        for (Time t : {s.from, s.to})
          if (t > now_ && t != kNever) out.push_back(t);
      }
    } else if (asks_licences && !(s.licences == Resources{})) {
      for (Time t : {s.from - l + 1, s.to})
        if (t > now_ && t != kNever) out.push_back(t);
    }
  }
}

int NodePlan::tasks_fit(NodeIndex n, const Resources& free, const JobRequest& request) const {
  const Resources& capacity = machine_->nodes()[n].capacity;
  if (whole_nodes(*machine_, request) && !free.covers(capacity)) return 0;
  if (!free.covers(request.per_node)) return 0;
  // More threads of a core than the node has: cons_tres skips the node (_allocate_sc).
  // Checked here, not in eligible(), though every caller asks eligible() first: a node
  // eligible() refuses adds no times to earliest_start_general's search, and one of this
  // node's step times can be the earliest start on the others (a --contiguous request
  // once reservations are planned: first fit is not monotone in the capacities there).
  if (request.threads_per_core > machine_->nodes()[n].threads_per_core) return 0;
  if (asks_per_core(request))
    if (const int used = threads_used(n, request); by_cores(n, request, used))
      return tasks_fit_in_cores(n, free, request, used);
  std::int64_t tasks = std::max(request.tasks, request.min_nodes);
  const std::int64_t unit = std::max(1, machine_->nodes()[n].cpu_unit);
  if (request.min_cpus_per_node > 0 && free[kCpu] - free[kCpu] % unit < request.min_cpus_per_node)
    return 0;
  if (request.max_tasks_per_node > 0) tasks = std::min<std::int64_t>(tasks, request.max_tasks_per_node);
  for (std::size_t k = 0; k < kMaxResourceKinds; ++k) {
    if (request.per_task[k] <= 0) continue;
    // CPUs come in whole units: what is free of them, in units, is all a share may use.
    const std::int64_t usable =
        k == kCpu || (unit > 1 && machine_->cpu_like(k)) ? free[k] - free[k] % unit : free[k];
    tasks = std::min(tasks, (usable - request.per_node[k]) / request.per_task[k]);
  }
  if (request.memory_per_cpu > 0 && unit > 1) {
    // Memory on the whole units the tasks' CPUs round up to: fewer tasks may fit.
    const std::int64_t cpt = std::max<std::int64_t>(1, request.per_task[kCpu]);
    const auto memory_of = [&](std::int64_t t) {
      const std::int64_t cpus = (t * cpt + request.per_node[kCpu] + unit - 1) / unit * unit;
      return request.per_node[kMemory] + request.memory_per_cpu * cpus;
    };
    while (tasks > 0 && memory_of(tasks) > free[kMemory]) --tasks;
  }
  return static_cast<int>(std::max<std::int64_t>(tasks, 0));
}

int NodePlan::threads_used(NodeIndex n, const JobRequest& request) const {
  int used = std::max(1, machine_->nodes()[n].threads_per_core);
  if (request.tasks_per_core > 0) {
    const std::int64_t cpt = std::max<std::int64_t>(1, request.per_task[kCpu]);
    used = static_cast<int>(std::min<std::int64_t>(used, request.tasks_per_core * cpt));
  }
  if (request.threads_per_core > 0) used = std::min(used, request.threads_per_core);
  return used;
}

bool NodePlan::by_cores(NodeIndex n, const JobRequest& request, int used) const {
  const std::int64_t cpt = std::max<std::int64_t>(1, request.per_task[kCpu]);
  return used < machine_->nodes()[n].threads_per_core ||
         (request.tasks_per_core == 1 && cpt > used && cpt % used != 0);
}

std::int64_t NodePlan::cores_for(std::int64_t tasks, const JobRequest& request, int used) {
  const std::int64_t cpt = std::max<std::int64_t>(1, request.per_task[kCpu]);
  // One task per core: a task of more CPUs than a core gives starts on a core of its own
  // (dist_tasks.c, _block_sync_core_bitmap: tasks x cores per task).
  if (request.tasks_per_core == 1 && cpt > used)
    return std::max<std::int64_t>(tasks * ((cpt + used - 1) / used),
                                  (request.min_cpus_per_node + used - 1) / used);
  const std::int64_t threads =
      std::max<std::int64_t>(tasks * cpt + request.per_node[kCpu], request.min_cpus_per_node);
  return (threads + used - 1) / used;
}

int NodePlan::tasks_fit_in_cores(NodeIndex n, const Resources& free, const JobRequest& request,
                                 int used) const {
  const std::int64_t free_cores = free[kCpu] / machine_->nodes()[n].threads_per_core;
  if (free_cores * used < request.min_cpus_per_node) return 0;
  std::int64_t tasks = std::max(request.tasks, request.min_nodes);
  if (request.max_tasks_per_node > 0) tasks = std::min<std::int64_t>(tasks, request.max_tasks_per_node);
  const std::int64_t cpt = std::max<std::int64_t>(1, request.per_task[kCpu]);
  if (request.tasks_per_core == 1 && cpt > used)
    tasks = std::min(tasks, free_cores / ((cpt + used - 1) / used));
  else
    tasks = std::min(tasks, (free_cores * used - request.per_node[kCpu]) / cpt);
  // A bound from each other kind per task (a share holds at least that much of it), then
  // the share itself must fit: memory and CPU caps are counted on its whole cores.
  for (std::size_t k = kMemory; k < kMaxResourceKinds; ++k)
    if (request.per_task[k] > 0 && !machine_->cpu_like(k))
      tasks = std::min(tasks, (free[k] - request.per_node[k]) / request.per_task[k]);
  while (tasks > 0 && !free.covers(share_amount(n, static_cast<int>(tasks), request))) --tasks;
  return static_cast<int>(std::max<std::int64_t>(tasks, 0));
}

Resources NodePlan::share_amount(NodeIndex n, int tasks, const JobRequest& request) const {
  if (whole_nodes(*machine_, request)) return machine_->nodes()[n].capacity;
  Resources amount = request.per_node;
  for (std::size_t k = 0; k < kMaxResourceKinds; ++k) amount[k] += request.per_task[k] * tasks;
  if (amount[kCpu] < request.min_cpus_per_node) {  // a node's minimum, however few tasks
    const std::int64_t more = request.min_cpus_per_node - amount[kCpu];
    amount[kCpu] += more;
    if (request.memory_per_cpu > 0) amount[kMemory] += request.memory_per_cpu * more;
  }
  const std::int64_t unit = std::max(1, machine_->nodes()[n].cpu_unit);
  const int tpc = machine_->nodes()[n].threads_per_core;
  if (unit > 1 && asks_per_core(request))
    if (const int used = threads_used(n, request); by_cores(n, request, used)) {
      // Whole cores: it holds every thread of the cores its tasks spread over. --mem-per-cpu
      // is charged on the threads it asked of them (job_resources_get_node_cpu_cnt), on all
      // of them with --ntasks-per-core alone. (Without whole cores Slurm counts only the
      // threads used, as the sum above does.) With --ntasks-per-core=1 and one CPU per task
      // cons_tres tests the fit on all of them (can_job_run_on_node), whatever it charges
      // once started: planned so, or the plan would start it where select_nodes refuses it.
      const std::int64_t cores = cores_for(tasks, request, used);
      amount[kCpu] = cores * tpc;
      if (request.memory_per_cpu > 0) {
        const bool fit_on_all = request.tasks_per_core == 1 && request.per_task[kCpu] <= 1;
        const std::int64_t charged = request.threads_per_core > 0 && !fit_on_all
                                         ? std::min(request.threads_per_core, tpc)
                                         : tpc;
        amount[kMemory] = request.per_node[kMemory] + request.memory_per_cpu * cores * charged;
      }
      // A partition's CPU cap admits it by the threads it uses (cons_tres counts the job's
      // own CPUs as cores x threads used against MaxCPUsPerNode), though it holds them all.
      if (machine_->has_cpu_like())
        for (std::size_t k = kMemory + 1; k < kMaxResourceKinds; ++k)
          if (amount[k] > 0 && machine_->cpu_like(k)) amount[k] = cores * used;
      return amount;
    }
  if (amount[kCpu] % unit != 0) {
    amount[kCpu] += unit - amount[kCpu] % unit;
    if (request.memory_per_cpu > 0)
      amount[kMemory] = request.per_node[kMemory] + request.memory_per_cpu * amount[kCpu];
    // Kinds counted in CPUs take the rounded CPUs too (a cap counts whole cores).
    if (machine_->has_cpu_like())
      for (std::size_t k = kMemory + 1; k < kMaxResourceKinds; ++k)
        if (amount[k] > 0 && machine_->cpu_like(k)) amount[k] = amount[kCpu];
  }
  return amount;
}

std::optional<Allocation> NodePlan::select(const std::vector<int>& caps,
                                           const JobRequest& request) const {
  usable_.clear();
  for (NodeIndex n = 0; n < caps.size(); ++n)
    if (caps[n] > 0) usable_.emplace_back(n, caps[n]);
  return select(usable_, request);
}

bool NodePlan::plain(const JobRequest& r) {
  Resources cpu_only;
  cpu_only[kCpu] = 1;
  return r.per_task == cpu_only && r.per_node == Resources{} && r.min_nodes <= 1 &&
         r.max_nodes == 0 && r.features.empty() && r.required.empty() && r.excluded.empty() &&
         r.partitions.empty() && r.licences == Resources{} && r.reservation.empty() &&
         r.other_reservations.empty() && !r.contiguous && r.min_cpus_per_node <= 1 &&
         r.max_tasks_per_node == 0 && r.threads_per_core == 0 && r.tasks_per_core == 0;
}

std::optional<Allocation> NodePlan::select(const std::vector<std::pair<NodeIndex, int>>& usable,
                                           const JobRequest& request) const {
  if (request.contiguous) return select_contiguous(usable, request);
  std::optional<Allocation> a = select_first_fit(usable, request);
  const std::size_t max_nodes = request.max_nodes > 0 ? static_cast<std::size_t>(request.max_nodes) : 0;
  if (a || max_nodes == 0 || usable.size() <= max_nodes) return a;
  // First fit can fill its few nodes with small pieces (-N1 -n4 takes 3 CPUs of the
  // first node, then may not use a second): with a node limit, try the largest
  // capacities first.
  std::vector<std::pair<NodeIndex, int>> largest = usable;
  std::stable_sort(largest.begin(), largest.end(),
                   [](const auto& x, const auto& y) { return x.second > y.second; });
  return select_first_fit(largest, request);
}

std::optional<Allocation> NodePlan::select_contiguous(
    const std::vector<std::pair<NodeIndex, int>>& usable, const JobRequest& request) const {
  std::vector<std::pair<NodeIndex, int>> run;
  for (std::size_t i = 0; i < usable.size(); ++i) {
    run.clear();
    for (std::size_t j = i; j < usable.size(); ++j) {
      if (j > i && usable[j].first != usable[j - 1].first + 1) break;
      run.push_back(usable[j]);
    }
    std::optional<Allocation> a = select_first_fit(run, request);
    if (!a) continue;
    bool consecutive = true;  // first fit may skip a node of the run (reserved ones last)
    for (std::size_t k = 1; k < a->shares.size(); ++k)
      consecutive = consecutive && a->shares[k].node == a->shares[k - 1].node + 1;
    if (consecutive) return a;
  }
  return std::nullopt;
}

std::optional<Allocation> NodePlan::select_first_fit(
    const std::vector<std::pair<NodeIndex, int>>& usable, const JobRequest& request) const {
  // Same rules as the dense form; `usable` is in node order.
  Allocation a;
  const int min_nodes = std::max(1, request.min_nodes);
  const int max_nodes = request.max_nodes > 0 ? request.max_nodes : INT_MAX;
  int need = std::max(request.tasks, min_nodes);
  int chosen = 0;
  if (!request.required.empty()) {
    std::size_t found = 0;
    for (const auto& [n, cap] : usable) found += request.required.contains(n) ? 1 : 0;
    if (found != request.required.count()) return std::nullopt;
  }
  auto take = [&](NodeIndex n, int cap) {
    if (chosen == max_nodes || (need == 0 && chosen >= min_nodes)) return;
    // The last node allowed must complete the request: a partial fit there would leave
    // the rest nowhere (a --nodes=1 job of 4 tasks skips a node with room for 3).
    if (chosen + 1 == max_nodes && cap < need) return;
    const int later = std::max(0, min_nodes - chosen - 1);
    const int tasks = std::min(cap, need - later);
    if (tasks <= 0) return;
    a.shares.push_back({n, tasks, share_amount(n, tasks, request)});
    need -= tasks;
    ++chosen;
  };
  if (!request.required.empty()) {
    for (const auto& [n, cap] : usable)
      if (request.required.contains(n)) take(n, cap);
  }
  for (std::uint8_t in_reservation : {0, 1}) {
    for (const auto& [n, cap] : usable) {
      if (need == 0 && chosen >= min_nodes) break;
      if (reserved_[n] != in_reservation) continue;
      if (!request.required.empty() && request.required.contains(n)) continue;
      take(n, cap);
    }
  }
  if (need > 0 || chosen < min_nodes) return std::nullopt;
  std::sort(a.shares.begin(), a.shares.end(),
            [](const NodeShare& x, const NodeShare& y) { return x.node < y.node; });
  a.licences = request.licences;
  return a;
}

bool NodePlan::licences_fit(const JobRequest& request, Time start, Time duration,
                            Time limit) const {
  if (request.licences == Resources{}) return true;
  Resources free = min_free(licence_steps_, start, duration);
  // As Slurm's license_job_test (job_test_lic_resv): every other reservation overlapping
  // the job's time up to its limit keeps all its licences, whatever its jobs hold.
  const Time end = end_of(start, std::max(duration, limit));
  for (const ReservationSpan& s : machine_->reservation_spans())
    if (s.name != request.reservation && start < s.to && end > s.from) free -= s.licences;
  return free.covers(request.licences);
}

bool NodePlan::has_choices(const JobRequest& request) const {
  if (!request.other_reservations.empty() || request.partitions.size() > 1) return true;
  if (request.partitions.size() != 1 || request.partitions[0] >= machine_->partitions().size())
    return false;
  const int cap = machine_->partitions()[request.partitions[0]].max_nodes;
  return cap > 0 && std::max(1, request.min_nodes) <= cap &&
         (request.max_nodes <= 0 || request.max_nodes > cap);
}

const std::vector<JobRequest>& NodePlan::choices(const JobRequest& request) const {
  // Written over the last call's choices, so their storage is reused: no allocation once
  // warm. No choice has choices of its own, so no caller's loop over them is overwritten.
  const std::size_t n_reservations = 1 + request.other_reservations.size();
  const std::size_t n_partitions = std::max<std::size_t>(1, request.partitions.size());
  choices_.resize(n_reservations * n_partitions);
  std::size_t next = 0;
  for (std::size_t k = 0; k < n_reservations; ++k) {
    const auto choice = [&]() -> JobRequest& {
      JobRequest& one = choices_[next++];
      one = request;
      one.other_reservations.clear();
      if (k > 0) one.reservation = request.other_reservations[k - 1];
      return one;
    };
    if (request.partitions.empty()) {
      choice();
      continue;
    }
    for (std::size_t p : request.partitions) {
      JobRequest& in = choice();
      in.partitions.assign(1, p);
      // Run in p, it holds none of its other partitions' caps on CPUs per node.
      if (request.partitions.size() > 1)
        for (std::size_t q : request.partitions)
          if (q != p && q < machine_->partitions().size())
            if (const int k = machine_->partitions()[q].cpu_cap_kind; k >= 0 && k != kCpu)
              in.per_task[static_cast<std::size_t>(k)] = 0;
      const int cap = p < machine_->partitions().size() ? machine_->partitions()[p].max_nodes : 0;
      // Above the cap only under a QOS with PartitionMaxNodes (job_limits_check refuses
      // it otherwise), which lifts it: then left as asked.
      if (cap > 0 && std::max(1, in.min_nodes) <= cap && (in.max_nodes <= 0 || in.max_nodes > cap))
        in.max_nodes = cap;
    }
  }
  // The loops over these recurse on each choice alone: one with choices of its own would
  // overwrite this vector under them.
  assert(std::none_of(choices_.begin(), choices_.end(),
                      [&](const JobRequest& one) { return has_choices(one); }));
  return choices_;
}

bool NodePlan::ever_fits(const JobRequest& request) const {
  if (has_choices(request)) {
    for (const JobRequest& one : choices(request))
      if (ever_fits(one)) return true;
    return false;
  }
  if (plain(request) && !request.exclusive) return request.tasks <= usable_cpus_;
  const std::uint64_t mask = feature_mask(request);
  Resources total_licences;
  for (std::size_t l = 0; l < machine_->licences().size(); ++l)
    total_licences[l] = machine_->licences()[l].count;
  if (!total_licences.covers(request.licences)) return false;
  const auto n_nodes = static_cast<NodeIndex>(machine_->nodes().size());
  caps_.assign(n_nodes, 0);
  for (NodeIndex n = 0; n < n_nodes; ++n) {
    if (!eligible(n, request, mask)) continue;
    // Usable at some time: not down or drained for good.
    bool gone = false;
    for (const NodeWindow& w : machine_->nodes()[n].windows)
      gone = gone || (w.reservation.empty() && w.to == kNever && w.from <= now_);
    if (gone) continue;
    caps_[n] = tasks_fit(n, machine_->nodes()[n].capacity, request);
  }
  // Reserved nodes are fine here: the question is the machine, not the plan.
  Allocation a;
  const int min_nodes = std::max(1, request.min_nodes);
  const int max_nodes = request.max_nodes > 0 ? request.max_nodes : INT_MAX;
  std::vector<int> sorted;
  for (int c : caps_)
    if (c > 0) sorted.push_back(c);
  if (static_cast<int>(sorted.size()) < min_nodes) return false;
  std::sort(sorted.rbegin(), sorted.rend());
  std::int64_t tasks = 0;
  for (std::size_t k = 0; k < sorted.size() && static_cast<int>(k) < max_nodes; ++k)
    tasks += sorted[k];
  if (!request.required.empty()) {
    for (NodeIndex n = 0; n < n_nodes; ++n)
      if (request.required.contains(n) && caps_[n] <= 0) return false;
  }
  return tasks >= std::max(request.tasks, min_nodes);
}

std::optional<Allocation> NodePlan::place_now(const JobRequest& request, Time duration,
                                              Time limit) const {
  if (has_choices(request)) {
    for (const JobRequest& one : choices(request))
      if (auto a = place_now(one, duration, limit)) {
        if (request.partitions.size() > 1) a->partition = static_cast<int>(one.partitions.at(0));
        return a;
      }
    return std::nullopt;
  }
  if (!licence_idle_.covers(request.licences) || !licences_fit(request, now_, duration, limit))
    return std::nullopt;
  const bool is_plain = plain(request);
  const bool whole = whole_nodes(*machine_, request);
  if (is_plain) {
    for (const PlainFailure& f : plain_failures_) {
      if (f.whole == whole && f.duration <= duration && f.limit <= limit && f.tasks <= request.tasks)
        return std::nullopt;
    }
  }
  const std::uint64_t mask = feature_mask(request);
  usable_.clear();
  // A job takes at least one CPU on every node it uses, so only nodes with an idle CPU
  // can take part (a request asking no CPU at all looks at every node).
  const bool needs_cpu = request.per_task[kCpu] > 0 || request.per_node[kCpu] > 0 || whole;
  auto consider = [&](NodeIndex n) {
    if (!eligible(n, request, mask) || blocked(n, request, now_, limit)) return;
    const Resources free = Resources::min(idle_[n], min_free(steps_[n], now_, duration));
    const int cap = tasks_fit(n, free, request);
    if (cap > 0) usable_.emplace_back(n, cap);
  };
  if (needs_cpu) {
    std::size_t kept = 0;
    for (NodeIndex n : idle_nodes_) {
      if (idle_[n][kCpu] <= 0) continue;  // taken since reset: drop it from the set
      idle_nodes_[kept++] = n;
      consider(n);
    }
    idle_nodes_.resize(kept);
  } else {
    for (NodeIndex n = 0; n < machine_->nodes().size(); ++n) consider(n);
  }
  std::optional<Allocation> a = select(usable_, request);
  if (!a && is_plain && plain_failures_.size() < 64)
    plain_failures_.push_back({duration, limit, request.tasks, whole});
  return a;
}

NodePlan::Slot NodePlan::earliest_start(const JobRequest& request, Time duration,
                                        Time limit) const {
  if (has_choices(request)) {
    Slot best;
    for (const JobRequest& one : choices(request)) {
      Slot s = earliest_start(one, duration, limit);
      if (request.partitions.size() > 1) s.allocation.partition = static_cast<int>(one.partitions.at(0));
      if (s.start < best.start) best = std::move(s);
    }
    return best;
  }
  return monotone_ ? earliest_start_monotone(request, duration, limit)
                   : earliest_start_general(request, duration, limit);
}

void NodePlan::window_times(NodeIndex n, Time limit, std::vector<Time>& out) const {
  const Time l = std::max<Time>(limit, 1);
  for (const NodeWindow& w : machine_->nodes()[n].windows) {
    // blocked() changes where [t, t + l) starts or stops overlapping [from, to), and
    // where t enters or leaves [from, to).
    for (Time t : {w.from - l + 1, w.from, w.to}) {
      if (t > now_ && t != kNever) out.push_back(t);
    }
  }
}

// While the plan only gains resources over time (running jobs and jobs started now end;
// nothing reserved later), a node's free amount over [t, t + duration) is its amount at
// t. So one walk over the plan's steps in time order, updating the few nodes each step
// touches and a running sum of task capacity, finds the first moment the request fits:
// O(steps log steps + nodes) instead of O(times x nodes).
NodePlan::Slot NodePlan::earliest_start_monotone(const JobRequest& request, Time duration,
                                                 Time limit) const {
  const std::uint64_t mask = feature_mask(request);
  const auto n_nodes = static_cast<NodeIndex>(machine_->nodes().size());
  caps_.assign(n_nodes, 0);
  struct Event {
    Time time;
    NodeIndex node;  // n_nodes: licences only
  };
  std::vector<Event> events;
  const Time d = std::max<Time>(duration, 1);
  std::int64_t sum = 0;
  int usable = 0;
  auto cap_at = [&](NodeIndex n, Time t) {
    if (blocked(n, request, t, limit)) return 0;
    return tasks_fit(n, free_at(n, t), request);
  };
  auto set_cap = [&](NodeIndex n, int cap) {
    sum += cap - caps_[n];
    usable += (cap > 0) - (caps_[n] > 0);
    caps_[n] = cap;
  };
  for (NodeIndex n = 0; n < n_nodes; ++n) {
    if (!eligible(n, request, mask)) continue;
    set_cap(n, cap_at(n, now_));
    const Steps& steps = steps_[n];
    for (std::size_t k = 1; k < steps.size(); ++k) events.push_back({steps[k].time, n});
    window_scratch_.clear();
    window_times(n, limit, window_scratch_);
    for (Time t : window_scratch_) events.push_back({t, n});
  }
  if (!(request.licences == Resources{})) {
    for (std::size_t k = 1; k < licence_steps_.size(); ++k)
      events.push_back({licence_steps_[k].time, n_nodes});
  }
  // Moments a reservation's time or licences change what the job may use: every node is
  // tried again then (its blocked() may change where the job's reservation has ANY_NODES).
  window_scratch_.clear();
  span_times(request, limit, window_scratch_);
  for (Time t : window_scratch_) {
    events.push_back({t, n_nodes});
    if (any_nodes_span(request) != nullptr)
      for (NodeIndex n = 0; n < n_nodes; ++n)
        if (eligible(n, request, mask)) events.push_back({t, n});
  }
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    return std::tie(a.time, a.node) < std::tie(b.time, b.node);
  });
  const int min_nodes = std::max(1, request.min_nodes);
  const std::int64_t need = std::max(request.tasks, min_nodes);
  auto try_at = [&](Time t) -> std::optional<Allocation> {
    if (sum < need || usable < min_nodes || !licences_fit(request, t, d, limit))
      return std::nullopt;
    return select(caps_, request);
  };
  if (auto a = try_at(now_)) return {now_, std::move(*a)};
  for (std::size_t i = 0; i < events.size();) {
    const Time t = events[i].time;
    for (; i < events.size() && events[i].time == t; ++i) {
      const NodeIndex n = events[i].node;
      if (n < n_nodes && (i == 0 || events[i - 1].time != t || events[i - 1].node != n))
        set_cap(n, cap_at(n, t));
    }
    if (auto a = try_at(t)) return {t, std::move(*a)};
  }
  return {};
}

// With reservations in the plan a node's free amount may fall later, so every moment the
// plan changes is tried with each node's minimum over the whole duration.
NodePlan::Slot NodePlan::earliest_start_general(const JobRequest& request, Time duration,
                                                Time limit) const {
  const std::uint64_t mask = feature_mask(request);
  const auto n_nodes = static_cast<NodeIndex>(machine_->nodes().size());
  const Time d = std::max<Time>(duration, 1);
  std::vector<NodeIndex> candidates;
  std::vector<Time> times{now_};
  for (NodeIndex n = 0; n < n_nodes; ++n) {
    if (!eligible(n, request, mask)) continue;
    candidates.push_back(n);
    for (const Step& s : steps_[n]) times.push_back(s.time);
    window_times(n, limit, times);
  }
  for (const Step& s : licence_steps_) times.push_back(s.time);
  span_times(request, limit, times);
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  const int min_nodes = std::max(1, request.min_nodes);
  const std::int64_t need = std::max(request.tasks, min_nodes);
  for (Time t : times) {
    if (t < now_ || t == kNever) continue;
    if (!licences_fit(request, t, d, limit)) continue;
    caps_.assign(n_nodes, 0);
    std::int64_t sum = 0;
    int usable = 0;
    for (NodeIndex n : candidates) {
      if (blocked(n, request, t, limit)) continue;
      caps_[n] = tasks_fit(n, min_free(steps_[n], t, d), request);
      sum += caps_[n];
      usable += caps_[n] > 0;
    }
    if (sum < need || usable < min_nodes) continue;
    if (auto a = select(caps_, request)) return {t, std::move(*a)};
  }
  return {};
}

bool NodePlan::fits_now(const Allocation& allocation, Time duration) const {
  for (const NodeShare& s : allocation.shares) {
    if (s.node >= steps_.size() || !idle_[s.node].covers(s.amount) ||
        !min_free(steps_[s.node], now_, duration).covers(s.amount))
      return false;
  }
  return licence_idle_.covers(allocation.licences) &&
         (allocation.licences == Resources{} ||
          min_free(licence_steps_, now_, duration).covers(allocation.licences));
}

void NodePlan::start_now(const Allocation& allocation, Time duration) {
  for (const NodeShare& s : allocation.shares) {
    idle_[s.node] -= s.amount;
    idle_cpus_ -= s.amount[kCpu];
    if (duration > 0) subtract(steps_[s.node], now_, duration, s.amount);
  }
  licence_idle_ -= allocation.licences;
  if (duration > 0 && !(allocation.licences == Resources{}))
    subtract(licence_steps_, now_, duration, allocation.licences);
}

void NodePlan::reserve(const Allocation& allocation, Time start, Time duration) {
  if (start == kNever) return;
  for (const NodeShare& s : allocation.shares) {
    subtract(steps_[s.node], start, duration, s.amount);
    reserved_[s.node] = 1;
  }
  if (!(allocation.licences == Resources{}))
    subtract(licence_steps_, start, duration, allocation.licences);
  monotone_ = false;
}

}  // namespace easypp
