#include "correction.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "error_model.h"
#include "rounding.h"

namespace easypp::predictor {
namespace {

constexpr std::int64_t kNoLimit = std::numeric_limits<std::int64_t>::max();

}  // namespace

std::int64_t ceiling_of(const Spec& spec, std::int64_t estimate) {
  if (estimate <= 0) return 0;
  return rounded_within(static_cast<double>(estimate) * spec.scale, 1, kNoLimit);
}

std::int64_t gradual_increment(int i) {
  if (i <= 1) return 60;
  // 15 min * 2^(i-2); capped so the shift cannot overflow (2^30 * 900 s is ~30,000 years).
  int shift = std::min(i - 2, 30);
  return std::int64_t{900} << shift;
}

namespace {

// a + b for b >= 0, at most kNoLimit: a prediction near 2^63 (an estimate that large) must
// not wrap to a negative one.
std::int64_t plus(std::int64_t a, std::int64_t b) { return a > kNoLimit - b ? kNoLimit : a + b; }

// How many post-ceiling corrections lead to `excess` seconds past the ceiling: the largest
// k with 60 + 900 + 1800 + ... (k terms) <= excess.
int post_ceiling_count(std::int64_t excess) {
  int k = 0;
  std::int64_t sum = 0;
  while (k < 32 && sum + gradual_increment(k + 1) <= excess) {
    sum += gradual_increment(k + 1);
    ++k;
  }
  return k;
}

}  // namespace

std::int64_t next_prediction(const Spec& spec, std::int64_t estimate, std::int64_t current,
                             std::int64_t elapsed, int corrections) {
  const std::int64_t ceiling = estimate > 0 ? ceiling_of(spec, estimate) : std::max<std::int64_t>(current, 1);
  std::int64_t p = std::max<std::int64_t>(current, 1);
  int i = std::max(corrections, 0);
  // Each step strictly grows p; increments grow geometrically, so this ends quickly.
  for (int step = 0; step < 256; ++step) {
    if (p < ceiling) {
      switch (spec.correction) {
        case Correction::Estimate:
          p = ceiling;
          break;
        case Correction::Gradual:
          p = std::min(ceiling, plus(p, gradual_increment(i + 1)));
          break;
        case Correction::Exponential:
          p = std::min(ceiling, plus(p, std::max<std::int64_t>(1, p / 5)));
          break;
        case Correction::Extend:
          p = std::min(ceiling, plus(p, extension_step(spec.error_model, p)));
          break;
      }
    } else {
      p = plus(p, gradual_increment(post_ceiling_count(p - ceiling) + 1));
    }
    ++i;
    if (p > elapsed) return p;
    if (p == kNoLimit) break;  // elapsed is kNoLimit: nothing is later
  }
  return plus(elapsed, 60);  // unreachable for sane inputs; still a valid answer
}

}  // namespace easypp::predictor
