#include "sim/workload.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "core/job_request.h"

#include "easypp/predictor.h"

namespace easypp::sim {
namespace {

// SWF status 1 completed, 0 failed, 5 cancelled; unknown (-1) counts as completed since
// the cleaned logs mostly leave it unknown for normally ended jobs.
int end_state_of(int swf_status) {
  switch (swf_status) {
    case 0: return EPP_END_FAILED;
    case 5: return EPP_END_CANCELLED;
    default: return EPP_END_COMPLETED;
  }
}

std::string base_name(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

Workload prepare(const swf::Trace& trace, const WorkloadOptions& options) {
  if (!(options.load_factor > 0) || !std::isfinite(options.load_factor)) {
    throw std::invalid_argument("load factor must be > 0: load-factor=" +
                                std::to_string(options.load_factor));
  }
  if (!(options.estimate_factor > 0) || !std::isfinite(options.estimate_factor)) {
    throw std::invalid_argument("estimate factor must be > 0: estimate-factor=" +
                                std::to_string(options.estimate_factor));
  }
  Workload w;
  w.trace = base_name(trace.path);
  w.procs = options.procs > 0 ? options.procs : trace.header.max_procs;
  w.machine = options.machine;
  if (w.machine) {
    if (options.procs > 0) {
      throw std::invalid_argument("--procs and --machine both give the machine's size: use one");
    }
    const std::int64_t cpus = w.machine->total_cpus();
    if (cpus > kMaxMachineProcs) throw std::invalid_argument("--machine: more than 10^8 CPUs in all");
    w.procs = static_cast<int>(cpus);
  } else if (options.whole_nodes) {
    throw std::invalid_argument("--whole-nodes needs --machine (the nodes to take whole)");
  }
  if (options.procs <= 0 && !w.machine && w.procs > kMaxMachineProcs) {
    throw std::invalid_argument(trace.path + ": header MaxProcs: " + std::to_string(w.procs) +
                                ": more than 10^8 processors, the simulator's bound: use "
                                "--procs N (at most 100000000)");
  }
  if (w.procs <= 0) {
    throw std::invalid_argument(trace.path +
                                ": machine size unknown (no '; MaxProcs:' header with a size above 0): use --procs N");
  }
  w.jobs.reserve(trace.records.size());
  Time first_submit = -1;
  for (const swf::Record& r : trace.records) {
    if (r.submit < 0) {
      ++w.dropped_unknown_submit;
      continue;
    }
    if (r.runtime < 0) {
      ++w.dropped_unknown_runtime;
      continue;
    }
    int preferred = options.size_from == SizeFrom::requested ? r.requested_procs
                                                             : r.allocated_procs;
    int other = options.size_from == SizeFrom::requested ? r.allocated_procs
                                                         : r.requested_procs;
    int procs = preferred;
    if (procs <= 0) {
      procs = other;
      if (procs > 0) ++w.size_from_other_field;
    }
    if (procs <= 0) {
      ++w.dropped_unknown_size;
      continue;
    }
    if (procs > w.procs) {
      ++w.dropped_too_wide;
      continue;
    }
    if (first_submit < 0) first_submit = r.submit;  // records are sorted by submit

    SimJob s;
    s.swf_job = r.job_number;
    s.application = r.executable;
    s.runtime = r.runtime;
    s.end_state = end_state_of(r.status);
    Job& j = s.job;
    j.id = static_cast<JobId>(w.jobs.size() + 1);
    // Unknown users share one id; a history predictor then treats them as one user.
    j.user = r.user >= 0 ? static_cast<UserId>(r.user) : UserId(0xffffffffu);
    j.submit = first_submit + static_cast<Time>(std::llround(
                                  static_cast<double>(r.submit - first_submit) *
                                  options.load_factor));
    j.procs = procs;
    Time estimate = r.requested_time;
    if (estimate <= 0) {
      ++w.estimate_from_runtime;
      s.estimate_from_runtime = true;
      estimate = r.runtime;
    }
    estimate = static_cast<Time>(
        std::llround(static_cast<double>(estimate) * options.estimate_factor));
    j.estimate = std::max<Time>(estimate, 1);
    j.prediction = j.estimate;
    j.partition = 0;
    if (w.machine) {
      JobRequest request = JobRequest::cpus(procs);
      request.exclusive = options.whole_nodes;
      j.request = std::make_shared<const JobRequest>(std::move(request));
    }
    w.jobs.push_back(s);
  }
  return w;
}

}  // namespace easypp::sim
