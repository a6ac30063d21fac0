// The variable delay of paper 001 section 4.2: extra-long jobs may start no earlier than
// their submit time plus a global delay D, and D follows the slowdown of short jobs. After
// every batch of completed jobs (100), with s_k the batch's average short-job slowdown:
//   delta_1 = s_1 (or 0: first_delta_is_slowdown)
//   delta_k = (s_k - s_{k-1}) / max(s_k, s_{k-1})  for k > 1
//   if |delta_k| > threshold (0.25): D_{k+1} = max(D_k + delta_k * D_1, 0), else D_k.
// A batch without a short job measures nothing: D and s_{k-1} stay as they were.
#ifndef EASYPP_CORE_VARIABLE_DELAY_H
#define EASYPP_CORE_VARIABLE_DELAY_H

#include <cstdint>

namespace easypp {

struct VariableDelayConfig {
  double initial = 2500;   // D_1, seconds
  int batch = 100;         // completed jobs per batch
  double threshold = 0.25; // |delta| must exceed this to move D
  // delta_1 = s_1 as printed in the paper. Since a slowdown is at least 1, that always
  // moves D after the first batch by s_1 * D_1 (on KTH: 2500 s -> 222000 s). false: the
  // first batch only sets the reference s_1 (delta_1 = 0).
  bool first_delta_is_slowdown = true;
};

class VariableDelay {
 public:
  // Throws std::invalid_argument naming the bad field (initial < 0, batch < 1,
  // threshold < 0).
  explicit VariableDelay(VariableDelayConfig config = {});

  // Current delay D_k in seconds (never negative).
  double delay() const { return delay_; }
  // Batches measured so far (k of the last update).
  std::int64_t batches() const { return batches_; }

  // One job completed; `short_job` when it belongs to the short class, `slowdown` its
  // 1 + wait / runtime. Closes a batch every config.batch jobs.
  void job_completed(bool short_job, double slowdown);

  // The arithmetic, exposed for tests: delta_k given s_k and s_{k-1} (k > 1) ...
  static double proportional_difference(double current, double previous);
  // ... and D_{k+1} from D_k, delta_k and D_1.
  static double next_delay(double delay, double delta, double initial, double threshold);

 private:
  void close_batch();

  VariableDelayConfig config_;
  double delay_;
  std::int64_t batches_ = 0;      // batches that measured a short-job slowdown
  double previous_slowdown_ = 0;  // s_{k-1}
  int in_batch_ = 0;
  int short_in_batch_ = 0;
  double short_sum_ = 0;
};

}  // namespace easypp

#endif
