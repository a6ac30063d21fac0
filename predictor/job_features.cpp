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
  FeatureVector x{};
  const double estimate = static_cast<double>(job.estimate);
  x[kBias] = 1.0;
  if ((groups & kGroupRecent) != 0) {
    // Runs newest first, capped at this job's limit: it cannot run longer.
    double last[3] = {estimate, estimate, estimate};
    std::size_t n = 0;
    double kept_sum = 0;
    std::size_t kept = 0;
    if (h != nullptr) {
      const RunRing& r = h->recent;
      n = std::min<std::size_t>(3, r.size());
      for (std::size_t i = 0; i < n; ++i)
        last[i] = std::min(estimate, static_cast<double>(r.at(r.size() - 1 - i).runtime));
      // Summed as integers: exact, as the sum of these whole seconds in doubles is.
      kept_sum = static_cast<double>(r.capped_runtime_sum(job.estimate));
      kept = r.size();
    }
    x[kLast1] = last[0];
    x[kLast2] = last[1];
    x[kLast3] = last[2];
    x[kMean2] = n == 0 ? estimate : n == 1 ? last[0] : (last[0] + last[1]) / 2.0;
    x[kMean3] = n == 0 ? estimate : n == 1 ? last[0] : n == 2 ? x[kMean2] : (last[0] + last[1] + last[2]) / 3.0;
    x[kMeanKept] = kept == 0 ? estimate : kept_sum / static_cast<double>(kept);
    x[kSpread] = std::max({last[0], last[1], last[2]}) - std::min({last[0], last[1], last[2]});
  }
  if ((groups & kGroupEstimate) != 0) x[kEstimate] = estimate;
  if ((groups & kGroupProcs) != 0) x[kProcs] = std::max(1, job.procs);
  if ((groups & kGroupLoad) != 0) {
    if (pending != nullptr) pending->load(job.job_id, job.submit, x[kPendingJobs], x[kPendingProcs]);
    if (h != nullptr && h->recent.size() > 0) {
      const std::int64_t since = job.submit - h->recent.newest().end;
      x[kSinceLastEnd] = static_cast<double>(std::clamp<std::int64_t>(since, 0, kWeek));
    }
  }
  if ((groups & kGroupTime) != 0) {
    const double day = phase(job.submit, kDay), week = phase(job.submit, kWeek);
    x[kDayCos] = std::cos(day);
    x[kDaySin] = std::sin(day);
    x[kWeekCos] = std::cos(week);
    x[kWeekSin] = std::sin(week);
  }
  return x;
}

}  // namespace easypp::predictor
