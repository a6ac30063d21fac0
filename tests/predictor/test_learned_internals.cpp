// The predictor's shortcuts give exactly what they replace: the kept runs' capped sum
// taken in storage order, the tracked copies of the newest runs and their logs,
// prepare()'s reused, known and tabled logs and the two-at-a-time NAG step (bit for bit),
// and the seen jobs' ring against a plain sorted list.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <tuple>
#include <vector>

#include "online_regression.h"
#include "user_history.h"

namespace easypp::predictor {
namespace {

std::int64_t capped_sum_in_order(const RunRing& r, std::int64_t cap) {
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < r.size(); ++i) sum += std::min(cap, r.at(i).runtime);
  return sum;
}

// libm's log1p at run time: the compiler folds constant arguments to correctly rounded
// values, which differ from glibc's in the last bit for some (e.g. log1p(2)).
double libm_log1p(double v) {
  volatile double x = v;
  return std::log1p(x);
}

// The tracked copies of the newest runs (and their logs) agree with the runs themselves.
void expect_newest_as_kept(const RunRing& r, std::uint64_t k) {
  if (r.size() == 0) return;
  EXPECT_EQ(r.newest_end(), r.at(r.size() - 1).end) << k;
  for (std::size_t i = 0; i < RunRing::kNewestKept && i < r.size(); ++i) {
    EXPECT_EQ(r.newest_runtime(i), r.at(r.size() - 1 - i).runtime) << k << " " << i;
    if (r.tracks_logs()) {
      EXPECT_EQ(r.newest_runtime_log1p(i), libm_log1p(static_cast<double>(r.at(r.size() - 1 - i).runtime)))
          << k << " " << i;  // exact, not near
    }
  }
}

TEST(LearnedInternals, CappedRuntimeSumIsTheSumOverTheKeptRuns) {
  // Tracked from the start, tracked from the fourth run on, never tracked.
  RunRing tracked(5), late(5), plain(5);
  tracked.track_runtimes();
  EXPECT_EQ(tracked.capped_runtime_sum(100), 0);
  // Ends out of arrival order, and more runs than the ring keeps, so it wraps and drops.
  const std::int64_t ends[] = {10, 30, 20, 50, 40, 70, 60, 5, 80, 90, 75, 100};
  for (std::size_t k = 0; k < std::size(ends); ++k) {
    if (k == 3) late.track_runtimes(true);  // with the logs: those of the runs kept so far too
    for (RunRing* r : {&tracked, &late, &plain}) {
      r->add(predictor::Run{k + 1, 0, ends[k], 1000, static_cast<std::int64_t>(7 * k + 3)});
      for (std::int64_t cap : {1, 20, 50, 1000})
        EXPECT_EQ(r->capped_runtime_sum(cap), capped_sum_in_order(*r, cap)) << k;
      expect_newest_as_kept(*r, k);
    }
  }
  EXPECT_EQ(tracked.size(), 5u);
}

TEST(LearnedInternals, CappedRuntimeSumFollowsDropsOfTheLongestRun) {
  // The O(1) sum holds only while no kept run is longer than the cap, so the longest run
  // must be followed as runs are dropped: decreasing runtimes drop it on every add.
  RunRing r(7);
  r.track_runtimes(true);
  std::uint64_t state = 12345;
  for (std::uint64_t k = 1; k <= 300; ++k) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const std::int64_t end = static_cast<std::int64_t>(k < 150 ? k : (state >> 33) % 400);
    const std::int64_t runtime = k < 100 ? 1000 - static_cast<std::int64_t>(k) : static_cast<std::int64_t>((state >> 20) % 600);
    r.add(predictor::Run{k, 0, end, 1000, runtime});
    for (std::int64_t cap : {0, 50, 300, 599, 1000000})
      ASSERT_EQ(r.capped_runtime_sum(cap), capped_sum_in_order(r, cap)) << "run " << k << " cap " << cap;
    expect_newest_as_kept(r, k);
  }
}

TEST(LearnedInternals, NewestRunsFollowTinyRingsAndLateRuns) {
  // Rings smaller than the copies kept (1 and 2 runs), and runs arriving out of end order
  // into the newest positions and below them.
  for (std::size_t capacity : {1, 2, 3, 4, 30}) {
    RunRing r(capacity);
    r.track_runtimes(true);
    const std::int64_t ends[] = {100, 90, 110, 105, 105, 50, 120, 119, 118, 200};
    for (std::size_t k = 0; k < std::size(ends); ++k) {
      r.add(predictor::Run{k + 1, 0, ends[k], 1000, static_cast<std::int64_t>(11 * k + 1)});
      expect_newest_as_kept(r, capacity * 100 + k);
    }
  }
}

