#include "core/start_forecast.h"

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
    profile_.reserve(start, job.prediction, job.procs);
    out.push_back({job.id, start});
  }
  return out;
}

}  // namespace easypp
