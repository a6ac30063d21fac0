// Conservative backfilling: every waiting job, in priority order, gets the earliest
// reservation that delays no earlier one; a job whose reservation is "now" (and whose
// processors are really idle) starts. Planning is on predictions, like EASY's.
//
// Cost per pass: O(Q * (R + Q)) (each job scans and extends the profile), so unlike EASY
// it grows with the queue length.
#ifndef EASYPP_CORE_CONSERVATIVE_H
#define EASYPP_CORE_CONSERVATIVE_H

#include <string>

#include "core/policy.h"
#include "core/profile.h"

namespace easypp {

class ConservativePolicy final : public Policy {
 public:
  ConservativePolicy(std::string name, PolicyTraits traits)
      : name_(std::move(name)), traits_(std::move(traits)) {}
  std::string_view name() const override { return name_; }
  const PolicyTraits& traits() const override { return traits_; }
  Decision plan(const ClusterState& state) override;

 private:
  std::string name_;
  PolicyTraits traits_;
  AvailabilityProfile profile_;
};

}  // namespace easypp

#endif
