// What the `learned` predictor knows of a job when it predicts it: a fixed-size vector of
// per-job features after Gaussier et al. (SC 2015), built from the job and its user's
// bounded state. Feature groups left out of the spec are zero.
#ifndef EASYPP_PREDICTOR_JOB_FEATURES_H
#define EASYPP_PREDICTOR_JOB_FEATURES_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "easypp/predictor.h"

namespace easypp::predictor {

struct UserHistory;

enum FeatureIndex : std::size_t {
  kBias,          // 1
  kLast1,         // the user's last runtime (capped at this job's estimate; the estimate if none)
  kLast2,         // the one before
  kLast3,         // and the one before that
  kMean2,         // mean of the last two: what EASY++ predicts (the estimate if none)
  kMean3,         // mean of the last three
  kMeanKept,      // mean of the user's kept runs (up to 30)
  kSpread,        // largest minus smallest of the last three (log target: their log ratio):
                  // how erratic the user is, so the model can pad only such users
  kEstimate,      // the requested time
  kProcs,         // processors requested
  kPendingJobs,   // the user's jobs predicted earlier that have not ended (their load)
  kPendingProcs,  // their processors
  kSinceLastEnd,  // seconds from the user's last end to this submit, at most a week; 0 if none
  kDayCos,        // time of day of the submit, as a point on the unit circle
  kDaySin,
  kWeekCos,  // time of week
  kWeekSin,
  kFeatures
};

using FeatureVector = std::array<double, kFeatures>;

// The user's jobs that were predicted and have not ended yet, with the features each was
// last predicted with, so the model learns from what it predicted with. At most
// kMaxPending per user; when full, the earliest submitted is forgotten (a job that never
// ends, e.g. one cancelled while a driver did not report it, cannot pile up).
struct PendingJob {
  std::uint64_t job_id = 0;
  std::int64_t submit = 0;
  std::int32_t procs = 0;
  FeatureVector x{};
};

class PendingJobs {
 public:
  static constexpr std::size_t kMaxPending = 32;
  // An emptied list keeps a buffer of up to this many jobs for the user's next ones.
  static constexpr std::size_t kKeptCapacity = 4;
  // Adds or refreshes the job's entry (id 0 is never kept: it cannot be matched).
  void remember(const PendingJob& job);
  // Removes the job's entry; true (and *x filled) if there was one. Allocates nothing.
  bool take(std::uint64_t job_id, FeatureVector* x);
  // The same without removing it.
  bool find(std::uint64_t job_id, FeatureVector* x) const;
  bool empty() const { return jobs_.empty(); }
  const std::vector<PendingJob>& jobs() const { return jobs_; }
  // Jobs other than `job_id` submitted no later than `submit`, and their processors.
  void load(std::uint64_t job_id, std::int64_t submit, double& jobs, double& procs) const;

 private:
  std::vector<PendingJob> jobs_;
};

// The features of `job` (estimate > 0) given its user's history (may be null) and pending
// jobs (may be null); `groups` is a LearnedSpec::features mask.
FeatureVector job_features(const UserHistory* h, const PendingJobs* pending, const epp_job& job, unsigned groups);

}  // namespace easypp::predictor

#endif
