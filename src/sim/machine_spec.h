// The simulator's machine description: SWF traces name only a processor count, so a
// researcher says what nodes to replay them on. One node group per line of a file, or
// groups separated by ';' inline:
//   nodes=128,cpus=32,mem=256G,gpu=4          128 nodes of 32 CPUs, 256 GiB, 4 GPUs each
//   nodes=100,cpus=32;nodes=4,cpus=64,gpu:a100=8
// Keys: nodes (count, >= 1), cpus (>= 1), mem (MB, or with K/M/G/T), and any other
// key as a generic resource count (gpu, gpu:a100, ...). Nodes are named n0, n1, ...
#ifndef EASYPP_SIM_MACHINE_SPEC_H
#define EASYPP_SIM_MACHINE_SPEC_H

#include <string>
#include <string_view>

#include "core/machine.h"

namespace easypp::sim {

// Parses an inline description (contains '='), or else reads the file it names.
// Throws std::invalid_argument naming the place (file:line) and the bad key=value.
Machine parse_machine(const std::string& spec_or_file);
// Parses the text of a description; `where` names it in errors (a file; lines are
// numbered when groups are lines), or is empty.
Machine parse_machine_text(std::string_view text, const std::string& where, char group_sep);

}  // namespace easypp::sim

#endif
