// How well a predictor would have done on the runs kept in a state file.
#ifndef EASYPP_TOOLS_PREDICTION_STATS_H
#define EASYPP_TOOLS_PREDICTION_STATS_H

#include <cstddef>
#include <cstdint>

#include "easypp/predictor.h"

namespace easypp::tools {

struct PredictionStats {
  std::size_t users = 0;
  std::size_t runs = 0;
  std::size_t under = 0;  // prediction < runtime: the scheduler had to correct it
  std::size_t over = 0;   // prediction > runtime
  std::size_t exact = 0;
  // Mean of min(x, runtime) / max(x, runtime), 1 is perfect (runtime 0 counts as 1 s).
  double prediction_accuracy = 0;
  double estimate_accuracy = 0;
};

// Replays every user's kept runs, oldest first, through a fresh predictor of `spec`:
// each run is predicted from the runs before it, then learnt.
PredictionStats kept_run_stats(const epp_predictor* state, const char* spec);

// min(a, b) / max(a, b) with both floored at 1 s.
double ratio_accuracy(std::int64_t predicted, std::int64_t runtime);

}  // namespace easypp::tools

#endif
