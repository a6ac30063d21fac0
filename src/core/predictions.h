// The one C++ wrapper over the predictor library's C ABI (predictor/easypp/predictor.h),
// used by both drivers. It turns a policy's traits into predictions a policy can plan with:
//  - at submit, predict(): the predictor's value, times traits.prediction_factor, never
//    above the estimate the scheduler sees (Job.estimate) and never below one second;
//  - when a running job reaches its predicted end, correct() (only for policies with
//    traits.correct_predictions; otherwise the overdue job just counts as ending now);
//  - at the end of a job, job_ended() teaches the predictor.
// Job.estimate is set by the driver to the user's estimate times traits.estimate_factor
// (X2 family); this class does not apply estimate_factor again. The driver keeps the
// user's own limit as the kill time.
#ifndef EASYPP_CORE_PREDICTIONS_H
#define EASYPP_CORE_PREDICTIONS_H

#include <optional>
#include <string>
#include <string_view>

#include "core/job.h"
#include "core/policy.h"
#include "easypp/predictor.h"

namespace easypp {

class Predictions {
 public:
  // Creates the predictor named by spec_override if non-empty, else by traits.predictor.
  // Throws std::invalid_argument carrying the predictor's one-line message on a bad spec.
  explicit Predictions(const PolicyTraits& traits, std::string_view spec_override = {});
  ~Predictions();
  Predictions(const Predictions&) = delete;
  Predictions& operator=(const Predictions&) = delete;
  Predictions(Predictions&& other) noexcept;
  Predictions& operator=(Predictions&& other) noexcept;

  // Sets job.prediction for a job not started yet and returns it. actual_runtime is the
  // job's real runtime, known only to the simulator, for the clairvoyant "perfect"
  // predictor; -1 otherwise.
  Time predict(Job& job, Time actual_runtime = -1);

  // A running job at or past its predicted end at `now`: raises its prediction past the
  // elapsed time by the predictor's correction rule, counts the correction, returns true.
  // Returns false (and changes nothing) if the job is not overdue or the policy does not
  // correct.
  bool correct(RunningJob& job, Time now);

  // When correct() should next be called for this job (its predicted end), or nothing for
  // policies that do not correct.
  std::optional<Time> next_correction_time(const RunningJob& job) const;

  struct JobEnd {
    bool learnt = false;  // the run entered the history
    // Set when the predictor propagates: the driver re-predicts this user's waiting jobs.
    std::optional<UserId> repredict_user;
  };
  // A job ended (end_state: enum epp_end_state). actual runtime = end - start.
  JobEnd job_ended(const Job& job, Time start, Time end, int end_state);

  bool propagates() const;
  // The canonical spec, every key spelled out (for logs and reports).
  std::string spec() const;
  const PolicyTraits& traits() const { return traits_; }

  // History persistence (slurmctld restarts). load() returns an epp_load_result.
  int load(const std::string& path, std::string& error);
  bool save(const std::string& path, std::string& error) const;
  // Takes `from`'s history as save + load would, in memory (epp_copy_history): a driver
  // replacing its predictions keeps what was learnt even when the disk is full.
  bool take_history(const Predictions& from, std::string& error);
  epp_predictor* handle() { return predictor_; }

 private:
  static epp_job to_epp(const Job& job, Time actual_runtime);

  PolicyTraits traits_;
  epp_predictor* predictor_ = nullptr;
};

}  // namespace easypp

#endif