TEST(LearnedInternals, PrepareTakesTheLogOfEveryValue) {
  OnlineRegression model{LearnedSpec{}};  // target=log
  FeatureVector raw{};
  raw[kBias] = 1;
  raw[kEstimate] = 3600;
  raw[kLast1] = 3600;     // equal to the estimate (a capped run)
  raw[kLast2] = 1234.5;   // not whole
  raw[kLast3] = 1234.5;   // equal to the one before
  raw[kMean2] = 2417.25;
  raw[kMean3] = 255;      // whole and small: from the table
  raw[kMeanKept] = 256;   // just past the table
  raw[kProcs] = 64;
  raw[kPendingJobs] = 0;
  raw[kPendingProcs] = -3;  // never negative in use; taken as 0
  raw[kSinceLastEnd] = 604800;
  raw[kDayCos] = -0.5;
  const FeatureVector x = model.prepare(raw);
  for (std::size_t i : {kEstimate, kLast1, kLast2, kLast3, kMean2, kMean3, kMeanKept, kProcs, kPendingJobs,
                        kPendingProcs, kSinceLastEnd})
    EXPECT_EQ(x[i], libm_log1p(std::max(0.0, raw[i]))) << i;  // exact, not near
  EXPECT_EQ(x[kBias], 1.0);
  EXPECT_EQ(x[kDayCos], -0.5);
  EXPECT_EQ(x[kSpread], libm_log1p(3600.0) - libm_log1p(1234.5));
  // Known logs (a user's newest runtimes, as their ring keeps them) are taken for a recent
  // runtime equal to theirs, and only then: here deliberately wrong, to be seen.
  const std::int64_t runtimes[] = {3600, 1234, 99};
  const double wrong_logs[] = {-1.0, -2.0, -3.0};
  FeatureVector with_known = raw;
  with_known[kLast2] = 1234;  // the user's second newest, not capped
  with_known[kLast3] = 77;    // not the third newest (99): its own log
  const FeatureVector y = model.prepare(with_known, KnownLogs{3, runtimes, wrong_logs});
  EXPECT_EQ(y[kLast1], libm_log1p(3600.0));  // equal to the estimate: taken from it first
  EXPECT_EQ(y[kLast2], -2.0);
  EXPECT_EQ(y[kLast3], libm_log1p(77.0));
  EXPECT_EQ(model.prepare(with_known, KnownLogs{1, runtimes, wrong_logs})[kLast2], libm_log1p(1234.0));  // n = 1
  // Every whole number the table holds, and the first past it.
  for (int k = 0; k <= 256; ++k) {
    FeatureVector one{};
    one[kProcs] = k;
    EXPECT_EQ(model.prepare(one)[kProcs], libm_log1p(k)) << k;
  }
}

// One NAG step as online_regression.h writes it out, feature by feature (the library's
// step takes two features at a time where it can).
void written_out_step(OnlineRegression::State& st, const LearnedSpec& spec, const FeatureVector& x, double runtime,
                      double weight) {
  double ratio = 0;
  for (std::size_t i = 0; i < kFeatures; ++i) {
    const double a = std::fabs(x[i]);
    if (a > st.s[i]) {
      if (st.s[i] > 0) st.w[i] *= st.s[i] / a;
      st.s[i] = a;
    }
    if (st.s[i] > 0) ratio += (x[i] / st.s[i]) * (x[i] / st.s[i]);
  }
  st.n_sum += ratio;
  ++st.steps;
  if (st.n_sum <= 0) return;
  OnlineRegression at(spec);
  at.restore(st);
  const double error = at.score(x) - std::log1p(std::max(0.0, runtime));
  const double c = error < 0 ? spec.under : 1.0;
  const double sign = error < 0 ? -1.0 : error > 0 ? 1.0 : 0.0;
  const double step = spec.eta * std::sqrt(static_cast<double>(st.steps) / st.n_sum);
  const double dl = spec.loss == Loss::Squared ? 2.0 * weight * c * error : weight * c * sign;
  for (std::size_t i = 0; i < kFeatures; ++i) {
    const double g = dl * x[i];
    if (g == 0) continue;
    st.g[i] += g * g;
    st.w[i] -= step * g / (st.s[i] * std::sqrt(st.g[i]));
  }
}

