#include "replay/replay_plan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "cli/output_file.h"

namespace easypp::replay {

std::int64_t limit_minutes(Time estimate, double speedup) {
  // Integer arithmetic where possible so 3600 s at F=60 is exactly 1 minute.
  const double scaled = static_cast<double>(estimate) / speedup / 60.0;
  auto m = static_cast<std::int64_t>(std::ceil(scaled - 1e-9));
  return std::max<std::int64_t>(m, 1);
}

double payload_seconds(Time runtime, Time estimate, double speedup) {
  const double capped = static_cast<double>(std::max<Time>(0, std::min(runtime, estimate)));
  return std::round(capped / speedup * 1000.0) / 1000.0;
}

const std::string& UserMap::account(UserId trace_user) {
  auto it = accounts_.find(trace_user);
  if (it != accounts_.end()) return it->second;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%03zu", accounts_.size() + 1);
  return accounts_.emplace(trace_user, prefix_ + buf).first->second;
}

ReplayPlan make_plan(const sim::Workload& workload, double speedup, int cluster_cpus,
                     UserMap& users) {
  if (!(speedup >= 1) || !std::isfinite(speedup)) {
    throw std::invalid_argument("speedup=" + std::to_string(speedup) + ": must be >= 1");
  }
  if (cluster_cpus < 1) {
    throw std::invalid_argument("cpus=" + std::to_string(cluster_cpus) + ": must be >= 1");
  }
  ReplayPlan plan;
  plan.speedup = speedup;
  plan.cluster_cpus = cluster_cpus;
  if (!workload.jobs.empty()) plan.trace_start = workload.jobs.front().job.submit;
  for (const sim::SimJob& s : workload.jobs) {
    PlannedJob p;
    p.swf_job = s.swf_job;
    p.user = s.job.user;
    p.account = users.account(s.job.user);
    p.submit = s.job.submit;
    p.submit_offset = static_cast<double>(s.job.submit - plan.trace_start) / speedup;
    p.procs = std::min(s.job.procs, cluster_cpus);
    p.procs_capped = s.job.procs > cluster_cpus;
    if (p.procs_capped) ++plan.procs_capped;
    p.estimate = s.job.estimate;
    p.runtime = s.runtime;
    if (s.runtime > s.job.estimate) ++plan.runtime_capped;
    p.limit_min = limit_minutes(s.job.estimate, speedup);
    p.payload = payload_seconds(s.runtime, s.job.estimate, speedup);
    plan.jobs.push_back(p);
  }
  return plan;
}

sim::Workload effective_workload(const ReplayPlan& plan, const std::string& trace_name) {
  sim::Workload w;
  w.trace = trace_name;
  w.procs = plan.cluster_cpus;
  for (const PlannedJob& p : plan.jobs) {
    sim::SimJob s;
    s.swf_job = p.swf_job;
    s.runtime = static_cast<Time>(std::llround(p.payload * plan.speedup));
    s.end_state = 0;  // EPP_END_COMPLETED: every payload ends normally
    s.job.id = static_cast<JobId>(w.jobs.size() + 1);
    s.job.user = p.user;
    s.job.submit = p.submit;
    s.job.procs = p.procs;
    s.job.estimate =
        static_cast<Time>(std::llround(static_cast<double>(p.limit_min) * 60.0 * plan.speedup));
    s.job.prediction = s.job.estimate;
    w.jobs.push_back(s);
  }
  return w;
}

void write_swf(const sim::Workload& w, const std::vector<std::string>& acknowledge,
               const std::string& path) {
  std::ostringstream out;
  out << "; Version: 2.2\n";
  out << "; Note: effective jobs of an easypp-replay slice (limits rounded up to whole\n"
         ";   minutes of compressed time, runtimes capped at the estimate, procs capped)\n";
  for (const std::string& a : acknowledge) out << "; Acknowledge: " << a << "\n";
  out << "; MaxProcs: " << w.procs << "\n";
  for (const sim::SimJob& s : w.jobs) {
    const Job& j = s.job;
    // job submit wait runtime alloc cpu mem req_procs req_time req_mem status user group
    // exe queue partition preceding think
    out << s.swf_job << ' ' << j.submit << " -1 " << s.runtime << ' ' << j.procs << " -1 -1 "
        << j.procs << ' ' << j.estimate << " -1 1 " << j.user << " -1 -1 -1 -1 -1 -1\n";
  }
  cli::write_whole_file(path, out.str());
}

}  // namespace easypp::replay
