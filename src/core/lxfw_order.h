// Largest expansion factor plus weighted wait first: the LXF&W(w) order of Chiang et al.,
// a backfill order in paper 003. A waiting job's priority is
//     (wait + prediction) / prediction  +  w x wait in hours,
// with wait = now - submit. The expansion factor alone favours short jobs that waited;
// the wait term keeps long jobs from starving. Chiang et al. recommend w = 0.02 per hour.
#ifndef EASYPP_CORE_LXFW_ORDER_H
#define EASYPP_CORE_LXFW_ORDER_H

#include "core/job_order.h"

namespace easypp {

class LargestExpansionWaitFirst final : public JobOrder {
 public:
  static constexpr double kDefaultWeight = 0.02;  // per hour of wait

  explicit LargestExpansionWaitFirst(double weight_per_hour = kDefaultWeight) : weight_(weight_per_hour) {}
  std::string_view name() const override { return "lxf-w"; }
  void arrange(const ClusterState& state, std::span<std::uint32_t> positions) const override;

  // The priority of `job` at `now` (larger goes first).
  double priority(const Job& job, Time now) const;

 private:
  double weight_;
};

}  // namespace easypp

#endif
