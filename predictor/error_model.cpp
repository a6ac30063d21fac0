#include "error_model.h"

#include <algorithm>
#include <cmath>

namespace easypp::predictor {
namespace {

std::int64_t at_least_one(double v) {
  return std::max<std::int64_t>(1, std::llround(v));
}

}  // namespace

bool in_category(Category c, const WorkloadStats& w, const epp_job& job, std::int64_t runtime, JobDraws& draws,
                 double accurate_percent) {
  const double rt = static_cast<double>(runtime);
  const double procs = static_cast<double>(job.procs);
  const double area = rt * procs;
  switch (c) {
    case Category::HighProcessors:
      return procs > w.procs.ub;
    case Category::LowProcessors:
      return procs < w.procs.lb;
    case Category::Short:
      return rt < w.runtime.lb;
    case Category::Large:
      return rt > w.runtime.ub;
    case Category::HighArea:
      return area > w.area.ub;
    case Category::LowArea:
      return area < w.area.lb;
    case Category::MoreExecutedApplications:
      return w.frequent_apps.contains(w.application(job.job_id));
    case Category::LowProcessorsLowRuntime:
      return rt < w.runtime.lb && procs < w.procs.lb;
    case Category::NotSmall:
      return rt > w.runtime.lb || procs > w.procs.lb;
    case Category::PureEqual:
      return false;
    case Category::Equal:
      return draws.uniform() * 100.0 < accurate_percent;
  }
  return false;
}

std::int64_t almost_perfect(std::int64_t runtime, JobDraws& draws) {
  const double rt = static_cast<double>(runtime);
  return at_least_one(rt + rt * draws.uniform(0.0, 0.05));
}

std::int64_t quant_prediction(const ErrorModelSpec& m, const WorkloadStats& w, const epp_job& job) {
  JobDraws draws(m.seed, job.job_id);
  const std::int64_t runtime = std::max<std::int64_t>(job.runtime, 0);
  if (in_category(m.category, w, job, runtime, draws, m.accurate)) return almost_perfect(runtime, draws);
  const double rt = static_cast<double>(runtime);
  // A negative draw spans the same interval reversed: use its magnitude.
  const double alpha = std::fabs(draws.normal(m.error, m.stdev));
  const double spread = alpha * rt / 100.0;
  return at_least_one(draws.uniform(std::max(1.0, rt - spread), rt + spread));
}

std::int64_t qual_prediction(const ErrorModelSpec& m, const WorkloadStats& w, const epp_job& job) {
  JobDraws draws(m.seed, job.job_id);
  const std::int64_t runtime = std::max<std::int64_t>(job.runtime, 0);
  const double rt = static_cast<double>(runtime);
  const double gamma = draws.uniform(0.0, 100.0);
  const double beta = draws.normal(m.percent, m.stdev);
  if (gamma <= beta) {
    const bool to_large = m.conversion != Conversion::LargeToShort;
    const bool to_short = m.conversion != Conversion::ShortToLarge;
    if (to_large && rt < w.runtime.lb) return at_least_one(rt + w.runtime.ub);
    if (to_short && rt > w.runtime.ub) {
      const double p = rt - w.runtime.ub;
      return at_least_one(p > w.runtime.lb ? w.runtime.lb - 1.0 : p);
    }
  }
  return almost_perfect(runtime, draws);
}

std::int64_t extension_step(const ErrorModelSpec& m, std::int64_t current) {
  const double step = static_cast<double>(std::max<std::int64_t>(current, 1)) * m.extend / 100.0;
  return std::max<std::int64_t>(60, std::llround(std::min(step, 1e15)));
}

}  // namespace easypp::predictor
