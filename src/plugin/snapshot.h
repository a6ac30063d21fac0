// What the plugin reads out of slurmctld for one pass, in plain numbers. The Slurm glue
// (slurm_snapshot.cpp) fills these under slurmctld's locks; everything after works on
// them without Slurm, so the translation into the core's model is unit-tested.
#ifndef EASYPP_PLUGIN_SNAPSHOT_H
#define EASYPP_PLUGIN_SNAPSHOT_H

#include <string>
#include <vector>

#include "core/job.h"

namespace easypp::plugin {

struct JobRecord {
  JobId id = 0;
  UserId user = 0;
  Time submit = 0;
  std::int64_t priority = 0;  // Slurm's job priority (larger first)
  Time start = 0;  // running jobs only
  // The user's time limit in seconds: the kill time is start + limit. Never changed.
  Time limit = 0;
  // CPUs the job holds (running) or needs (waiting) on this partition's usable nodes.
  int procs = 1;
};

// One partition as a scheduling domain.
struct PartitionSnapshot {
  std::string name;
  Time now = 0;
  int procs = 0;  // CPUs of the partition's usable nodes, free or not
  std::vector<JobRecord> running;  // jobs holding CPUs there (any partition's jobs)
  std::vector<JobRecord> waiting;  // eligible jobs, Slurm priority order (highest first)
};

// How a job that left the system ended: the predictor's epp_end_state values.
struct FinishedJob {
  JobRecord job;
  Time end = 0;
  int end_state = 0;
};

}  // namespace easypp::plugin

#endif
