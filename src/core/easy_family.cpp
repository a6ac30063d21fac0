#include "core/easy_family.h"

#include <utility>

namespace easypp {

EasyFamilyPolicy::EasyFamilyPolicy(EasyFamilyConfig config) : config_(std::move(config)) {
  rules_.reservation_order = config_.shortest_reservation
                                 ? static_cast<const JobOrder*>(&shortest_first_)
                                 : static_cast<const JobOrder*>(&queue_order_);
  if (config_.backfill) {
    rules_.backfill_order = config_.shortest_backfill
                                ? static_cast<const JobOrder*>(&shortest_first_)
                                : static_cast<const JobOrder*>(&queue_order_);
    if (config_.shortest_backfill && config_.age) {
      aged_first_.emplace(*config_.age);
      rules_.backfill_order = &*aged_first_;
    }
    if (config_.shortest_backfill && config_.lxfw) {
      lxfw_first_.emplace(*config_.lxfw / 1000.0);
      rules_.backfill_order = &*lxfw_first_;
    }
  }
  rules_.fit = config_.fit;
  rules_.depth = config_.depth;
  if (config_.bound) {
    head_bound_.emplace(*config_.bound);
    rules_.bound = &*head_bound_;
  }
}

Decision EasyFamilyPolicy::plan(const ClusterState& state) {
  Decision decision;
  pass_.run(state, rules_, decision);
  if (config_.double_booking && pass_.head()) {
    const Job& head = state.waiting[pass_.head()->position];
    decision.planned_reservations = decision.reservations;
    decision.reservations[0].start = estimate_based_start(state, head, decision);
  }
  return decision;
}

Time EasyFamilyPolicy::estimate_based_start(const ClusterState& state, const Job& head,
                                            const Decision& d) {
  if (state.machine != nullptr) {
    // The same promise on nodes: running jobs to their kill times, this pass's starts on
    // their nodes until now + estimate.
    estimate_plan_.reset(state, RunningEnd::kill_time);
    const auto& starts = pass_.started();
    for (std::size_t i = 0; i < starts.size() && i < d.start_allocations.size(); ++i)
      estimate_plan_.start_now(*d.start_allocations[i], state.waiting[starts[i]].estimate);
    const JobRequest request = head.request ? *head.request : JobRequest::cpus(head.procs);
    return estimate_plan_.earliest_start(request, head.estimate, head.estimate).start;
  }
  busy_.clear();
  for (const RunningJob& r : state.running) busy_.push_back({r.kill_time(), r.job.procs});
  for (std::uint32_t p : pass_.started()) {
    busy_.push_back({state.now + state.waiting[p].estimate, state.waiting[p].procs});
  }
  estimate_profile_.reset(state.now, state.procs, busy_);
  return estimate_profile_.earliest_start(head.procs, head.estimate);
}

}  // namespace easypp
