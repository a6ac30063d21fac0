// Turning SWF records into simulated jobs: which field gives the size, the estimate and
// the runtime, and which records cannot be simulated (counted, never silently lost).
#ifndef EASYPP_SIM_WORKLOAD_H
#define EASYPP_SIM_WORKLOAD_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/job.h"
#include "core/machine.h"
#include "sim/swf.h"

namespace easypp::sim {

// Requested procs is what the user asked the scheduler for, so it is what a scheduler
// sees at submit time; allocated procs is only known afterwards (and is what the
// archive's cleaned logs fill in when the request was not recorded).
enum class SizeFrom { requested, allocated };

// The largest machine the simulator takes, in processors, however it is given (--procs,
// --machine, the header's MaxProcs): per-processor state beyond it exhausts memory.
inline constexpr int kMaxMachineProcs = 100'000'000;

struct WorkloadOptions {
  SizeFrom size_from = SizeFrom::requested;
  int procs = 0;               // machine size; 0: the header's MaxProcs
  double load_factor = 1.0;    // multiplies submit offsets from the first submit (paper 3.4)
  double estimate_factor = 1.0;  // multiplies user estimates (kill times too)
  // Replay on these nodes (machine_spec.h); null: one pool of `procs` processors, as the
  // papers do. A job of P processors then asks for P tasks of one CPU on any nodes.
  std::shared_ptr<const Machine> machine;
  // With a machine: every job takes whole nodes (exclusive), as on sites that never
  // share a node between jobs; otherwise its tasks share nodes with other jobs.
  bool whole_nodes = false;
};

struct SimJob {
  Job job;                    // id = 1-based index in the workload; prediction unset
  Time runtime = 0;           // recorded runtime, seconds (>= 0)
  int end_state = 0;          // epp_end_state derived from the SWF status
  std::int64_t swf_job = -1;  // the SWF job number, for reports
  std::int64_t application = -1;  // SWF executable number (-1 unknown): paper 003's categories
  bool estimate_from_runtime = false;  // the trace gave no estimate (-1 or 0): runtime stood in
};

struct Workload {
  std::string trace;  // file name without directories
  int procs = 0;
  std::shared_ptr<const Machine> machine;  // null: one pool of `procs` processors
  std::vector<SimJob> jobs;  // in submit order (FCFS)
  // Records left out, by reason.
  int dropped_too_wide = 0;       // more processors than the machine
  int dropped_unknown_size = 0;   // neither requested nor allocated procs known (> 0)
  int dropped_unknown_submit = 0;
  int dropped_unknown_runtime = 0;
  // Fallbacks taken.
  int size_from_other_field = 0;      // the --size-from field was -1; the other one used
  int estimate_from_runtime = 0;      // requested time -1: the runtime stands in
};

// Throws std::invalid_argument when the machine size is unknown (no MaxProcs, no --procs)
// or above kMaxMachineProcs, or an option is out of range.
Workload prepare(const swf::Trace& trace, const WorkloadOptions& options);

}  // namespace easypp::sim

#endif
