#include "sim/schedule_file.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "cli/output_file.h"
#include "easypp/predictor.h"

namespace easypp::sim {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// SWF status: 1 completed, 0 failed (a kill at the limit is a failure), 5 cancelled.
int swf_status(const measure::JobOutcome& o) {
  if (o.killed_at_limit) return 0;
  switch (o.end_state) {
    case EPP_END_FAILED: return 0;
    case EPP_END_CANCELLED: return 5;
    default: return 1;
  }
}

long long user_of(const SimJob& s) {
  return s.job.user == 0xffffffffu ? -1 : static_cast<long long>(s.job.user);
}

// The rows of write_schedule, in CSV when the path ends in .csv, else in SWF.
void write_rows(std::FILE* f, const std::string& path, const Workload& w, const measure::SimOutcome& run) {
  const bool csv = ends_with(path, ".csv");
  if (csv) {
    std::fprintf(f, "job,id,user,submit,start,end,wait,runtime,procs,estimate,"
                    "prediction_at_start,corrections,backfilled,restarts\n");
  } else {
    std::fprintf(f, "; easypp-sim schedule of %s\n; Policy: %s\n; Predictor: %s\n"
                    "; MaxProcs: %d\n; Wait, runtime and status are the simulated ones.\n",
                 w.trace.c_str(), run.policy.c_str(), run.predictor.c_str(), w.procs);
  }
  for (std::size_t i = 0; i < w.jobs.size() && i < run.jobs.size(); ++i) {
    const SimJob& s = w.jobs[i];
    const measure::JobOutcome& o = run.jobs[i];
    const long long wait = static_cast<long long>(o.start - o.submit);
    const long long runtime = static_cast<long long>(o.end - o.start);
    if (csv) {
      std::fprintf(f, "%lld,%llu,%lld,%lld,%lld,%lld,%lld,%lld,%d,%lld,%lld,%d,%d,%d\n",
                   static_cast<long long>(s.swf_job), static_cast<unsigned long long>(s.job.id),
                   user_of(s), static_cast<long long>(o.submit), static_cast<long long>(o.start),
                   static_cast<long long>(o.end), wait, runtime, o.procs,
                   static_cast<long long>(s.job.estimate),
                   static_cast<long long>(o.prediction_at_start), o.corrections,
                   o.backfilled ? 1 : 0, o.restarts);
    } else {
      // Field 9 is the user's estimate: unknown (-1) when the trace had none, not the
      // runtime that stood in for it.
      const long long requested_time = s.estimate_from_runtime ? -1 : static_cast<long long>(s.job.estimate);
      std::fprintf(f, "%lld %lld %lld %lld %d -1 -1 %d %lld -1 %d %lld -1 %lld -1 -1 -1 -1\n",
                   static_cast<long long>(s.swf_job), static_cast<long long>(o.submit), wait,
                   runtime, o.procs, o.procs, requested_time,
                   swf_status(o), user_of(s), static_cast<long long>(s.application));
    }
  }
}

}  // namespace

std::string schedule_path(const std::string& path, const std::string& label, bool several) {
  if (!several) return path;
  // The policy's spec names the file: a '/' in it (mq:limits=100/1000) would be a directory.
  std::string policy = label;
  std::replace(policy.begin(), policy.end(), '/', '_');
  const std::size_t slash = path.find_last_of('/');
  const std::size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) {
    return path + "." + policy;
  }
  return path.substr(0, dot) + "." + policy + path.substr(dot);
}

void write_schedule(const std::string& path, const Workload& w, const measure::SimOutcome& run) {
  try {
    cli::OutputFile out(path);
    write_rows(out.get(), path, w, run);
    out.commit();
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string("--schedule=") + e.what());
  }
}

}  // namespace easypp::sim
