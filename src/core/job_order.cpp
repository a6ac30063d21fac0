#include "core/job_order.h"

#include <algorithm>

namespace easypp {

void ShortestFirst::arrange(const ClusterState& state,
                            std::span<std::uint32_t> positions) const {
  const std::vector<Job>& w = state.waiting;
  // (prediction, position) packed in one integer when the prediction fits 32 bits (136
  // years of seconds): positions differ, so the integers sort in exactly the order of
  // the comparison below, without reading the jobs again at every comparison.
  thread_local std::vector<std::uint64_t> keys;
  keys.clear();
  bool packed = true;
  for (std::uint32_t p : positions) {
    const Time t = w[p].prediction;
    if (t < 0 || t > Time{0xffffffff}) {
      packed = false;
      break;
    }
    keys.push_back(static_cast<std::uint64_t>(t) << 32 | p);
  }
  if (packed) {
    std::sort(keys.begin(), keys.end());
    for (std::size_t i = 0; i < keys.size(); ++i) {
      positions[i] = static_cast<std::uint32_t>(keys[i]);
    }
    return;
  }
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
