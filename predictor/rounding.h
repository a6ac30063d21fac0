// Rounding a double to an int64 inside bounds, for products (an accuracy times an
// estimate, a prediction times scale) that may not fit: std::llround of a value outside
// int64 is undefined (it gave INT64_MIN, then clamped to 1 s).
#ifndef EASYPP_PREDICTOR_ROUNDING_H
#define EASYPP_PREDICTOR_ROUNDING_H

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace easypp::predictor {

// v rounded half away from zero, clamped to [lo, hi] before rounding; NaN gives hi (a
// model gone wrong plans with the bound, as the learned kind does).
inline std::int64_t rounded_within(double v, std::int64_t lo, std::int64_t hi) {
  if (std::isnan(v) || v >= static_cast<double>(hi)) return hi;
  if (v <= static_cast<double>(lo)) return lo;
  // Inside (lo, hi) as doubles, so inside int64; the clamp catches hi rounded up as a double.
  return std::clamp<std::int64_t>(std::llround(v), lo, hi);
}

}  // namespace easypp::predictor

#endif
