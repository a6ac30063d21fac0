#include "prediction_stats.h"

#include <algorithm>
#include <vector>

#include "predictor_handle.h"

namespace easypp::tools {

double ratio_accuracy(std::int64_t predicted, std::int64_t runtime) {
  double a = static_cast<double>(std::max<std::int64_t>(predicted, 1));
  double b = static_cast<double>(std::max<std::int64_t>(runtime, 1));
  return std::min(a, b) / std::max(a, b);
}

PredictionStats kept_run_stats(const epp_predictor* state, const char* spec) {
  PredictionStats s;
  std::vector<std::uint32_t> users(epp_predictor_user_ids(state, nullptr, 0));
  users.resize(epp_predictor_user_ids(state, users.data(), users.size()));
  s.users = users.size();
  double pred_sum = 0, est_sum = 0;
  for (std::uint32_t user : users) {
    PredictorHandle fresh = make_predictor(spec);
    epp_run runs[64];
    std::size_t n = std::min<std::size_t>(epp_user_runs(state, user, runs, 64), 64);
    for (std::size_t i = 0; i < n; ++i) {
      const epp_run& r = runs[i];
      epp_job job{r.job_id, user, r.submit, r.estimate, 1, r.runtime};
      std::int64_t predicted = epp_predict(fresh.get(), &job);
      ++s.runs;
      if (predicted < r.runtime) ++s.under;
      else if (predicted > r.runtime) ++s.over;
      else ++s.exact;
      pred_sum += ratio_accuracy(predicted, r.runtime);
      est_sum += ratio_accuracy(r.estimate, r.runtime);
      epp_learn(fresh.get(), &job, r.end - r.runtime, r.end, EPP_END_COMPLETED);
    }
  }
  if (s.runs > 0) {
    s.prediction_accuracy = pred_sum / static_cast<double>(s.runs);
    s.estimate_accuracy = est_sum / static_cast<double>(s.runs);
  }
  return s;
}

}  // namespace easypp::tools
