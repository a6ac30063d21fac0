// The nodes a pass's plan uses, and whether they are still the nodes it read. The plan
// names nodes by their index in slurmctld's node table, and is made without the locks.
// With dynamic nodes (scontrol create/delete node) that index may meanwhile have lost its
// node (delete_node_record empties the slot) or have been given another one
// (add_node_record takes the first empty slot): starting or showing the plan then would
// put jobs on the wrong node. Caller holds slurmctld's node read lock (the node table).
#ifndef EASYPP_PLUGIN_SLURM_PLANNED_NODES_H
#define EASYPP_PLUGIN_SLURM_PLANNED_NODES_H

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/decision.h"
#include "plugin/planner.h"
#include "plugin/slurm_snapshot.h"

namespace easypp::plugin {

// Every node index the plan uses, once each, in increasing order: its starts, its
// reservations (shown and, under double booking, planned with) and the start forecasts'.
// Needs no lock.
std::vector<std::uint32_t> plan_node_indices(const ClusterPlan& plan,
                                             const std::vector<std::vector<Reservation>>& forecasts);

// Each of `indices` with the name of the node the snapshot read there (empty: a hole in
// the node table, or past its end). Needs no lock.
using NodesAsRead = std::vector<std::pair<std::uint32_t, std::string>>;
NodesAsRead nodes_as_read(const ClusterSnapshot& snap, const std::vector<std::uint32_t>& indices);

// The name (as read; "at index N" for a hole) of the first node of `read` that is no longer at its index in the
// node table: deleted (the slot is empty, or past the table's end) or replaced (another
// node's name there); none when every one is where it was read. By name: a node deleted
// and created again under the same name is the same node to Slurm's users.
std::optional<std::string> moved_node(const NodesAsRead& read);

// `yield`, and after a yield that gave the locks back, abandon if a node of `read` moved
// meanwhile (then `*moved` receives its name): so carrying out a plan stops at the first
// start after a node it uses was deleted or replaced. `read` must outlive the yield point.
YieldPoint abandon_if_moved(YieldPoint yield, const NodesAsRead& read, std::optional<std::string>* moved);

}  // namespace easypp::plugin

#endif
