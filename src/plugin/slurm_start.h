// Starting a job the policy chose, the way Slurm's schedulers do: select_nodes (which
// enforces limits, QOS, reservations, features, licenses and picks the nodes), then
// launch_job for batch jobs or srun_allocate for waiting salloc/srun allocations.
// Caller holds slurmctld's locks {READ conf, WRITE job, WRITE node, READ part, READ fed}.
#ifndef EASYPP_PLUGIN_SLURM_START_H
#define EASYPP_PLUGIN_SLURM_START_H

#include <cstdint>

#include "plugin/slurm_api.h"

namespace easypp::plugin {

// SLURM_SUCCESS or Slurm's error code (e.g. ESLURM_NODES_BUSY when node-level
// fragmentation defeats a CPU-count plan); the job then stays pending.
int start_job(job_record_t* job, part_record_t* partition, std::uint32_t priority,
              bool backfilled);

}  // namespace easypp::plugin

#endif
