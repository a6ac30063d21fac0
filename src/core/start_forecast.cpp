#include "core/start_forecast.h"

#include <memory>
#include <unordered_map>

namespace easypp {

std::vector<Reservation> StartForecast::forecast(const ClusterState& state,
                                                 const Decision& decision, std::size_t limit) {
  std::vector<Reservation> out;
  if (limit == 0 || state.waiting.empty()) return out;
  // The pass's own plan, by job: started now, or reserved (the policy's plan, which double
  // booking reports differently to users). Small: one entry per start or reservation.
  std::unordered_map<JobId, Time> planned;
  for (JobId id : decision.start) planned.emplace(id, state.now);
  for (const Reservation& r : decision.planned_reservations.empty() ? decision.reservations
                                                                    : decision.planned_reservations) {
    planned.emplace(r.job, r.start);
  }
  if (state.machine != nullptr) return forecast_on_nodes(state, decision, planned, limit);
  profile_.reset(state, RunningEnd::predicted);
  for (const Job& job : state.waiting) {
    const auto it = planned.find(job.id);
    if (it != planned.end()) profile_.reserve(it->second, job.prediction, job.procs);
  }
  // Jobs shown with a reservation already get that time.
  for (const Reservation& r : decision.reservations) planned.emplace(r.job, r.start);

  for (const Job& job : state.waiting) {
    if (out.size() >= limit) break;
    if (planned.count(job.id) != 0 || job.procs < 1) continue;
    const Time start = profile_.earliest_start(job.procs, job.prediction);
    if (start == kNever) continue;
    if (job.reservable) profile_.reserve(start, job.prediction, job.procs);
    out.push_back({job.id, start});
  }
  return out;
}

std::vector<Reservation> StartForecast::forecast_on_nodes(
    const ClusterState& state, const Decision& decision,
    std::unordered_map<JobId, Time>& planned, std::size_t limit) {
  std::vector<Reservation> out;
  std::unordered_map<JobId, const Allocation*> where;
  for (std::size_t i = 0; i < decision.start.size() && i < decision.start_allocations.size(); ++i)
    where.emplace(decision.start[i], decision.start_allocations[i].get());
  for (const Reservation& r : decision.planned_reservations.empty()
                                  ? decision.reservations
                                  : decision.planned_reservations) {
    if (r.allocation) where.emplace(r.job, r.allocation.get());
  }
  plan_.reset(state, RunningEnd::predicted);
  for (const Job& job : state.waiting) {
    const auto it = planned.find(job.id);
    const auto at = where.find(job.id);
    if (it == planned.end() || at == where.end() || at->second == nullptr) continue;
    if (it->second == state.now) {
      plan_.start_now(*at->second, job.prediction);
    } else {
      plan_.reserve(*at->second, it->second, job.prediction);
    }
  }
  for (const Reservation& r : decision.reservations) planned.emplace(r.job, r.start);
  for (const Job& job : state.waiting) {
    if (out.size() >= limit) break;
    if (planned.count(job.id) != 0 || job.procs < 1) continue;
    const JobRequest request = job.request ? *job.request : JobRequest::cpus(job.procs);
    NodePlan::Slot slot = plan_.earliest_start(request, job.prediction, job.estimate);
    if (slot.start == kNever) continue;
    if (job.reservable) plan_.reserve(slot.allocation, slot.start, job.prediction);
    out.push_back({job.id, slot.start,
                   std::make_shared<const Allocation>(std::move(slot.allocation))});
  }
  return out;
}

}  // namespace easypp
