#include "core/lxfw_order.h"

#include <algorithm>
#include <vector>

namespace easypp {

double LargestExpansionWaitFirst::priority(const Job& job, Time now) const {
  const double wait = static_cast<double>(std::max<Time>(0, now - job.submit));
  const double runtime = static_cast<double>(std::max<Time>(1, job.prediction));
  return (wait + runtime) / runtime + weight_ * wait / 3600.0;
}

void LargestExpansionWaitFirst::arrange(const ClusterState& state, std::span<std::uint32_t> positions) const {
  // Priorities computed once per job, then sorted; equal priorities keep queue order.
  std::vector<std::pair<double, std::uint32_t>> keyed;
  keyed.reserve(positions.size());
  for (std::uint32_t p : positions) keyed.emplace_back(priority(state.waiting[p], state.now), p);
  std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  for (std::size_t i = 0; i < keyed.size(); ++i) positions[i] = keyed[i].second;
}

}  // namespace easypp
