// Conservative backfilling: every waiting job, in priority order, gets the earliest
// reservation that delays no earlier one; a job whose reservation is "now" (and whose
// processors are really idle) starts. Planning is on predictions, like EASY's.
//
// Cost per pass: O(Q * (R + Q)) (each job scans and extends the profile), so unlike EASY
// it grows with the queue length. On a Machine, every reservation is on specific nodes.
#ifndef EASYPP_CORE_CONSERVATIVE_H
#define EASYPP_CORE_CONSERVATIVE_H

#include <string>

#include "core/node_plan.h"
#include "core/policy.h"
#include "core/profile.h"

namespace easypp {

class ConservativePolicy final : public Policy {
 public:
  ConservativePolicy(std::string name, PolicyTraits traits)
      : name_(std::move(name)), traits_(std::move(traits)) {
    traits_.honours_reservable = true;
  }
  std::string_view name() const override { return name_; }
  const PolicyTraits& traits() const override { return traits_; }
  Decision plan(const ClusterState& state) override;

 private:
  // The same on a Machine's nodes: each job's reservation on specific nodes.
  Decision plan_on_nodes(const ClusterState& state);
  NodePlan node_plan_;
  std::string name_;
  PolicyTraits traits_;
  AvailabilityProfile profile_;
};

}  // namespace easypp

#endif
