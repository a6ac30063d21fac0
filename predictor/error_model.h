// Paper 003's "fake" evaluation predictors: predictions made from the job's real runtime
// with errors of a chosen size (quant) or nature (qual) on chosen job categories. They
// need epp_job.runtime and the whole workload's statistics, so they are for simulation
// only; the draws are seeded per job (job_draws.h).
#ifndef EASYPP_PREDICTOR_ERROR_MODEL_H
#define EASYPP_PREDICTOR_ERROR_MODEL_H

#include <cstdint>

#include "easypp/predictor.h"
#include "error_model_spec.h"
#include "job_draws.h"
#include "workload_stats.h"

namespace easypp::predictor {

// Whether a job with this runtime belongs to the category (the jobs quant predicts almost
// perfectly). `draws` is consulted only by Category::Equal.
bool in_category(Category c, const WorkloadStats& w, const epp_job& job, std::int64_t runtime, JobDraws& draws,
                 double accurate_percent);

// rt + rt x U[0, 0.05], at least 1 s: the paper's "almost perfect" prediction.
std::int64_t almost_perfect(std::int64_t runtime, JobDraws& draws);

// The quant prediction (section 5.1): almost perfect inside the category, otherwise
// U[max(1, rt - a rt/100), rt + a rt/100] with a ~ N(error, stdev) (its magnitude).
std::int64_t quant_prediction(const ErrorModelSpec& m, const WorkloadStats& w, const epp_job& job);

// The qual prediction (section 5.2): with gamma ~ U[0, 100] and beta ~ N(percent, stdev),
// jobs with gamma > beta, and jobs neither short nor large, get the almost perfect one;
// otherwise a short job (rt < rt_lb) is predicted rt + rt_ub and a large one (rt > rt_ub)
// rt - rt_ub, or rt_lb - 1 when that is still above rt_lb.
std::int64_t qual_prediction(const ErrorModelSpec& m, const WorkloadStats& w, const epp_job& job);

// Deadline missed (section 3): how much a job that reached its prediction `current` gets
// more: extend % of it, at least a minute. correction.cpp applies it below the ceiling.
std::int64_t extension_step(const ErrorModelSpec& m, std::int64_t current);

}  // namespace easypp::predictor

#endif
