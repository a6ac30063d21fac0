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
  // Every start on the pool needs its processors idle (EasyPlan::fits_now), and without a
  // bound the pass keeps no memory (traits().blocked_passes_idle).
  config_.traits.blocked_passes_idle = !config_.bound;
  // Without backfilling (fcfs) every blocked job blocks the queue, as Slurm's FIFO
  // scheduler does whatever its QOS says.
  config_.traits.honours_reservable = config_.backfill;
  config_.traits.never_backfills = !config_.backfill;
  rules_.fit = config_.fit;
  rules_.depth = config_.depth;
  rules_.lookahead = static_cast<std::size_t>(config_.lookahead);
  rules_.front = static_cast<std::size_t>(config_.front);
  rules_.relative_age = config_.relative_age;
  rules_.split = config_.split;
  rules_.split_kill = config_.split_kill;
  rules_.split_safe = config_.split_safe;
  rules_.split_window = static_cast<std::size_t>(config_.split_window);
  rules_.classes = config_.classes;
  if (config_.bound) {
    head_bound_.emplace(*config_.bound);
    rules_.bound = &*head_bound_;
  }
}

Decision EasyFamilyPolicy::plan(const ClusterState& state) {
  Decision decision;
  plan_into(state, decision);
  return decision;
}

void EasyFamilyPolicy::plan_into(const ClusterState& state, Decision& decision) {
  // A pass after arrivals and corrections only may continue the last one
  // (EasyPass::run_continued): the running jobs' predicted ends are corrected when
  // reached, and double booking needs the full pass's starts.
  if (state.since_last_pass.known && config_.traits.correct_predictions &&
      !config_.double_booking && pass_.run_continued(state, rules_, decision)) {
    return;
  }
  pass_.run(state, rules_, decision);
  if (config_.double_booking && pass_.head()) {
    const Job& head = state.waiting[pass_.head()->position];
    decision.planned_reservations = decision.reservations;
    decision.reservations[0].start = estimate_based_start(state, head, decision);
  }
}

Time EasyFamilyPolicy::estimate_based_start(const ClusterState& state, const Job& head,
                                            const Decision& d) {
  // Running jobs to their kill times, this pass's starts (on their nodes, on a Machine)
  // until now + estimate; the head for its estimate.
  estimate_plan_.begin(state, RunningEnd::kill_time);
  const auto& starts = pass_.started();
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const Job& job = state.waiting[starts[i]];
    const EasyPlan::Placement placement =
        i < d.start_allocations.size() ? d.start_allocations[i] : nullptr;
    if (state.machine != nullptr && !placement) continue;
    estimate_plan_.start(job, placement, state.now + job.estimate);
  }
  Job planned = head;
  planned.prediction = head.estimate;
  return estimate_plan_.head_start(planned).start;
}

}  // namespace easypp
