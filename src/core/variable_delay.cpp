#include "core/variable_delay.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace easypp {

VariableDelay::VariableDelay(VariableDelayConfig config) : config_(config), delay_(config.initial) {
  if (!(config.initial >= 0) || !std::isfinite(config.initial)) {
    throw std::invalid_argument("variable delay: initial=" + std::to_string(config.initial) +
                                " must be a finite number >= 0");
  }
  if (config.batch < 1) {
    throw std::invalid_argument("variable delay: batch=" + std::to_string(config.batch) +
                                " must be >= 1");
  }
  if (!(config.threshold >= 0)) {
    throw std::invalid_argument("variable delay: threshold=" +
                                std::to_string(config.threshold) + " must be >= 0");
  }
}

double VariableDelay::proportional_difference(double current, double previous) {
  const double scale = std::max(current, previous);
  return scale > 0 ? (current - previous) / scale : 0.0;
}

double VariableDelay::next_delay(double delay, double delta, double initial, double threshold) {
  if (std::abs(delta) <= threshold) return delay;
  return std::max(delay + delta * initial, 0.0);
}

void VariableDelay::job_completed(bool short_job, double slowdown) {
  ++in_batch_;
  if (short_job) {
    ++short_in_batch_;
    short_sum_ += slowdown;
  }
  if (in_batch_ >= config_.batch) close_batch();
}

void VariableDelay::close_batch() {
  if (short_in_batch_ > 0) {
    const double s = short_sum_ / short_in_batch_;
    const double first = config_.first_delta_is_slowdown ? s : 0.0;
    const double delta = batches_ == 0 ? first : proportional_difference(s, previous_slowdown_);
    delay_ = next_delay(delay_, delta, config_.initial, config_.threshold);
    previous_slowdown_ = s;
    ++batches_;
  }
  in_batch_ = 0;
  short_in_batch_ = 0;
  short_sum_ = 0;
}

}  // namespace easypp
