#include "measure/metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "measure/mq_metrics.h"

namespace easypp::measure {

double accuracy_of(Time prediction, Time runtime) {
  if (prediction == runtime) return 1.0;
  if (prediction > runtime) return static_cast<double>(runtime) / static_cast<double>(prediction);
  return static_cast<double>(prediction) / static_cast<double>(runtime);
}

Distribution distribution_of(std::vector<double>& values) {
  Distribution d;
  d.count = static_cast<std::int64_t>(values.size());
  if (values.empty()) return d;
  double sum = 0;
  for (double v : values) sum += v;
  d.mean = sum / static_cast<double>(values.size());
  double sq = 0;
  for (double v : values) sq += (v - d.mean) * (v - d.mean);
  d.stddev = std::sqrt(sq / static_cast<double>(values.size()));
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  d.median = values[mid];
  if (values.size() % 2 == 0) {
    double below = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
    d.median = (d.median + below) / 2;
  }
  return d;
}

namespace {

// The jobs both averages count (after the warm-up, ended by the last arrival) and the
// bounded slowdown (10-second bound): one definition for compute_metrics and
// WaitAndSlowdownSum (average_wait_and_bsld, the sweep's WaitRecorder), which must agree
// bit for bit.
std::int64_t warmup_jobs(std::size_t jobs, const MetricsOptions& options) {
  return static_cast<std::int64_t>(std::floor(static_cast<double>(jobs) * options.warmup_fraction));
}
bool counted_job(std::int64_t end_rank, Time end, std::int64_t warmup, Time last_arrival) {
  return end_rank >= warmup && end <= last_arrival;
}
bool counted_job(const JobOutcome& j, std::int64_t warmup, Time last_arrival) {
  return counted_job(j.end_rank, j.end, warmup, last_arrival);
}
double bounded_slowdown(double wait, double run) {
  return std::max(1.0, (wait + run) / std::max(10.0, run));
}

}  // namespace

WaitAndSlowdown average_wait_and_bsld(const SimOutcome& outcome, const MetricsOptions& options) {
  WaitAndSlowdownSum sum(outcome.jobs.size(), outcome.last_arrival, options);
  for (const JobOutcome& j : outcome.jobs) sum.add(j.submit, j.start, j.end, j.runtime, j.end_rank);
  return sum.result();
}

WaitAndSlowdownSum::WaitAndSlowdownSum(std::size_t jobs, Time last_arrival,
                                       const MetricsOptions& options)
    : warmup_(warmup_jobs(jobs, options)), last_arrival_(last_arrival) {}

void WaitAndSlowdownSum::add(Time submit, Time start, Time end, Time runtime,
                             std::int64_t end_rank) {
  if (!counted_job(end_rank, end, warmup_, last_arrival_)) return;
  ++counted_;
  const double wait = static_cast<double>(start - submit);
  const double run = static_cast<double>(runtime);
  wait_sum_ += wait;
  bsld_sum_ += bounded_slowdown(wait, run);
}

WaitAndSlowdown WaitAndSlowdownSum::result() const {
  WaitAndSlowdown out;
  if (counted_ > 0) {
    const double n = static_cast<double>(counted_);
    out.avg_wait_min = wait_sum_ / n / 60.0;
    out.avg_bsld = bsld_sum_ / n;
  }
  return out;
}

Metrics compute_metrics(const SimOutcome& outcome, const MetricsOptions& options) {
  Metrics m;
  m.jobs = static_cast<std::int64_t>(outcome.jobs.size());
  const std::int64_t warmup = warmup_jobs(outcome.jobs.size(), options);

  double wait_sum = 0, bsld_sum = 0, sd_sum = 0, acc_sum = 0;
  std::vector<double> corrections, diffs, delays;
  std::int64_t with_reservation = 0, stalled = 0, pushbacks = 0;
  double stall_sum = 0;
  std::array<double, kJobClasses> class_sum{};
  std::array<std::int64_t, kJobClasses> class_count{};
  const JobClasses classes;
  for (const JobOutcome& j : outcome.jobs) {
    const double wait = static_cast<double>(j.start - j.submit);
    m.max_wait_min = std::max(m.max_wait_min, wait / 60.0);
    m.restarts += j.restarts;
    if (!counted_job(j, warmup, outcome.last_arrival)) continue;
    ++m.counted;
    const double run = static_cast<double>(j.runtime);
    wait_sum += wait;
    bsld_sum += bounded_slowdown(wait, run);
    // Unbounded slowdown; a zero runtime counts as 1 s (so a job that did not wait is 1).
    const double slowdown = (wait + std::max(1.0, run)) / std::max(1.0, run);
    sd_sum += slowdown;
    const auto c = static_cast<std::size_t>(classes.of(j.runtime));
    class_sum[c] += slowdown;
    ++class_count[c];
    acc_sum += j.accuracy;
    corrections.push_back(j.corrections);
    if (j.backfilled) ++m.backfilled;
    if (j.first_reservation == kUnset) continue;
    ++with_reservation;
    const double diff = static_cast<double>(j.start - j.first_reservation) / 60.0;
    diffs.push_back(std::abs(diff));
    if (diff > 0) delays.push_back(diff);
    if (j.pushbacks > 0) {
      ++stalled;
      pushbacks += j.pushbacks;
      stall_sum += static_cast<double>(j.start - j.first_perfect_start) / 60.0;
    }
  }
  if (m.counted > 0) {
    const double n = static_cast<double>(m.counted);
    m.avg_wait_min = wait_sum / n / 60.0;
    m.avg_bsld = bsld_sum / n;
    m.avg_slowdown = sd_sum / n;
    m.accuracy_pct = 100.0 * acc_sum / n;
    Distribution c = distribution_of(corrections);
    m.corrections_mean = c.mean;
    m.corrections_sd = c.stddev;
    m.reservation_rate_pct = 100.0 * static_cast<double>(with_reservation) / n;
    m.delay_rate_pct = 100.0 * static_cast<double>(delays.size()) / n;
  } else {
    // An average over no job is undefined, not 0 (bounded slowdown is never below 1).
    const double none = std::numeric_limits<double>::quiet_NaN();
    m.avg_wait_min = m.avg_bsld = m.avg_slowdown = m.accuracy_pct = none;
    m.corrections_mean = m.corrections_sd = none;
    m.reservation_rate_pct = m.delay_rate_pct = none;
  }
  for (std::size_t c = 0; c < class_sum.size(); ++c) {
    m.avg_slowdown_class[c] = class_count[c] > 0
                                  ? class_sum[c] / static_cast<double>(class_count[c])
                                  : std::numeric_limits<double>::quiet_NaN();
  }
  m.reservation_diff_min = distribution_of(diffs);
  m.delay_min = distribution_of(delays);
  if (with_reservation > 0) {
    m.stalled_rate_pct = 100.0 * static_cast<double>(stalled) / static_cast<double>(with_reservation);
  }
  if (stalled > 0) {
    m.stall_time_min = stall_sum / static_cast<double>(stalled);
    m.thieves_avg = static_cast<double>(pushbacks) / static_cast<double>(stalled);
  }
  const double span = static_cast<double>(outcome.last_end - outcome.first_submit);
  if (span > 0 && outcome.procs > 0) {
    m.utilization_pct = 100.0 * outcome.busy_proc_seconds / (span * outcome.procs);
  }
  if (outcome.busy_proc_seconds > 0) {
    m.lost_work_pct = 100.0 * outcome.lost_proc_seconds / outcome.busy_proc_seconds;
  }
  return m;
}

}  // namespace easypp::measure
