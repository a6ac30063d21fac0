// Facts about a whole workload that paper 003's evaluation predictors need (section 5.1):
// per variable (runtime, processors, area = runtime x processors, jobs per application)
// an upper bound ub = 95th percentile / 2 and a lower bound lb = ub x lb_factor (0.05 in
// the paper's text), the most executed applications, and each job's application.
#ifndef EASYPP_PREDICTOR_WORKLOAD_STATS_H
#define EASYPP_PREDICTOR_WORKLOAD_STATS_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "easypp/predictor.h"

namespace easypp::predictor {

struct Bounds {
  double lb = 0;
  double ub = 0;
};

struct WorkloadStats {
  std::size_t jobs = 0;
  std::size_t short_jobs = 0;  // runtime < runtime.lb
  std::size_t large_jobs = 0;  // runtime > runtime.ub
  Bounds runtime;
  Bounds procs;
  Bounds area;
  // Over the jobs-per-application counts; applications with more jobs than app_jobs.ub
  // are the "most executed" ones.
  Bounds app_jobs;
  std::unordered_set<std::int64_t> frequent_apps;
  std::unordered_map<std::uint64_t, std::int64_t> app_of_job;  // jobs with a known application

  std::int64_t application(std::uint64_t job_id) const {
    auto it = app_of_job.find(job_id);
    return it == app_of_job.end() ? -1 : it->second;
  }
};

// The q-quantile (0 <= q <= 1) by linear interpolation between the closest ranks of the
// sorted values (R type 7): 0.95 of {1..21} is 20. Sorts `values`. Empty: 0.
double percentile(std::vector<double>& values, double q);

// Computes the statistics; nullopt with one line in `error` naming the bad job
// ("workload job_id=7: runtime=-3: must be >= 0") or an empty workload.
std::optional<WorkloadStats> compute_workload_stats(const epp_workload_job* jobs, std::size_t n,
                                                    double lb_factor, std::string& error);

}  // namespace easypp::predictor

#endif