TEST(LearnedInternals, UpdateIsTheWrittenOutStepBitForBit) {
  // Features zero in some steps (a masked lane) and growing in scale in others (rescaled
  // weights), both losses; the weights, scales and sums must agree exactly every step.
  for (const Loss loss : {Loss::Squared, Loss::Absolute}) {
    LearnedSpec spec;  // target=log
    spec.loss = loss;
    OnlineRegression model(spec);
    OnlineRegression::State ref;
    std::uint64_t r = 12345;
    auto next = [&r] { return (r = r * 6364136223846793005ULL + 1442695040888963407ULL) >> 33; };
    for (int step = 0; step < 2000; ++step) {
      FeatureVector x{};
      for (std::size_t i = 0; i < kFeatures; ++i)
        x[i] = next() % 4 == 0 ? 0.0 : static_cast<double>(next() % 100000) / (1 + step % 7) - 40.0;
      const double runtime = static_cast<double>(next() % 86400);
      const double weight = 1 + static_cast<double>(next() % 10);
      model.update(x, runtime, weight);
      written_out_step(ref, spec, x, runtime, weight);
      const auto& got = model.state();
      ASSERT_EQ(got.steps, ref.steps);
      ASSERT_EQ(got.n_sum, ref.n_sum) << step;
      for (std::size_t i = 0; i < kFeatures; ++i) {
        ASSERT_EQ(got.w[i], ref.w[i]) << "step " << step << " feature " << i;
        ASSERT_EQ(got.s[i], ref.s[i]) << "step " << step << " feature " << i;
        ASSERT_EQ(got.g[i], ref.g[i]) << "step " << step << " feature " << i;
      }
    }
  }
}

// SeenJobs as its comment defines it, without shortcuts: (end, arrival, id) sorted, the
// last kSeenIds kept; a job ending before everything kept in a full set is not stored.
struct PlainSeenJobs {
  std::vector<std::tuple<std::int64_t, std::uint64_t, std::uint64_t>> kept;
  std::uint64_t arrivals = 0;
  void insert(std::uint64_t id, std::int64_t end) {
    if (id == 0) return;
    if (kept.size() == SeenJobs::kSeenIds && end < std::get<0>(kept.front())) return;
    auto t = std::make_tuple(end, ++arrivals, id);
    kept.insert(std::upper_bound(kept.begin(), kept.end(), t), t);
    if (kept.size() > SeenJobs::kSeenIds) kept.erase(kept.begin());
  }
  bool contains(std::uint64_t id, std::int64_t end) const {
    if (id == 0) return false;
    if (kept.size() == SeenJobs::kSeenIds && end <= std::get<0>(kept.front())) return true;
    for (const auto& k : kept)
      if (std::get<2>(k) == id) return true;
    return false;
  }
};

TEST(LearnedInternals, SeenJobsKeepsTheLatestEndsInOrder) {
  // Mostly rising ends (the usual feed) with late and tied ones, more jobs than are kept,
  // ids repeating (re-imports); after every insert the kept list and answers agree.
  SeenJobs seen;
  PlainSeenJobs plain;
  std::uint64_t state = 987654321;
  for (std::uint64_t k = 1; k <= 2000; ++k) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const std::uint64_t r = state >> 33;
    const std::int64_t end = static_cast<std::int64_t>(10 * k) - (r % 4 == 0 ? static_cast<std::int64_t>(r % 3000) : 0);
    const std::uint64_t id = r % 7 == 0 ? 1 + r % k : k;
    seen.insert(id, end);
    plain.insert(id, end);
    ASSERT_EQ(seen.size(), plain.kept.size()) << k;
    for (std::size_t i = 0; i < seen.size(); ++i) {
      ASSERT_EQ(seen.end_at(i), std::get<0>(plain.kept[i])) << k << " " << i;
      ASSERT_EQ(seen.id_at(i), std::get<2>(plain.kept[i])) << k << " " << i;
    }
    for (std::uint64_t probe : {std::uint64_t{0}, id, 1 + r % (k + 5), k + 1})
      for (std::int64_t at : {end, end - 1500, static_cast<std::int64_t>(10 * k) + 10})
        ASSERT_EQ(seen.contains(probe, at), plain.contains(probe, at)) << k << " " << probe << " " << at;
  }
}

}  // namespace
}  // namespace easypp::predictor
