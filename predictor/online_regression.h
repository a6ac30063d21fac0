// The `learned` predictor's model: linear in the job's features, on top of a base
// prediction (EASY++'s mean of the last two runtimes, or the estimate when the recent
// runtimes are not among the features), trained online by one NAG step per ended job
// (Normalized Adaptive Gradient, Ross, Mineiro and Langford, UAI 2013, the optimiser
// Gaussier et al. use) on their asymmetric weighted squared loss, the E-Loss:
//
//   L = w_j * c * (prediction - runtime)^2,  c = `under` if prediction < runtime, else 1
//   (loss=absolute: w_j * c * |prediction - runtime|, gradient w_j * c * sign * x_i)
//
// (with target=log, prediction and runtime are log(1 + seconds) there).
//
// NAG keeps per feature the largest |x_i| seen (s_i) and the sum of squared gradients
// (G_i), and overall N = sum over steps of sum_i x_i^2 / s_i^2 and the step count t:
//   for each i with |x_i| > s_i: w_i *= s_i / |x_i| (if s_i > 0); s_i = |x_i|
//   N += sum_i (x_i / s_i)^2;  t += 1
//   g_i = dL/dw_i = 2 w_j c (prediction - runtime) x_i
//   G_i += g_i^2;  w_i -= eta * sqrt(t / N) * g_i / (s_i * sqrt(G_i))
// so a feature's scale (seconds or processors) does not matter, only eta's (seconds).
// Deterministic; O(features) per prediction and per step; no allocation.
#ifndef EASYPP_PREDICTOR_ONLINE_REGRESSION_H
#define EASYPP_PREDICTOR_ONLINE_REGRESSION_H

#include <cstddef>
#include <cstdint>

#include "job_features.h"
#include "learned_spec.h"

namespace easypp::predictor {

// The job's weight in the loss (LearnedSpec::weight); runtime in seconds.
double job_weight(JobWeight weight, double runtime, double procs);

// Values whose log1p is already known: the user's newest runtimes, as their ring keeps
// them (RunRing::newest_runtimes, newest_runtime_logs). runtime[i] is the i-th newest,
// i < n; read in place.
struct KnownLogs {
  std::size_t n = 0;
  const std::int64_t* runtime = nullptr;
  const double* log1p = nullptr;
};

class OnlineRegression {
 public:
  struct State {
    FeatureVector w{};      // weights
    FeatureVector s{};      // largest |x_i| seen
    FeatureVector g{};      // sums of squared gradients
    double n_sum = 0;       // N
    std::uint64_t steps = 0;  // t
  };

  explicit OnlineRegression(const LearnedSpec& spec) : spec_(spec) {}

  // The model's own features from job_features()'s (log-transformed for target=log). A
  // recent runtime equal to known.runtime[i] (not capped) takes known.log1p[i].
  FeatureVector prepare(const FeatureVector& raw, const KnownLogs& known = {}) const;
  // base + w . x on prepared features, in the target's units.
  double score(const FeatureVector& x) const;
  // The prediction in seconds (not clamped) for prepared features.
  double predict(const FeatureVector& x) const;
  // A runtime in seconds in the target's units: log1p(runtime) for target=log.
  double target(double runtime) const;
  // One NAG step on the E-Loss of a job with these prepared features that ran `runtime`
  // seconds.
  void update(const FeatureVector& x, double runtime, double weight) { update_to(x, target(runtime), weight); }
  // The same with the runtime given as target(runtime) (a caller keeping its log).
  void update_to(const FeatureVector& x, double y, double weight);

  // The base prediction the weights correct, in the target's units.
  double base(const FeatureVector& x) const;

  const State& state() const { return state_; }
  void restore(const State& s) { state_ = s; }

 private:
  LearnedSpec spec_;
  State state_;
};

}  // namespace easypp::predictor

#endif
