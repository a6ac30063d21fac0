// Bootstrapping prediction history from slurmdbd: the jobs that ended in a window, asked
// through slurmctld's own accounting connection. Call without slurmctld's locks (it waits
// for slurmdbd's answer; BootstrapWorker calls it on its own thread, a day at a time).
#ifndef EASYPP_PLUGIN_SLURM_ACCOUNTING_H
#define EASYPP_PLUGIN_SLURM_ACCOUNTING_H

#include <cstdint>
#include <string>
#include <vector>

#include "plugin/snapshot.h"

namespace easypp::plugin {

// Jobs of `cluster` that ran and ended in [from, to] (inclusive epoch seconds), in
// slurmdbd's order. False with a message if slurmdbd gave nothing.
bool read_accounting_history(const std::string& cluster, std::uint32_t uid, Time from, Time to,
                             std::vector<FinishedJob>& out, std::string& error);

}  // namespace easypp::plugin

#endif
