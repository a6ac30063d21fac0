// The EASY toolkit: the steps EASY-like passes are made of, on one pool of processors or
// on a Machine's nodes, so a policy written on it plans both (pv-easy, timed-run; EasyPass
// is the same steps, fused for the easy family's hot path).
//
//   count        the load the caller plans with: running jobs busy until the end it
//                chooses (predicted end, a trial's end; an end <= now still holds its
//                share now but is free in the plan, paper 000 section 3.2);
//   fits_now     start what fits: idle resources now, delaying nothing planned;
//   start, keep  take them (a waiting job placed now, a running job kept where it is);
//   head_start   the head's earliest start on the plan, and reserve it;
//   fits_now     after reserve, a backfill candidate delays the reservation in nothing.
//
// On the pool this is the papers' arithmetic, unchanged: idle processors, the shadow
// time and the extra processors (those free at the shadow time beyond the head's need);
// a candidate fits if it ends by the shadow time or fits the extra processors. On nodes
// the same questions go to a NodePlan, per node and resource. On Machine::single_node(N)
// with CPU-only requests both give the same answers.
#ifndef EASYPP_CORE_EASY_PLAN_H
#define EASYPP_CORE_EASY_PLAN_H

#include <memory>
#include <optional>
#include <vector>

#include "core/decision.h"
#include "core/job.h"
#include "core/job_request.h"
#include "core/node_plan.h"
#include "core/profile.h"

namespace easypp {

class EasyPlan {
 public:
  // Where a job goes: its nodes on a Machine; null on the pool.
  using Placement = std::shared_ptr<const Allocation>;
  struct Slot {
    Time start = kNever;
    Placement allocation;
  };

  // Starts planning `state` (pool or nodes) with nothing counted. `state` must outlive
  // the use of this plan.
  void begin(const ClusterState& state);
  // Counts running job `r` busy until `end`. All counting comes before any other call.
  void count(const RunningJob& r, Time end);

  bool on_nodes() const { return state_->machine != nullptr; }
  Time now() const { return state_->now; }
  // Could `job` ever run in this domain (more processors than the pool, a request no
  // node set can satisfy: it must not block the queue).
  bool ever_fits(const Job& job);
  // Nothing is idle any more: no candidate can start.
  bool full();
  // A quick necessary test: enough idle processors (CPUs) for `job`.
  bool may_fit_now(const Job& job);
  // Where `job` can start now and run until `end` without delaying what is planned
  // (a reservation: on the pool, end <= shadow time or procs <= extra).
  std::optional<Placement> fits_now(const Job& job, Time end);
  // Whether running job `r` (not counted) can keep its share until `end`, the same way.
  bool holds_now(const RunningJob& r, Time end);
  // Takes what fits_now found, until `end`.
  void start(const Job& job, const Placement& placement, Time end);
  // Keeps a running job (not counted) on its share until `end`.
  void keep(const RunningJob& r, Time end);
  // The earliest start of `job` for its prediction on the plan (ignoring idleness, as
  // AvailabilityProfile::earliest_start). Not before `not_before`: on the pool the start
  // is moved there; on nodes, if it is earlier, `own` (the nodes the job runs on now,
  // required then) is taken from `not_before`.
  Slot head_start(const Job& job, Time not_before = 0, const Placement& own = nullptr);
  // Plans `slot` busy for `job`'s prediction: later fits_now calls respect it.
  void reserve(const Job& job, const Slot& slot);

  // Appends a start to `decision` (with its nodes on a Machine).
  static void record(Decision& decision, const Job& job, const Placement& placement,
                     bool backfilled);

 private:
  const JobRequest& request_of(const Job& job);
  void build();  // the node plan from what was counted, once

  const ClusterState* state_ = nullptr;
  // Pool.
  int idle_ = 0;
  std::vector<AvailabilityProfile::Busy> busy_;
  AvailabilityProfile profile_;
  bool reserved_ = false;
  Time shadow_ = kNever;
  int extra_ = 0;
  // Nodes.
  ClusterState counted_;  // the running jobs counted, their prediction set to their end
  NodePlan plan_;
  bool built_ = false;
  JobRequest cpu_request_;  // for jobs without a request
};

}  // namespace easypp

#endif
