// The order in which a policy considers waiting jobs: for starting and for the
// reservation (FCFS in EASY, shortest first in SJF) and, separately, for backfilling
// (FCFS in EASY, shortest-job-backfilled-first in EASY++). A strategy object so later
// orders (paper 003's LXF&W) are one more class, not a fork of the policies.
#ifndef EASYPP_CORE_JOB_ORDER_H
#define EASYPP_CORE_JOB_ORDER_H

#include <cstdint>
#include <span>
#include <string_view>

#include "core/job.h"

namespace easypp {

class JobOrder {
 public:
  virtual ~JobOrder() = default;
  virtual std::string_view name() const = 0;
  // Rearranges `positions` (indices into state.waiting, ascending on entry) into the
  // order to consider them. Must be deterministic: ties are broken by queue position.
  virtual void arrange(const ClusterState& state, std::span<std::uint32_t> positions) const = 0;
};

// The driver's priority order, unchanged (FCFS in the simulator, Slurm priority live).
class QueueOrder final : public JobOrder {
 public:
  std::string_view name() const override { return "queue"; }
  void arrange(const ClusterState&, std::span<std::uint32_t>) const override {}
};

// Shortest prediction first (SJF, SJBF); equal predictions keep queue order. For the
// estimate-based policies predictions are the estimates, so this is SJF on estimates.
class ShortestFirst final : public JobOrder {
 public:
  std::string_view name() const override { return "shortest"; }
  void arrange(const ClusterState& state, std::span<std::uint32_t> positions) const override;
};

// Shortest prediction first, except that jobs waiting for `age` seconds or more come
// first, in queue order (issue 15's aging): shortest-first alone keeps passing over an
// old long job that is not yet the head, which EASY's queue-order backfill would start.
class AgedShortestFirst final : public JobOrder {
 public:
  explicit AgedShortestFirst(Time age) : age_(age) {}
  std::string_view name() const override { return "aged-shortest"; }
  void arrange(const ClusterState& state, std::span<std::uint32_t> positions) const override;

 private:
  Time age_;
};

}  // namespace easypp

#endif
