// The plan of a Machine over time: for every node, how much of each resource is free
// from `now` on (a step function per node), plus the cluster's licences. Built from the
// running jobs' allocations and planned ends, then extended in place with jobs started
// now and with reservations, as AvailabilityProfile does for one pool of processors.
//
// Two amounts differ at `now`: a node's idle resources (what a job may start on) and
// its planned free resources, which also count running jobs whose planned end is past
// (paper 000 section 3.2: an expired prediction counts as "ending now").
//
// Placement is first fit in node order, nodes outside every reservation first (so a
// backfilled job leaves reserved nodes to the job they are reserved for), with a
// job's required nodes taken before any other.
#ifndef EASYPP_CORE_NODE_PLAN_H
#define EASYPP_CORE_NODE_PLAN_H

#include <cstdint>
#include <optional>
#include <vector>

#include "core/job.h"
#include "core/job_request.h"
#include "core/machine.h"
#include "core/profile.h"
#include "core/resources.h"

namespace easypp {

class NodePlan {
 public:
  struct Slot {
    Time start = kNever;
    Allocation allocation;
  };

  // Rebuilds the plan of state.machine (required) at state.now from the running jobs
  // (their allocations, ending at their predicted ends or kill times). Throws
  // std::invalid_argument naming a running job without an allocation or on an unknown
  // node. Reuses this object's storage.
  void reset(const ClusterState& state, RunningEnd end);

  Time now() const { return now_; }
  // CPUs really idle now over the whole machine (a pass stops backfilling at 0).
  std::int64_t idle_cpus() const { return idle_cpus_; }

  // A request with other_reservations, or queued in several partitions, is planned as
  // each of its choices alone (the reservation named first, or outside every
  // reservation, then each other one; in each, its partitions in its order) and gets the
  // earliest: its nodes all lie in one reservation and one partition, as Slurm's records
  // for it do (a job runs in one partition). In a partition with MaxNodes it takes at
  // most that many nodes, as select_nodes caps it there.
  //
  // Could `request` ever run on this machine (all nodes empty and usable)?
  bool ever_fits(const JobRequest& request) const;
  // Where `request` can start now for `duration`: on idle resources, delaying nothing
  // already in the plan (reservations included). Nothing if it cannot. Windows (down,
  // drained, advance reservations) are kept for `limit`, the job's time limit: a job
  // may run to its kill time whatever its prediction.
  std::optional<Allocation> place_now(const JobRequest& request, Time duration,
                                      Time limit) const;
  // The earliest start >= now at which `request` fits for `duration` in the plan (and
  // its windows for `limit`), and on which nodes; start == kNever if it never does. Like
  // AvailabilityProfile, ignores idleness: a start may be "now" when expired predictions
  // make the plan optimistic.
  Slot earliest_start(const JobRequest& request, Time duration, Time limit) const;

  // Could a running job keep (or a job take) exactly `allocation` from now for
  // `duration`: idle resources on its nodes, delaying nothing already in the plan. (Windows
  // are not checked: the job already holds these nodes.)
  bool fits_now(const Allocation& allocation, Time duration) const;
  // Starts a job now on `allocation`: takes idle resources and plans them busy for
  // `duration`. A duration <= 0 is a running job kept past its planned end: it holds its
  // share now but, as reset() plans such jobs, the plan counts it free from now.
  void start_now(const Allocation& allocation, Time duration);
  // Plans `allocation` busy during [start, start + duration) (a reservation).
  void reserve(const Allocation& allocation, Time start, Time duration);

  // Free resources of node n at time t in the plan (t < now reads as now).
  Resources free_at(NodeIndex n, Time t) const;
  const Resources& idle(NodeIndex n) const { return idle_[n]; }

 private:
  struct Step {
    Time time;
    Resources free;
  };
  using Steps = std::vector<Step>;

