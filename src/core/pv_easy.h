// PV-EASY, preemptive venture EASY backfilling (paper 002 section 4). Priority is the
// driver's queue order (FCFS by submit time in the simulator). Each pass:
//
//  1. Regular starts: waiting jobs in priority order while they fit the idle processors.
//  2. Shadow load preemption (SLP): running jobs of lower priority than the first blocked
//     job (the head) are its shadow load. If idle processors plus the shadow load suffice
//     for the head, shadow jobs are killed and requeued, lowest priority first, until the
//     head fits, and the head starts. A pass that kills stops there: the killed jobs are
//     back in the queue (possibly above later heads), so the driver plans again at once.
//  3. Venture backfilling (VB): the head's reservation comes from the sunny load only
//     (running jobs of higher priority than the head, and jobs started this pass), on
//     predictions. Jobs that fit the idle processors and are predicted to finish by the
//     reservation start, nearest predicted completion first; then, while processors stay
//     idle, the remaining jobs that fit start in priority order, whatever their
//     predictions say.
//
// Only a job the driver may requeue (Job::requeueable) is ever killed: the others are
// left out of the shadow load SLP kills from (they still hold their processors).
// Every running job of lower priority than a waiting one can be killed, so no job is ever
// delayed by a lower-priority one (strict fairness) and no reservation is broken by a
// backfilled job's underprediction. Predictions: Last Model by default.
//
// On a Machine's nodes (EasyPlan) the same steps ask the node plan: a job fits where its
// request fits on idle resources; SLP kills the fewest lowest-priority shadow jobs that let
// the head be placed now, then spares any of them that holds none of the head's nodes
// (and no licence): killing it would free nothing the head uses. The reservation is the
// head's earliest start on the sunny load's node plan.
#ifndef EASYPP_CORE_PV_EASY_H
#define EASYPP_CORE_PV_EASY_H

#include <cstdint>
#include <string>
#include <vector>

#include "core/easy_plan.h"
#include "core/policy.h"

namespace easypp {

class PvEasyPolicy final : public Policy {
 public:
  PvEasyPolicy(std::string name, PolicyTraits traits);
  std::string_view name() const override { return name_; }
  const PolicyTraits& traits() const override { return traits_; }
  Decision plan(const ClusterState& state) override;

 private:
  std::string name_;
  PolicyTraits traits_;
  struct Started {
    std::uint32_t position;  // in waiting
    EasyPlan::Placement placement;
  };
  // A plan of the running jobs but the first `killed` of shadow_, with this pass's starts.
  EasyPlan& plan_without(const ClusterState& state, std::size_t killed);

  // Scratch, reused across passes.
  std::vector<std::uint32_t> shadow_;      // indices into running, lowest priority first
  std::vector<std::uint32_t> candidates_;  // positions in waiting
  std::vector<bool> started_;              // per waiting position
  std::vector<Started> starts_;            // this pass's starts, in order
  std::vector<bool> killed_;               // per running index
  EasyPlan plan_;
  EasyPlan trial_plan_;  // SLP: what killing some shadow jobs would leave
};

}  // namespace easypp

#endif
