// easypp-replay's command line; bad values are reported as "option=value: reason".
#ifndef EASYPP_REPLAY_CLI_H
#define EASYPP_REPLAY_CLI_H

#include <string>
#include <vector>

#include "cli/command_line.h"
#include "replay/slice.h"
#include "sim/workload.h"

namespace easypp::replay {

struct ReplayOptions {
  std::string trace;
  SliceOptions slice;
  double speedup = 0;          // required
  int cpus = 0;                // 0: the partition's CPUs (live) / required for --simulate
  std::string partition;
  std::string user_prefix = "eppu";
  bool create_users = false;
  bool as_self = false;
  std::string policy;          // for prediction accuracy; default from SchedulerType
  std::string simulate;        // run the simulator with this policy instead of Slurm
  std::string out;             // PREFIX: PREFIX.json and PREFIX.jobs.csv
  std::string write_slice;     // effective SWF of the slice
  std::string jobcomp;         // jobcomp file (fallback when sacct is unavailable)
  std::vector<std::string> sbatch_args;
  double timeout = 0;          // max seconds waiting after the last submit (0: automatic)
  double progress_every = 5;   // seconds between progress lines
  sim::SizeFrom size_from = sim::SizeFrom::requested;
  bool dry_run = false;
  bool help = false;
};

using UsageError = cli::UsageError;

ReplayOptions parse_cli(const std::vector<std::string>& args);  // args[0] skipped
const char* usage();

}  // namespace easypp::replay

#endif