  // Tasks of `request` node n can take given `free` (0 when a per-node amount does not
  // fit, or the node must be whole and is not).
  int tasks_fit(NodeIndex n, const Resources& free, const JobRequest& request) const;
  // Whether the request asks anything per core (--threads-per-core, --ntasks-per-core).
  // If not it may use every thread of a core, so it is never counted in cores: the usual
  // request skips threads_used and by_cores.
  static bool asks_per_core(const JobRequest& request) {
    return request.threads_per_core > 0 || request.tasks_per_core > 0;
  }
  // Threads of each core of node n the request may use (Slurm's common_cpus_per_core):
  // below the node's threads per core, its tasks take whole cores of that many threads.
  int threads_used(NodeIndex n, const JobRequest& request) const;
  // Whether its tasks on node n are counted in cores (tasks_fit_in_cores): it uses fewer
  // threads of each than the node has, or one task per core does not fill whole cores.
  bool by_cores(NodeIndex n, const JobRequest& request, int used) const;
  // Cores `tasks` tasks of the request take where it uses `used` threads of each.
  static std::int64_t cores_for(std::int64_t tasks, const JobRequest& request, int used);
  // tasks_fit for a request counted in cores on node n.
  int tasks_fit_in_cores(NodeIndex n, const Resources& free, const JobRequest& request,
                         int used) const;
  bool eligible(NodeIndex n, const JobRequest& request, std::uint64_t feature_mask) const;
  // True when a window keeps the job off node n during [start, start + duration).
  bool blocked(NodeIndex n, const JobRequest& request, Time start, Time duration) const;
  // Minimum over [start, start + duration) of `steps`.
  static Resources min_free(const Steps& steps, Time start, Time duration);
  static void subtract(Steps& steps, Time start, Time duration, const Resources& amount);
  std::uint64_t feature_mask(const JobRequest& request) const;
  Resources share_amount(NodeIndex n, int tasks, const JobRequest& request) const;
  // Chooses nodes from per-node task capacities (0: unusable). Nothing if they do not
  // make the request.
  std::optional<Allocation> select(const std::vector<int>& caps, const JobRequest& request) const;
  // The same from (node, capacity) pairs in node order, capacities > 0.
  std::optional<Allocation> select(const std::vector<std::pair<NodeIndex, int>>& usable,
                                   const JobRequest& request) const;
  // --contiguous: first fit over each run of consecutive nodes of `usable` from each
  // start in turn; the first choice of consecutive nodes.
  std::optional<Allocation> select_contiguous(const std::vector<std::pair<NodeIndex, int>>& usable,
                                              const JobRequest& request) const;
  // One pass of first fit over `usable` in its order (reserved nodes last).
  std::optional<Allocation> select_first_fit(const std::vector<std::pair<NodeIndex, int>>& usable,
                                             const JobRequest& request) const;
  // Tasks of one CPU anywhere, nothing else asked (an SWF job): such requests are
  // ordered by size, so a failure answers for every larger, longer one.
  static bool plain(const JobRequest& request);
  // Whether the request is planned as several choices, or capped by its partition's
  // MaxNodes (see place_now), and the request as each choice alone.
  bool has_choices(const JobRequest& request) const;
  const std::vector<JobRequest>& choices(const JobRequest& request) const;
  // The request's licences free over [start, start + duration) in the plan, less those
  // of every other reservation overlapping its time up to `limit`.
  bool licences_fit(const JobRequest& request, Time start, Time duration, Time limit) const;
  // The span of the request's reservation if that has ANY_NODES, else null.
  const ReservationSpan* any_nodes_span(const JobRequest& request) const;
  // Moments after now at which reservation spans may start or stop keeping the request
  // off a node or from licences (for a job of `limit` seconds).
  void span_times(const JobRequest& request, Time limit, std::vector<Time>& out) const;
  Slot earliest_start_monotone(const JobRequest& request, Time duration, Time limit) const;
  Slot earliest_start_general(const JobRequest& request, Time duration, Time limit) const;
  // Moments after now at which a window may start or stop keeping a job of `limit`
  // seconds off node n.
  void window_times(NodeIndex n, Time limit, std::vector<Time>& out) const;

  const Machine* machine_ = nullptr;
  Time now_ = 0;
  std::vector<Resources> idle_;
  std::vector<Steps> steps_;
  Steps licence_steps_;
  Resources licence_idle_;
  std::int64_t idle_cpus_ = 0;
  std::vector<std::uint8_t> reserved_;    // node holds some reservation
  std::vector<std::uint64_t> features_;  // per node, bit per known feature
  std::vector<std::string> feature_names_;
  // False once a reservation is planned: free amounts then may fall over time, and
  // earliest_start needs its general (slower) search.
  bool monotone_ = true;
  mutable std::vector<int> caps_;  // scratch
  mutable std::vector<JobRequest> choices_;  // scratch: the last choices() built
  mutable std::vector<std::pair<NodeIndex, int>> usable_;  // scratch
  // Nodes with an idle CPU at reset (place_now looks only there; a node leaves the set
  // when its CPUs are taken, lazily).
  mutable std::vector<NodeIndex> idle_nodes_;
  // CPUs of nodes not down or drained for good (ever_fits for plain requests).
  std::int64_t usable_cpus_ = 0;
  // place_now failures of plain requests since reset: (duration, limit, tasks). The plan
  // only loses resources between resets, so each stays a failure.
  struct PlainFailure {
    Time duration;
    Time limit;
    int tasks;
    bool whole;
  };
  mutable std::vector<PlainFailure> plain_failures_;
  mutable std::vector<Time> window_scratch_;
};

}  // namespace easypp

#endif
