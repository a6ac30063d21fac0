#include "workload_stats.h"

#include <algorithm>
#include <cmath>

namespace easypp::predictor {
namespace {

Bounds bounds_of(std::vector<double>& values, double lb_factor) {
  Bounds b;
  b.ub = percentile(values, 0.95) / 2.0;
  b.lb = b.ub * lb_factor;
  return b;
}

}  // namespace

double percentile(std::vector<double>& values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double h = static_cast<double>(values.size() - 1) * q;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (h - static_cast<double>(lo)) * (values[hi] - values[lo]);
}

std::optional<WorkloadStats> compute_workload_stats(const epp_workload_job* jobs, std::size_t n,
                                                    double lb_factor, std::string& error) {
  if (jobs == nullptr || n == 0) {
    error = "workload: no jobs (the error models need the whole trace)";
    return std::nullopt;
  }
  WorkloadStats s;
  s.jobs = n;
  std::vector<double> runtime, procs, area;
  runtime.reserve(n);
  procs.reserve(n);
  area.reserve(n);
  std::unordered_map<std::int64_t, std::size_t> jobs_per_app;
  for (std::size_t i = 0; i < n; ++i) {
    const epp_workload_job& j = jobs[i];
    const std::string where = "workload job_id=" + std::to_string(j.job_id) + ": ";
    if (j.runtime < 0) {
      error = where + "runtime=" + std::to_string(j.runtime) + ": must be >= 0";
      return std::nullopt;
    }
    if (j.procs < 1) {
      error = where + "procs=" + std::to_string(j.procs) + ": must be >= 1";
      return std::nullopt;
    }
    runtime.push_back(static_cast<double>(j.runtime));
    procs.push_back(static_cast<double>(j.procs));
    area.push_back(static_cast<double>(j.runtime) * static_cast<double>(j.procs));
    if (j.application >= 0) {
      ++jobs_per_app[j.application];
      s.app_of_job[j.job_id] = j.application;
    }
  }
  s.runtime = bounds_of(runtime, lb_factor);
  for (double rt : runtime) {
    if (rt < s.runtime.lb) ++s.short_jobs;
    if (rt > s.runtime.ub) ++s.large_jobs;
  }
  s.procs = bounds_of(procs, lb_factor);
  s.area = bounds_of(area, lb_factor);
  std::vector<double> counts;
  counts.reserve(jobs_per_app.size());
  for (const auto& [app, count] : jobs_per_app) counts.push_back(static_cast<double>(count));
  s.app_jobs = bounds_of(counts, lb_factor);
  for (const auto& [app, count] : jobs_per_app)
    if (static_cast<double>(count) > s.app_jobs.ub) s.frequent_apps.insert(app);
  return s;
}

}  // namespace easypp::predictor
