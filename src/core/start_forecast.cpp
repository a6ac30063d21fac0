#include "core/start_forecast.h"

#include <unordered_map>
#include <unordered_set>

namespace easypp {

std::vector<Reservation> StartForecast::forecast(const ClusterState& state,
                                                 const Decision& decision, std::size_t limit) {
  std::vector<Reservation> out;
  if (limit == 0 || state.waiting.empty()) return out;
  std::unordered_map<JobId, const Job*> waiting;
  for (const Job& job : state.waiting) waiting.emplace(job.id, &job);

  profile_.reset(state, RunningEnd::predicted);
  std::unordered_set<JobId> placed;
  for (JobId id : decision.start) {
    const auto it = waiting.find(id);
    if (it == waiting.end()) continue;
    profile_.reserve(state.now, it->second->prediction, it->second->procs);
    placed.insert(id);
  }
  // The plan the policy made (double booking reports another one to users).
  const std::vector<Reservation>& planned = decision.planned_reservations.empty()
                                                ? decision.reservations
                                                : decision.planned_reservations;
  for (const Reservation& r : planned) {
    const auto it = waiting.find(r.job);
    if (it == waiting.end() || !placed.insert(r.job).second) continue;
    profile_.reserve(r.start, it->second->prediction, it->second->procs);
  }
  for (const Reservation& r : decision.reservations) placed.insert(r.job);

  for (const Job& job : state.waiting) {
    if (out.size() >= limit) break;
    if (placed.count(job.id) != 0 || job.procs < 1) continue;
    const Time start = profile_.earliest_start(job.procs, job.prediction);
    if (start == kNever) continue;
    profile_.reserve(start, job.prediction, job.procs);
    out.push_back({job.id, start});
  }
  return out;
}

}  // namespace easypp
