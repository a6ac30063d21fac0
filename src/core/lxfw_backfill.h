// LXF&W(w)-backfilling (paper 003, section 6): EASY whose reservation goes to the first
// job in queue order, and whose backfill candidates are tried largest expansion factor
// plus weighted wait first (LargestExpansionWaitFirst) instead of queue order (EASY) or
// shortest first (SJBF). Registered as lxf-w (user estimates) and lxf-w+ (predictions
// with correction, so paper 003's error models plug in with --predictor).
#ifndef EASYPP_CORE_LXFW_BACKFILL_H
#define EASYPP_CORE_LXFW_BACKFILL_H

#include <string>

#include "core/easy_pass.h"
#include "core/job_order.h"
#include "core/lxfw_order.h"
#include "core/policy.h"

namespace easypp {

class LxfwBackfillPolicy final : public Policy {
 public:
  LxfwBackfillPolicy(std::string name, PolicyTraits traits,
                     double weight_per_hour = LargestExpansionWaitFirst::kDefaultWeight);
  std::string_view name() const override { return name_; }
  const PolicyTraits& traits() const override { return traits_; }
  Decision plan(const ClusterState& state) override;

 private:
  std::string name_;
  PolicyTraits traits_;
  QueueOrder queue_order_;
  LargestExpansionWaitFirst lxfw_order_;
  EasyRules rules_;
  EasyPass pass_;
};

}  // namespace easypp

#endif
