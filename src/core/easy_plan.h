// The EASY toolkit: the steps EASY-like passes are made of, on one pool of processors or
// on a Machine's nodes, so a policy written on it plans both. Every EASY loop is written
// on it: EasyPass (the easy family, lxf-w), pv-easy and timed-run.
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
  // begin(state), then every running job counted until its predicted end or kill time
  // (on nodes without copying them; no count() after this).
  void begin(const ClusterState& state, RunningEnd end);

  bool on_nodes() const { return state_->machine != nullptr; }
  Time now() const { return state_->now; }
  // Could `job` ever run in this domain (more processors than the pool, a request no
  // node set can satisfy: it must not block the queue).
  bool ever_fits(const Job& job) {
    return on_nodes() ? ever_fits_on_nodes(job) : job.procs <= state_->procs;
  }
  // Nothing is idle any more: no candidate can start.
  bool full() { return on_nodes() ? full_on_nodes() : idle_ <= 0; }
  // A quick necessary test: enough idle processors (CPUs) for `job`.
  bool may_fit_now(const Job& job) {
    return on_nodes() ? may_fit_now_on_nodes(job) : job.procs <= idle_;
  }
  // A necessary test that stays false for the rest of the pass once false: on the pool,
  // fits_now(job, end) itself (idle and extra processors only shrink as jobs start, the
  // shadow time stays), on nodes may_fit_now(job). Filters backfill candidates before
  // they are ordered.
  bool may_ever_fit_now(const Job& job, Time end) {
    return on_nodes() ? may_fit_now_on_nodes(job) : fits_pool(job.procs, end);
  }
  // Where `job` can start now and run until `end` without delaying what is planned
  // (a reservation: on the pool, end <= shadow time or procs <= extra).
  std::optional<Placement> fits_now(const Job& job, Time end) {
    if (on_nodes()) return fits_now_on_nodes(job, end);
    if (!fits_pool(job.procs, end)) return std::nullopt;
    return Placement{};
  }
  // Whether `job` can start now on `placement` (what another plan's fits_now found; null
  // on the pool) and run until `end` without delaying what is planned here.
  bool fits_at(const Job& job, const Placement& placement, Time end) {
    return on_nodes() ? fits_at_on_nodes(placement, end) : fits_pool(job.procs, end);
  }
  // Whether running job `r` (not counted) can keep its share until `end`, the same way.
  bool holds_now(const RunningJob& r, Time end);
  // Takes what fits_now found, until `end`.
  void start(const Job& job, const Placement& placement, Time end) {
    if (on_nodes()) return start_on_nodes(placement, end);
    idle_ -= job.procs;
    if (!reserved_) {
      busy_.push_back({end, job.procs});
    } else if (end > shadow_) {
      extra_ -= job.procs;  // it will still hold them at the shadow time
    }
  }
  // Keeps a running job (not counted) on its share until `end`.
  void keep(const RunningJob& r, Time end);
  // The earliest start of `job` for its prediction on the plan (ignoring idleness, as
  // AvailabilityProfile::earliest_start). Not before `not_before`: on the pool the start
  // is moved there; on nodes, if it is earlier, `own` (the nodes the job runs on now,
  // required then) is taken from `not_before`.
  Slot head_start(const Job& job, Time not_before = 0, const Placement& own = nullptr);
  // Plans `slot` busy for `job`'s prediction: later fits_now calls respect it.
  void reserve(const Job& job, const Slot& slot);
  // Processors (CPUs on the slot's nodes) free at `slot`'s start beyond `job`'s need,
  // before reserve(): EASY's extra processors.
  int extra_at(const Job& job, const Slot& slot);

  // Appends a start to `decision` (with its nodes on a Machine).
  static void record(Decision& decision, const Job& job, const Placement& placement,
                     bool backfilled);

 private:
  // The pool's test (inline: the hot path of every SWF replay): idle processors now, and
  // a reservation is not delayed (end by the shadow time or fit the extra processors).
  bool fits_pool(int procs, Time end) const {
    return procs <= idle_ && (!reserved_ || end <= shadow_ || procs <= extra_);
  }
  bool ever_fits_on_nodes(const Job& job);
  bool full_on_nodes();
  bool may_fit_now_on_nodes(const Job& job);
  std::optional<Placement> fits_now_on_nodes(const Job& job, Time end);
  bool fits_at_on_nodes(const Placement& placement, Time end);
  void start_on_nodes(const Placement& placement, Time end);
  const JobRequest& request_of(const Job& job);
  void build();  // the node plan from what was counted, once

  const ClusterState* state_ = nullptr;
  // Pool.
  std::optional<RunningEnd> pending_;  // begin(state, end): running jobs not yet in busy_
  void add_pending();
  int idle_ = 0;
  std::vector<AvailabilityProfile::Busy> busy_;  // ends counted and started (any order)
  // begin(state, predicted) on a state that keeps its running jobs' predicted ends sorted
  // (ClusterState::has_predicted_ends): those ends are not copied into busy_ but read
  // from there, once add_pending() has counted them (`sorted_counted_`).
  const std::vector<ClusterState::PredictedEnd>* sorted_ = nullptr;
  bool sorted_counted_ = false;
  Time pool_earliest_start(int procs);
  int pool_free_at(Time t) const;
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
