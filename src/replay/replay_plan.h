// What a replay submits: each trace job turned into a Slurm job on a compressed clock.
// Pure functions (no Slurm), so scaling, rounding and user mapping are unit-tested.
//
// Compression by F: submit offsets, runtimes and estimates are divided by F. Slurm time
// limits are whole minutes, so the limit is the scaled estimate rounded UP to a minute
// (at least 1): a job's limit in trace time is therefore a multiple of 60*F seconds, up
// to 60*F seconds longer than the trace's estimate. The payload sleeps for the scaled
// runtime, capped at the scaled estimate, so no job is killed by construction. The
// simulator is run on the same effective jobs (effective_workload), so both sides see
// the limits Slurm saw.
#ifndef EASYPP_REPLAY_REPLAY_PLAN_H
#define EASYPP_REPLAY_REPLAY_PLAN_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/job.h"
#include "sim/workload.h"

namespace easypp::replay {

// Slurm time limit in minutes for a trace estimate (seconds) under speedup F: ceil of
// estimate / F / 60, at least 1.
std::int64_t limit_minutes(Time estimate, double speedup);

// Payload duration in real seconds (millisecond precision): min(runtime, estimate) / F.
double payload_seconds(Time runtime, Time estimate, double speedup);

// Trace users to local accounts PREFIX001, PREFIX002... in order of first appearance
// (three digits, more when there are over 999 users).
class UserMap {
 public:
  explicit UserMap(std::string prefix = "eppu") : prefix_(std::move(prefix)) {}
  const std::string& account(UserId trace_user);
  const std::map<UserId, std::string>& accounts() const { return accounts_; }

 private:
  std::string prefix_;
  std::map<UserId, std::string> accounts_;
};

struct PlannedJob {
  std::int64_t swf_job = -1;  // trace job number
  UserId user = 0;            // trace user
  std::string account;        // local account it is submitted as
  Time submit = 0;            // trace submit time (seconds)
  double submit_offset = 0;   // real seconds after the replay's start
  int procs = 1;              // capped at the cluster's CPUs
  bool procs_capped = false;
  Time estimate = 0;          // trace estimate (seconds)
  Time runtime = 0;           // trace runtime (seconds)
  std::int64_t limit_min = 1; // Slurm time limit (minutes)
  double payload = 0;         // sleep, real seconds
};

struct ReplayPlan {
  double speedup = 1;
  int cluster_cpus = 0;
  Time trace_start = 0;  // submit time of the first job (trace seconds)
  std::vector<PlannedJob> jobs;  // in submit order
  int procs_capped = 0;          // jobs asking for more CPUs than the cluster has
  int runtime_capped = 0;        // jobs whose trace runtime exceeded their estimate
};

// Throws std::invalid_argument (speedup=..., cpus=...) for values out of range.
ReplayPlan make_plan(const sim::Workload& workload, double speedup, int cluster_cpus,
                     UserMap& users);

// The jobs as Slurm sees them, back in trace time: submit as in the trace, procs capped,
// estimate = limit * 60 * F, runtime = payload * F. Both the simulator rows and the
// effective SWF written for easypp-sim use this.
sim::Workload effective_workload(const ReplayPlan& plan, const std::string& trace_name);

// The effective workload as an SWF file (easypp-sim --trace FILE --procs CPUS gives the
// simulator's view of the same slice). Acknowledge lines of the source are kept.
void write_swf(const sim::Workload& workload, const std::vector<std::string>& acknowledge,
               const std::string& path);

}  // namespace easypp::replay

#endif
