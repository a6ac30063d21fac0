// The metrics of paper 000, computed from a simulation's per-job outcomes. Definitions
// (and the jobs each one counts) are in doc/easypp-sim.1, section METRICS.
#ifndef EASYPP_MEASURE_METRICS_H
#define EASYPP_MEASURE_METRICS_H

#include <array>
#include <cstdint>
#include <vector>

#include "measure/outcome.h"

namespace easypp::measure {

struct MetricsOptions {
  // The first this-fraction of terminated jobs (rounded down) is left out (warm-up).
  double warmup_fraction = 0.01;
};

struct Distribution {
  std::int64_t count = 0;
  double mean = 0;
  double median = 0;
  double stddev = 0;  // population standard deviation
};

struct Metrics {
  std::int64_t jobs = 0;     // simulated jobs
  std::int64_t counted = 0;  // jobs in the averages (warm-up and cool-down left out)
  // The averages over counted jobs (wait, slowdowns, accuracy, corrections and the
  // reservation and delay rates) are NaN when no job is counted.
  double avg_wait_min = 0;
  double avg_bsld = 0;      // max(1, (Tw + Tr) / max(10 s, Tr))
  double avg_slowdown = 0;  // (Tw + Tr) / max(1 s, Tr)
  // The same per runtime class of paper 001 (<= 100 s, <= 1000 s, <= 10000 s, longer;
  // measure/mq_metrics.h); NaN for a class without counted jobs.
  std::array<double, 4> avg_slowdown_class{};
  double accuracy_pct = 0;  // time-weighted prediction accuracy, percent
  double corrections_mean = 0;
  double corrections_sd = 0;
  double utilization_pct = 0;
  double max_wait_min = 0;  // over all jobs, not only counted ones
  std::int64_t backfilled = 0;
  // Predictability (Tables 4 and 5): jobs with a reservation, |start - first reservation|;
  // jobs started after their first reservation, and by how much (minutes).
  double reservation_rate_pct = 0;
  Distribution reservation_diff_min;
  double delay_rate_pct = 0;
  Distribution delay_min;
  // Heel and toe (Table 10), out of counted jobs that got a reservation.
  double stalled_rate_pct = 0;
  double stall_time_min = 0;
  double thieves_avg = 0;
  // Kill-and-requeue (papers 002/004).
  std::int64_t restarts = 0;
  double lost_work_pct = 0;  // of all processor-seconds used
};

// Paper 000's accuracy of one prediction against the runtime: the smaller over the larger,
// 1 when equal. The simulator and easypp-replay weight it by how long each prediction was
// in effect (SimOutcome::JobOutcome::accuracy).
double accuracy_of(Time prediction, Time runtime);

// Mean, median and population standard deviation of `values` (reordered in place).
Distribution distribution_of(std::vector<double>& values);

Metrics compute_metrics(const SimOutcome& outcome, const MetricsOptions& options = {});

// Only compute_metrics' avg_wait_min and avg_bsld (the sweep's two numbers), the same
// jobs summed in the same order, so both are bit for bit compute_metrics' own - except
// over no counted job, where these are 0 (the sweep's results file holds numbers >= 0).
struct WaitAndSlowdown {
  double avg_wait_min = 0;
  double avg_bsld = 0;
};
WaitAndSlowdown average_wait_and_bsld(const SimOutcome& outcome,
                                      const MetricsOptions& options = {});

// The same two averages summed one job at a time, for observers that keep no
// SimOutcome (wait_recorder.h): add every job in workload order, then result().
class WaitAndSlowdownSum {
 public:
  WaitAndSlowdownSum(std::size_t jobs, Time last_arrival, const MetricsOptions& options = {});
  // end_rank: the job's position among terminations (-1: it never ended).
  void add(Time submit, Time start, Time end, Time runtime, std::int64_t end_rank);
  WaitAndSlowdown result() const;

 private:
  std::int64_t warmup_ = 0;
  Time last_arrival_ = 0;
  double wait_sum_ = 0, bsld_sum_ = 0;
  std::int64_t counted_ = 0;
};

}  // namespace easypp::measure

#endif
