#include "core/predictions.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace easypp {
namespace {

// Steps of one correction at most (the library's own bound: steps grow geometrically, so
// a handful pass any real elapsed time).
constexpr int kMaxCorrectionSteps = 256;

}  // namespace

Predictions::Predictions(const PolicyTraits& traits, std::string_view spec_override)
    : traits_(traits) {
  if (!spec_override.empty()) traits_.predictor = std::string(spec_override);
  char err[512] = {0};
  predictor_ = epp_predictor_new(traits_.predictor.c_str(), err, sizeof err);
  if (predictor_ == nullptr) {
    throw std::invalid_argument(err[0] != '\0' ? std::string(err)
                                               : "predictor=" + traits_.predictor + ": rejected");
  }
}

Predictions::~Predictions() { epp_predictor_free(predictor_); }

Predictions::Predictions(Predictions&& other) noexcept
    : traits_(std::move(other.traits_)), predictor_(std::exchange(other.predictor_, nullptr)) {}

Predictions& Predictions::operator=(Predictions&& other) noexcept {
  if (this != &other) {
    epp_predictor_free(predictor_);
    traits_ = std::move(other.traits_);
    predictor_ = std::exchange(other.predictor_, nullptr);
  }
  return *this;
}

epp_job Predictions::to_epp(const Job& job, Time actual_runtime) {
  epp_job e{};
  e.job_id = job.id;
  e.user_id = job.user;
  e.submit = job.submit;
  e.estimate = job.estimate;
  e.procs = job.procs;
  e.runtime = actual_runtime;
  return e;
}

Time Predictions::predict(Job& job, Time actual_runtime) {
  const epp_job e = to_epp(job, actual_runtime);
  const Time raw = epp_predict(predictor_, &e);
  Time p = raw;
  if (traits_.prediction_factor != 1.0) {
    p = static_cast<Time>(std::llround(static_cast<double>(raw) * traits_.prediction_factor));
  }
  // The job is killed at its estimate anyway (paper 000 section 3.1).
  if (job.estimate > 0) p = std::min(p, job.estimate);
  job.prediction = std::max<Time>(p, 1);
  return job.prediction;
}

bool Predictions::correct(RunningJob& job, Time now) {
  if (!traits_.correct_predictions || now < job.predicted_end()) return false;
  const Time elapsed = now - job.start;
  const epp_job e = to_epp(job.job, -1);
  // One step at a time, each counted: a correction made late (a plugin pass after the
  // predicted end) takes the same steps as one made at each predicted end (the
  // simulator), and a later step's size (gradual: by its number) does not depend on when
  // passes happened. At the predicted end itself it is one step, as before.
  Time p = job.job.prediction;
  int corrections = job.job.corrections;
  for (int step = 0; step < kMaxCorrectionSteps && p <= elapsed; ++step) {
    // The ABI promises a result above the elapsed time given (here p): one step.
    p = std::max(epp_correct(predictor_, &e, p, p, corrections), p + 1);
    ++corrections;
  }
  // Keep the driver's wake-up in the future regardless.
  job.job.prediction = std::max(p, elapsed + 1);
  job.job.corrections = corrections;
  return true;
}

std::optional<Time> Predictions::next_correction_time(const RunningJob& job) const {
  if (!traits_.correct_predictions) return std::nullopt;
  return job.predicted_end();
}

Predictions::JobEnd Predictions::job_ended(const Job& job, Time start, Time end, int end_state) {
  const epp_job e = to_epp(job, -1);
  JobEnd result;
  result.learnt = epp_learn(predictor_, &e, start, end, end_state) == 1;
  if (result.learnt && epp_predictor_propagates(predictor_)) result.repredict_user = job.user;
  return result;
}

bool Predictions::propagates() const { return epp_predictor_propagates(predictor_) != 0; }

std::string Predictions::spec() const { return epp_predictor_spec(predictor_); }

int Predictions::load(const std::string& path, std::string& error) {
  char err[512] = {0};
  const int result = epp_load(predictor_, path.c_str(), err, sizeof err);
  error = err;
  return result;
}

bool Predictions::take_history(const Predictions& from, std::string& error) {
  char err[512] = {0};
  const bool ok = epp_copy_history(predictor_, from.predictor_, err, sizeof err) == 0;
  error = err;
  return ok;
}

bool Predictions::save(const std::string& path, std::string& error) const {
  char err[512] = {0};
  const bool ok = epp_save(predictor_, path.c_str(), err, sizeof err) == 0;
  error = err;
  return ok;
}

}  // namespace easypp
