// Timed-run scheduling (paper 004 section 2): every job first gets a short trial run, then
// is committed by a base scheduler (FCFS or EASY) and runs to completion.
//
//  - Trial list: jobs that never ran, in arrival order; each pass starts every one that
//    fits, not forced to be in order, before the base scheduler may start anything.
//  - No commit during a trial: the base scheduler treats a job on trial as one that cannot
//    fit now (FCFS stops at it; EASY gives it the reservation if it is the first blocked).
//  - Lazy termination: a job past its trial keeps running, but the plan treats its
//    processors as free and it as waiting again. If the base scheduler picks it, it just
//    continues (committed, no restart); if another start needs its processors, it is
//    killed and requeued, the one whose trial ended first going first.
//  - A job the driver may not requeue (Job::requeueable false) gets no trial: it waits
//    for the base scheduler like a job past its trial, and is never killed.
//  - Commits follow the base scheduler's order; with EASY as base, trial runs may violate
//    the reservation (only the base scheduler's own starts respect it).
//
// The policy remembers which running jobs are on trial and which are committed; it asks
// the driver (Decision.wake_at) to plan again when the earliest running trial ends.
//
// On a Machine's nodes (EasyPlan) the same steps ask the node plan: a terminable job's
// share counts as free; a trial or a commit takes a request's nodes where it fits now; a
// terminable job continues only where it runs, if its share is still free; a job on trial
// that heads the base queue is reserved on its own nodes from its trial's end. Lazy
// termination kills, first trial ended first, only terminable jobs holding some node (or
// licence) the starts overbook, until none is overbooked.
#ifndef EASYPP_CORE_TIMED_RUN_H
#define EASYPP_CORE_TIMED_RUN_H

#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/easy_plan.h"
#include "core/policy.h"
#include "core/policy_params.h"

namespace easypp {

enum class BaseScheduler { fcfs, easy };

class TimedRunPolicy final : public Policy {
 public:
  // trial_length 0: no trial runs (the base scheduler alone). Throws std::invalid_argument
  // for a negative trial length.
  TimedRunPolicy(std::string name, PolicyTraits traits, BaseScheduler base, Time trial_length);
  std::string_view name() const override { return name_; }
  const PolicyTraits& traits() const override { return traits_; }
  Decision plan(const ClusterState& state) override;
  BaseScheduler base() const { return base_; }
  Time trial_length() const { return trial_length_; }

 private:
  // An entry of the base scheduler's queue.
  enum class Kind { waiting, terminable, on_trial };
  struct Entry {
    Job job;
    Kind kind;
    Time trial_end;  // on_trial: when its trial ends; terminable: when it ended
    std::size_t running_index;  // terminable, on_trial (running ones): index into running
    bool committed;             // the base scheduler started (or continued) it this pass
    EasyPlan::Placement placement;  // nodes it runs on (on a Machine; null otherwise)
  };
  // Lazy termination on nodes: kills terminable jobs until no node (or licence) is
  // overbooked by this pass's starts.
  void kill_overbooking(const ClusterState& state, Decision& d) const;

  std::string name_;
  PolicyTraits traits_;
  BaseScheduler base_;
  Time trial_length_;
  // Running jobs this policy started for a trial; a waiting job had its trial iff
  // Job.restarts > 0 (a trial is the only run that is ever killed).
  // Committed ones leave it.
  std::unordered_set<JobId> trial_started_;
  Time last_now_ = 0;
  // Scratch.
  std::vector<Entry> queue_;
  EasyPlan plan_;
};

// "timed-run" with its keys base=fcfs|easy (default easy) and trial=SECONDS (default 90),
// on `traits` (user estimates unless a predictor replaced them), named by its spec with
// the keys given (timed-run:trial=30). Throws
// std::invalid_argument naming a bad base= or trial=.
std::unique_ptr<Policy> make_timed_run(PolicyTraits traits, PolicyParams& params);

}  // namespace easypp

#endif
