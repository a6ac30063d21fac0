// Bootstrapping prediction history from slurmdbd: the jobs that ended in the last days,
// asked through slurmctld's own accounting connection. Call without slurmctld's locks
// (it waits for slurmdbd's answer).
#ifndef EASYPP_PLUGIN_SLURM_ACCOUNTING_H
#define EASYPP_PLUGIN_SLURM_ACCOUNTING_H

#include <cstdint>
#include <string>
#include <vector>

#include "plugin/snapshot.h"

namespace easypp::plugin {

// Jobs of `cluster` that ran and ended in [now - days, now], oldest end first (the order
// history predictors must learn them in). False with a message if slurmdbd gave nothing.
bool read_accounting_history(const std::string& cluster, std::uint32_t uid, int days, Time now,
                             std::vector<FinishedJob>& out, std::string& error);

}  // namespace easypp::plugin

#endif
