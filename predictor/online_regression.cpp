#include "online_regression.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>

namespace easypp::predictor {

double job_weight(JobWeight weight, double runtime, double procs) {
  const double area = std::max(0.0, runtime) * std::max(1.0, procs);
  switch (weight) {
    case JobWeight::One:
      return 1.0;
    case JobWeight::LogArea:
      return std::log1p(area) + 1.0;  // +1: a zero-length job still counts
    case JobWeight::Area:
      return area + 1.0;
    case JobWeight::Small:
      return 1.0 / (1.0 + std::log1p(area));
  }
  return 1.0;
}

double OnlineRegression::base(const FeatureVector& x) const {
  if ((spec_.features & kGroupRecent) != 0) return x[kMean2];
  if ((spec_.features & kGroupEstimate) != 0) return x[kEstimate];
  return 0.0;
}

namespace {

constexpr int kTabled = 256;

// libm's log1p(k) for k < kTabled, computed at run time. Not constexpr (nor a lambda,
// which is implicitly): a constant initializer would be folded by the compiler to
// correctly rounded values, and glibc's differ from those in the last bit for some k.
std::array<double, kTabled> libm_log1p_table() {
  std::array<double, kTabled> t{};
  for (int k = 0; k < kTabled; ++k) t[k] = std::log1p(static_cast<double>(k));
  return t;
}

// Filled when the library is loaded (only this file reads it): no guard on the hot path.
const std::array<double, kTabled> kLog1pTable = libm_log1p_table();

// log1p(v) for v >= 0, taken from a table for small whole numbers (processor and job
// counts, the zero of an absent feature): the same values, without the libm call.
inline double log1p_nonnegative(double v) {
  if (v < kTabled) {
    const int k = static_cast<int>(v);
    if (static_cast<double>(k) == v) return kLog1pTable[k];
  }
  return std::log1p(v);
}

}  // namespace

FeatureVector OnlineRegression::prepare(const FeatureVector& raw, const KnownLogs& known) const {
  if (spec_.target == Target::Seconds) return raw;
  FeatureVector x = raw;
  // Time-valued features and counts: log(1 + v). The bias and the circle stay. The recent
  // runtimes and their means are often equal to one another or to the estimate (capped,
  // or a user with repeated runs): an equal value takes the log already computed.
  // A recent runtime not capped is the user's runtime itself, whose log the ring kept.
  constexpr std::size_t kTimes[] = {kEstimate, kLast1, kLast2, kLast3, kMean2, kMean3, kMeanKept};
  static_assert(kTimes[1] == kLast1 && kTimes[2] == kLast2 && kTimes[3] == kLast3);
  double v[std::size(kTimes)];
  // Written out, so each value is compared only with the ones before it, by position.
#pragma GCC unroll 7
  for (std::size_t t = 0; t < std::size(kTimes); ++t) {
    v[t] = std::max(0.0, raw[kTimes[t]]);
    std::size_t same = 0;
    while (same < t && v[same] != v[t]) ++same;
    if (same < t)
      x[kTimes[t]] = x[kTimes[same]];
    else if (t >= 1 && t <= known.n && v[t] == static_cast<double>(known.runtime[t - 1]))
      x[kTimes[t]] = known.log1p[t - 1];
    else
      x[kTimes[t]] = log1p_nonnegative(v[t]);
  }
  for (std::size_t i : {kProcs, kPendingJobs, kPendingProcs, kSinceLastEnd})
    x[i] = log1p_nonnegative(std::max(0.0, raw[i]));
  x[kSpread] = std::max({x[kLast1], x[kLast2], x[kLast3]}) - std::min({x[kLast1], x[kLast2], x[kLast3]});
  return x;
}

double OnlineRegression::score(const FeatureVector& x) const {
  double v = base(x);
  // Written out (GCC does not unroll it at -O2): the same sums in the same order, without
  // the loop's counting, twice per predict + learn pair.
#pragma GCC unroll 17
  for (std::size_t i = 0; i < kFeatures; ++i) v += state_.w[i] * x[i];
  return v;
}

double OnlineRegression::predict(const FeatureVector& x) const {
  const double v = score(x);
  return spec_.target == Target::Log ? std::expm1(std::min(v, 700.0)) : v;
}

double OnlineRegression::target(double runtime) const {
  return spec_.target == Target::Log ? std::log1p(std::max(0.0, runtime)) : runtime;
}

void OnlineRegression::update_to(const FeatureVector& x, double y, double weight) {
  State& st = state_;
  double ratio = 0;
  // Written out as score() is: the same operations per feature, in order.
#pragma GCC unroll 17
  for (std::size_t i = 0; i < kFeatures; ++i) {
    const double a = std::fabs(x[i]);
    if (a > st.s[i]) {
      // Steps taken so far assumed a smaller scale; shrink the weight to match.
      if (st.s[i] > 0) st.w[i] *= st.s[i] / a;
      st.s[i] = a;
    }
    if (st.s[i] > 0) ratio += (x[i] / st.s[i]) * (x[i] / st.s[i]);
  }
  st.n_sum += ratio;
  ++st.steps;
  if (st.n_sum <= 0) return;  // every feature zero: nothing to learn from
  const double error = score(x) - y;
  const double c = error < 0 ? spec_.under : 1.0;
  const double sign = error < 0 ? -1.0 : error > 0 ? 1.0 : 0.0;  // loss=absolute's dL/dprediction / c
  const double step = spec_.eta * std::sqrt(static_cast<double>(st.steps) / st.n_sum);
  // dL/dprediction; times x_i below (the same products, in the same order, as written out).
  const double dl = spec_.loss == Loss::Squared ? 2.0 * weight * c * error : weight * c * sign;
  std::size_t i = 0;
#ifdef __SSE2__
  // Two features at a time (learning's hot loop): per lane the scalar loop's operations in
  // its order, so the same weights bit for bit; a zero gradient is masked, not skipped.
  const __m128d dlv = _mm_set1_pd(dl), stepv = _mm_set1_pd(step), one = _mm_set1_pd(1.0);
  for (; i + 2 <= kFeatures; i += 2) {
    const __m128d g = _mm_mul_pd(dlv, _mm_loadu_pd(&x[i]));
    const __m128d zero = _mm_cmpeq_pd(g, _mm_setzero_pd());
    const __m128d gi = _mm_add_pd(_mm_loadu_pd(&st.g[i]), _mm_mul_pd(g, g));
    _mm_storeu_pd(&st.g[i], gi);
    __m128d denom = _mm_mul_pd(_mm_loadu_pd(&st.s[i]), _mm_sqrt_pd(gi));
    denom = _mm_or_pd(_mm_and_pd(zero, one), _mm_andnot_pd(zero, denom));
    const __m128d delta = _mm_andnot_pd(zero, _mm_div_pd(_mm_mul_pd(stepv, g), denom));
    _mm_storeu_pd(&st.w[i], _mm_sub_pd(_mm_loadu_pd(&st.w[i]), delta));
  }
#endif
  for (; i < kFeatures; ++i) {
    const double g = dl * x[i];
    if (g == 0) continue;
    st.g[i] += g * g;
    st.w[i] -= step * g / (st.s[i] * std::sqrt(st.g[i]));
  }
}

}  // namespace easypp::predictor
