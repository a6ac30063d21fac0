// The measures of paper 001 (section 4): average slowdown s = 1 + d / v (d the wait, v the
// runtime) and bounded slowdown, overall and per job class (short, medium, long,
// extra-long by runtime), aggregate or per batch of 1000 jobs in submit order (transient),
// and the slowdown ratio R = (s1 - sm) / min(s1, sm) of one run (s1) against another (sm).
// Unlike compute_metrics() these count every job: the paper leaves none out.
#ifndef EASYPP_MEASURE_MQ_METRICS_H
#define EASYPP_MEASURE_MQ_METRICS_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "measure/outcome.h"

namespace easypp::measure {

inline constexpr int kJobClasses = 4;

// Class by runtime: <= limits[0] short, <= limits[1] medium, <= limits[2] long, else
// extra-long (paper 001 section 2).
struct JobClasses {
  std::array<Time, kJobClasses - 1> limits{100, 1000, 10000};
  int of(Time runtime) const;  // 0-based class
};

struct SlowdownSummary {
  std::int64_t count = 0;
  double slowdown = 0;          // mean of 1 + wait / max(runtime, 1 s)
  double bounded_slowdown = 0;  // mean of max(1, (wait + runtime) / max(runtime, 10 s))
};

struct ClassSlowdowns {
  SlowdownSummary all;
  std::array<SlowdownSummary, kJobClasses> by_class{};
};

// Over outcome.jobs[first, last) (submit order). Throws std::invalid_argument for a range
// outside the jobs or a job that never ran.
ClassSlowdowns class_slowdowns(const SimOutcome& outcome, std::size_t first, std::size_t last,
                               const JobClasses& classes = {});
ClassSlowdowns class_slowdowns(const SimOutcome& outcome, const JobClasses& classes = {});

// R = (s1 - sm) / min(s1, sm): > 0 when `multi` has the lower slowdown. 0 when both are 0
// (an empty class).
double slowdown_ratio(double single, double multi);

struct TransientBatch {
  std::size_t first_job = 0;  // index of the batch's first job (submit order)
  Time first_submit = 0;      // its submit time (the paper plots batches at this time)
  ClassSlowdowns single;
  ClassSlowdowns multi;
  double ratio = 0;  // R of the batch's overall slowdowns
};

// The two runs must be of the same workload (same job count and submit times; else
// std::invalid_argument). A last partial batch is kept.
std::vector<TransientBatch> transient_ratios(const SimOutcome& single, const SimOutcome& multi,
                                             std::size_t batch = 1000,
                                             const JobClasses& classes = {});

}  // namespace easypp::measure

#endif
