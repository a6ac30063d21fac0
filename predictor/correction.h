// How a running job's prediction grows once the job outlives it (paper 000, 3.2 and 7).
#ifndef EASYPP_PREDICTOR_CORRECTION_H
#define EASYPP_PREDICTOR_CORRECTION_H

#include <cstdint>

#include "spec.h"

namespace easypp::predictor {

// The prediction ceiling: the estimate, times `scale` for X2-style predictors.
std::int64_t ceiling_of(const Spec& spec, std::int64_t estimate);

// The next prediction (> elapsed; INT64_MAX, the largest there is, if elapsed is). Below the ceiling the spec's rule applies; at or above
// it the paper's post-estimate rule: +1 min, then 15*2^(i-2) min for the i-th post-ceiling
// correction. The post-ceiling count is read off how far `current` is past the ceiling,
// so a driver that checks late (elapsed far beyond current) still gets one answer.
std::int64_t next_prediction(const Spec& spec, std::int64_t estimate, std::int64_t current,
                             std::int64_t elapsed, int corrections);

// Seconds added by the i-th (1-based) correction of the gradual schedule.
std::int64_t gradual_increment(int i);

}  // namespace easypp::predictor

#endif
