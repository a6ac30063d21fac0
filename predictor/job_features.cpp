#include "job_features.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "learned_spec.h"
#include "user_history.h"

namespace easypp::predictor {
namespace {

constexpr std::int64_t kDay = 24 * 3600;
constexpr std::int64_t kWeek = 7 * kDay;

// Phase of t in a period, in [0, 2 pi); t may be negative (a simulated clock).
double phase(std::int64_t t, std::int64_t period) {
  const std::int64_t r = ((t % period) + period) % period;
  return 2.0 * std::numbers::pi * static_cast<double>(r) / static_cast<double>(period);
}

}  // namespace

void PendingJobs::remember(const PendingJob& job) {
  if (job.job_id == 0) return;
  for (auto& p : jobs_)
    if (p.job_id == job.job_id) {
      p = job;
      return;
    }
  if (jobs_.size() == kMaxPending) {
    auto oldest = std::min_element(jobs_.begin(), jobs_.end(), [](const PendingJob& a, const PendingJob& b) {
      return a.submit != b.submit ? a.submit < b.submit : a.job_id < b.job_id;
    });
    *oldest = job;
    return;
  }
  jobs_.push_back(job);
}

bool PendingJobs::take(std::uint64_t job_id, FeatureVector* x) {
  if (job_id == 0) return false;
  for (std::size_t i = 0; i < jobs_.size(); ++i)
    if (jobs_[i].job_id == job_id) {
      if (x != nullptr) *x = jobs_[i].x;
      jobs_[i] = jobs_.back();
      jobs_.pop_back();
      // Memory stays bounded by what is pending: a burst's buffer goes once it drains.
      if (jobs_.empty() && jobs_.capacity() > kKeptCapacity) std::vector<PendingJob>().swap(jobs_);
      return true;
    }
  return false;
}

bool PendingJobs::find(std::uint64_t job_id, FeatureVector* x) const {
  if (job_id == 0) return false;
  for (const auto& p : jobs_)
    if (p.job_id == job_id) {
      if (x != nullptr) *x = p.x;
      return true;
    }
  return false;
}

void PendingJobs::load(std::uint64_t job_id, std::int64_t submit, double& jobs, double& procs) const {
  jobs = 0;
  procs = 0;
  for (const auto& p : jobs_)
    if (p.job_id != job_id && p.submit <= submit) {
      jobs += 1;
      procs += p.procs;
    }
}

FeatureVector job_features(const UserHistory* h, const PendingJobs* pending, const epp_job& job, unsigned groups) {
  // Every value is set below, 0 where its group is off, and the vector is built at the end
  // in one go: zeroing it first (x{}) cost a measurable share of a prediction.
  const double estimate = static_cast<double>(job.estimate);
  double last[3] = {0, 0, 0};
  double mean2 = 0, mean3 = 0, mean_kept = 0, spread = 0;
  if ((groups & kGroupRecent) != 0) {
    // Runs newest first, capped at this job's limit: it cannot run longer.
    last[0] = last[1] = last[2] = estimate;
    std::size_t n = 0;
    double kept_sum = 0;
    std::size_t kept = 0;
    if (h != nullptr) {
      const RunRing& r = h->recent;
      static_assert(RunRing::kNewestKept >= 3);
      n = std::min<std::size_t>(3, r.size());
      for (std::size_t i = 0; i < n; ++i)
        last[i] = std::min(estimate, static_cast<double>(r.newest_runtime(i)));
      // Summed as integers: exact, as the sum of these whole seconds in doubles is.
      kept_sum = static_cast<double>(r.capped_runtime_sum(job.estimate));
      kept = r.size();
    }
    mean2 = n == 0 ? estimate : n == 1 ? last[0] : (last[0] + last[1]) / 2.0;
    mean3 = n == 0 ? estimate : n == 1 ? last[0] : n == 2 ? mean2 : (last[0] + last[1] + last[2]) / 3.0;
    mean_kept = kept == 0 ? estimate : kept_sum / static_cast<double>(kept);
    spread = std::max({last[0], last[1], last[2]}) - std::min({last[0], last[1], last[2]});
  }
  const double requested = (groups & kGroupEstimate) != 0 ? estimate : 0.0;
  const double procs = (groups & kGroupProcs) != 0 ? static_cast<double>(std::max(1, job.procs)) : 0.0;
  double pending_jobs = 0, pending_procs = 0, since_last_end = 0;
  if ((groups & kGroupLoad) != 0) {
    if (pending != nullptr) pending->load(job.job_id, job.submit, pending_jobs, pending_procs);
    if (h != nullptr && h->recent.size() > 0) {
      std::int64_t since = 0;
      // Times are any int64 (a simulated clock): a difference out of range is far past a week.
      if (__builtin_sub_overflow(job.submit, h->recent.newest_end(), &since)) since = job.submit < 0 ? 0 : kWeek;
      since_last_end = static_cast<double>(std::clamp<std::int64_t>(since, 0, kWeek));
    }
  }
  double day_cos = 0, day_sin = 0, week_cos = 0, week_sin = 0;
  if ((groups & kGroupTime) != 0) {
    const double day = phase(job.submit, kDay), week = phase(job.submit, kWeek);
    day_cos = std::cos(day);
    day_sin = std::sin(day);
    week_cos = std::cos(week);
    week_sin = std::sin(week);
  }
  static_assert(kFeatures == 17, "the list below names every feature, in FeatureIndex order");
  return FeatureVector{1.0,   last[0],   last[1],   last[2],       mean2,        mean3,
                       mean_kept, spread, requested, procs,      pending_jobs, pending_procs,
                       since_last_end, day_cos, day_sin, week_cos, week_sin};
}

}  // namespace easypp::predictor
