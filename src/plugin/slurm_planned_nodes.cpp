#include "plugin/slurm_planned_nodes.h"

#include <algorithm>

#include "core/job_request.h"

namespace easypp::plugin {

namespace {

void add_shares(std::vector<std::uint32_t>& out, const Allocation* a) {
  if (!a) return;
  for (const NodeShare& s : a->shares) out.push_back(static_cast<std::uint32_t>(s.node));
}

}  // namespace

std::vector<std::uint32_t> plan_node_indices(const ClusterPlan& plan,
                                             const std::vector<std::vector<Reservation>>& forecasts) {
  std::vector<std::uint32_t> out;
  for (const GroupPlan& group : plan.groups) {
    for (const auto& a : group.decision.start_allocations) add_shares(out, a.get());
    for (const auto* list : {&group.decision.reservations, &group.decision.planned_reservations})
      for (const Reservation& r : *list) add_shares(out, r.allocation.get());
  }
  for (const std::vector<Reservation>& group : forecasts)
    for (const Reservation& r : group) add_shares(out, r.allocation.get());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

NodesAsRead nodes_as_read(const ClusterSnapshot& snap, const std::vector<std::uint32_t>& indices) {
  NodesAsRead out;
  out.reserve(indices.size());
  for (std::uint32_t i : indices)
    out.emplace_back(i, i < snap.nodes.size() ? snap.nodes[i].name : std::string());
  return out;
}

std::optional<std::string> moved_node(const NodesAsRead& read) {
  for (const auto& [index, name] : read) {
    const node_record_t* now =
        static_cast<int>(index) < node_record_count && node_record_table_ptr
            ? node_record_table_ptr[index]
            : nullptr;
    const char* now_name = now && now->name ? now->name : "";
    if (name != now_name) return name.empty() ? "at index " + std::to_string(index) : name;
  }
  return std::nullopt;
}

YieldPoint abandon_if_moved(YieldPoint yield, const NodesAsRead& read,
                            std::optional<std::string>* moved) {
  return [yield = std::move(yield), &read, moved] {
    const Yield y = yield ? yield() : Yield::none;
    if (y != Yield::yielded) return y;
    if (std::optional<std::string> name = moved_node(read)) {
      if (moved) *moved = std::move(name);
      return Yield::abandon;
    }
    return y;
  };
}

}  // namespace easypp::plugin
