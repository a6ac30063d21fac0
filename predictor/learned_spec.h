// The spec keys of the `learned` predictor (an online linear model after Gaussier,
// Glesser, Reis and Trystram, SC 2015): the loss, the per-job weight, the learning rate
// and which feature groups the model sees. Kept apart from spec.cpp like the error-model
// keys; spec.cpp calls in here. The model itself: online_regression.h, job_features.h.
#ifndef EASYPP_PREDICTOR_LEARNED_SPEC_H
#define EASYPP_PREDICTOR_LEARNED_SPEC_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace easypp::predictor {

// Per-job weight of a job's loss (the paper's weighted E-Loss): all jobs alike, more for
// jobs that occupy more of the machine (log of the area, or the area itself), or more for
// small ones (1 / (1 + log(1 + area)): bounded slowdown is made by short jobs; the
// paper's runs weighted jobs like this).
enum class JobWeight { One, LogArea, Area, Small };

// What the model is linear in: seconds (the paper's choice), or log(1 + seconds) for the
// target and every time-valued feature (log(procs), log(1 + count)), so that its bias and
// errors are ratios: a short job is not predicted an hour longer because long jobs are.
enum class Target { Seconds, Log };

// The E-Loss's error term: squared (the paper's; the model then predicts an expectile of
// the runtime given the features) or absolute (a quantile: with `under` = k the
// k/(1+k) quantile). Runtimes given a user's history are bimodal (many jobs fail early),
// and a quantile is not dragged into the gap between the modes as the mean is.
enum class Loss { Squared, Absolute };

// Feature groups (bits of LearnedSpec::features); the bias is always in.
enum FeatureGroup : unsigned {
  kGroupRecent = 1u << 0,    // the user's last three runtimes, their means, the kept mean
  kGroupEstimate = 1u << 1,  // the requested time
  kGroupProcs = 1u << 2,     // the processor count
  kGroupLoad = 1u << 3,      // the user's jobs predicted but not ended; time since their last end
  kGroupTime = 1u << 4,      // time of day and of week (submit), as cos/sin pairs
  kGroupAll = (1u << 5) - 1,
};

struct LearnedSpec {
  // E-Loss: squared error, under-prediction (prediction < runtime) weighted `under`
  // times more than over-prediction. Defaults chosen in doc/results/learned.
  double under = 4.0;
  Loss loss = Loss::Squared;
  JobWeight weight = JobWeight::One;
  // NAG step size, in the target's units (NAG is invariant to the features' scale, not
  // the target's): log(1 + seconds) by default, seconds with target=seconds.
  double eta = 0.3;
  unsigned features = kGroupAll;
  Target target = Target::Log;
};

std::vector<std::string_view> learned_keys();

// Parses one learned-only key into `m`; false for a bad value, with `choices` saying what
// is allowed. Keys it does not own return false with an empty `choices`.
bool parse_learned_key(LearnedSpec& m, std::string_view key, std::string_view value, std::string& choices);

// "target=log,under=4,loss=squared,weight=logarea,eta=300,features=..." (no kind).
std::string canonical_learned_keys(const LearnedSpec& m);

// "recent+estimate+..." for a group mask.
std::string feature_groups_name(unsigned mask);

}  // namespace easypp::predictor

#endif
