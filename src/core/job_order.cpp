#include "core/job_order.h"

#include <algorithm>

namespace easypp {

void ShortestFirst::arrange(const ClusterState& state,
                            std::span<std::uint32_t> positions) const {
  const std::vector<Job>& w = state.waiting;
  std::sort(positions.begin(), positions.end(), [&w](std::uint32_t a, std::uint32_t b) {
    const Time pa = w[a].prediction;
    const Time pb = w[b].prediction;
    return pa != pb ? pa < pb : a < b;
  });
}

void AgedShortestFirst::arrange(const ClusterState& state,
                                std::span<std::uint32_t> positions) const {
  const std::vector<Job>& w = state.waiting;
  const Time now = state.now;
  const Time age = age_;
  const auto young = std::stable_partition(
      positions.begin(), positions.end(),
      [&w, now, age](std::uint32_t p) { return now - w[p].submit >= age; });
  ShortestFirst{}.arrange(state, std::span<std::uint32_t>(young, positions.end()));
}

}  // namespace easypp
