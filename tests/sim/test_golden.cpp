// Golden traces: hand-made SWF files whose start times are worked out in their header
// comments (tests/sim/data/*.swf), replayed through the real policies and predictor.
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "sim/simulator.h"
#include "sim_test_support.h"

namespace easypp::sim {
namespace {

using testing::job;
using testing::load;
using testing::run;
using testing::TraitsOverride;

TEST(Golden, InvariantsAreCheckedInTests) {
  // The tests link the library built with EASYPP_SIM_CHECKS; without it the golden
  // traces would not exercise the per-event invariants.
  EXPECT_TRUE(invariants_checked());
}

TEST(Golden, Fig1EasyBackfillsOnlyJobsThatKeepTheReservation) {
  Workload w = load("fig1_easy.swf");
  measure::SimOutcome o = run(w, "easy");
  EXPECT_EQ(job(w, o, 1).start, 0);
  EXPECT_EQ(job(w, o, 2).start, 0);
  EXPECT_EQ(job(w, o, 3).start, 10);
  EXPECT_EQ(job(w, o, 3).first_reservation, 10);
  EXPECT_EQ(job(w, o, 4).start, 15);
  EXPECT_EQ(job(w, o, 5).start, 2);
  EXPECT_TRUE(job(w, o, 5).backfilled);
  EXPECT_FALSE(job(w, o, 4).backfilled);
  EXPECT_FALSE(job(w, o, 3).backfilled);
}

TEST(Golden, Fig1WithoutBackfillingJob5Waits) {
  Workload w = load("fig1_easy.swf");
  measure::SimOutcome o = run(w, "fcfs");
  EXPECT_EQ(job(w, o, 3).start, 10);
  EXPECT_EQ(job(w, o, 4).start, 15);
  EXPECT_EQ(job(w, o, 5).start, 15);
}

TEST(Golden, Fig5CorrectionReenablesBackfilling) {
  Workload w = load("fig5_correction.swf");
  measure::SimOutcome corrected = run(w, "easy+");
  EXPECT_EQ(job(w, corrected, 3).start, 10);
  EXPECT_EQ(job(w, corrected, 4).first_reservation, 12);  // job 3's (under)predicted end
  EXPECT_EQ(job(w, corrected, 4).start, 30);
  EXPECT_EQ(job(w, corrected, 5).start, 13);
  EXPECT_TRUE(job(w, corrected, 5).backfilled);
  EXPECT_EQ(job(w, corrected, 3).corrections, 1);
  // Delayed beyond its first reservation by job 3's underprediction: 30 - 12.
  EXPECT_EQ(job(w, corrected, 4).start - job(w, corrected, 4).first_reservation, 18);
}

TEST(Golden, Fig5WithoutCorrectionBackfillingStops) {
  Workload w = load("fig5_correction.swf");
  auto easy_plus = make_policy("easy+");
  PolicyTraits no_correction = easy_plus->traits();
  ASSERT_TRUE(no_correction.correct_predictions);
  no_correction.correct_predictions = false;
  TraitsOverride uncorrected(std::move(easy_plus), no_correction);
  measure::SimOutcome o = run(w, uncorrected);
  EXPECT_EQ(job(w, o, 3).start, 10);
  EXPECT_EQ(job(w, o, 4).first_reservation, 12);
  EXPECT_EQ(job(w, o, 4).start, 30);
  EXPECT_EQ(job(w, o, 5).start, 35);  // not backfilled: it waits behind job 4
  EXPECT_FALSE(job(w, o, 5).backfilled);
  EXPECT_EQ(job(w, o, 3).corrections, 0);
}

TEST(Golden, Fig8X2HeelAndToeStallsJob3) {
  Workload w = load("fig8_x2.swf");
  measure::SimOutcome o = run(w, "x2");
  EXPECT_EQ(job(w, o, 4).start, 4);
  EXPECT_EQ(job(w, o, 5).start, 6);
  EXPECT_EQ(job(w, o, 6).start, 8);
  const measure::JobOutcome& j3 = job(w, o, 3);
  EXPECT_EQ(j3.first_reservation, 12);
  EXPECT_EQ(j3.first_perfect_start, 6);
  EXPECT_EQ(j3.pushbacks, 3);
  EXPECT_EQ(j3.start, 10);
}

// The first thief can come in the pass that makes a job the head: its first earliest
// start is taken before that pass's backfills (it read 13, with no push-back).
TEST(Golden, ThiefInThePassThatMakesTheHeadIsCounted) {
  Workload w = load("thief_same_pass.swf");
  measure::SimOutcome o = run(w, "easy");
  EXPECT_EQ(job(w, o, 2).start, 5);
  EXPECT_EQ(job(w, o, 4).start, 5);
  EXPECT_TRUE(job(w, o, 4).backfilled);
  const measure::JobOutcome& j3 = job(w, o, 3);
  EXPECT_EQ(j3.first_reservation, 15);
  EXPECT_EQ(j3.first_perfect_start, 9);
  EXPECT_EQ(j3.pushbacks, 1);
  EXPECT_EQ(j3.start, 13);
}

TEST(Golden, Fig8EasyDoesNotStallJob3) {
  Workload w = load("fig8_x2.swf");
  measure::SimOutcome o = run(w, "easy");
  const measure::JobOutcome& j3 = job(w, o, 3);
  EXPECT_EQ(j3.first_reservation, 6);
  EXPECT_EQ(j3.first_perfect_start, 6);
  EXPECT_EQ(j3.pushbacks, 0);
  EXPECT_EQ(j3.start, 6);
  EXPECT_EQ(job(w, o, 6).start, 4);  // the one job short enough to backfill
  EXPECT_TRUE(job(w, o, 6).backfilled);
}

TEST(Golden, EasyBackfillsInQueueOrder) {
  Workload w = load("sjbf.swf");
  measure::SimOutcome o = run(w, "easy");
  EXPECT_EQ(job(w, o, 2).start, 10);
  EXPECT_EQ(job(w, o, 3).start, 2);
  EXPECT_EQ(job(w, o, 4).start, 15);
}

TEST(Golden, SjbfBackfillsTheShortestFirst) {
  Workload w = load("sjbf.swf");
  measure::SimOutcome o = run(w, "easy-sjbf");
  EXPECT_EQ(job(w, o, 2).start, 10);
  EXPECT_EQ(job(w, o, 4).start, 2);
  EXPECT_EQ(job(w, o, 3).start, 15);
}

TEST(Golden, CorrectionSequenceBeyondTheEstimate) {
  Workload w = load("correction_sequence.swf");
  auto pcor = make_policy("easy-pcor");
  PolicyTraits traits = pcor->traits();
  TraitsOverride watched(std::move(pcor), traits);
  // (time, job 1's prediction, its corrections) at every pass while job 1 runs.
  std::vector<std::tuple<Time, Time, int>> seen;
  watched.watch = [&](const ClusterState& s) {
    for (const RunningJob& r : s.running) {
      if (r.job.id == w.jobs[0].job.id) seen.emplace_back(s.now, r.job.prediction, r.job.corrections);
    }
  };
  measure::SimOutcome o = run(w, watched);
  const std::vector<std::tuple<Time, Time, int>> expected = {
      {1, 600, 0},       {600, 660, 1},      {660, 660 + 900, 2},
      {1560, 1560 + 1800, 3}, {3360, 3360 + 3600, 4}};
  EXPECT_EQ(seen, expected);
  const measure::JobOutcome& j1 = job(w, o, 1);
  EXPECT_EQ(j1.end, 4000);
  EXPECT_EQ(j1.corrections, 4);
  EXPECT_EQ(job(w, o, 2).start, 4000);
  // Time-weighted accuracy over [0, 4000): each prediction P against T_r = 4000.
  const double expected_accuracy =
      (600.0 / 4000 * 600 + 660.0 / 4000 * 60 + 1560.0 / 4000 * 900 + 3360.0 / 4000 * 1800 +
       4000.0 / 6960 * 640) /
      4000.0;
  EXPECT_NEAR(j1.accuracy, expected_accuracy, 1e-12);
}

TEST(Golden, CorrectionChainPushesTheHeadPastEveryKillTime) {
  Workload w = load("correction_chain.swf");
  measure::SimOutcome o = run(w, "easy++");
  EXPECT_EQ(job(w, o, 4).first_reservation, 25);  // job 3's end: its promise on kill times too
  // Three backfills, each predicted to end by the head's reservation, each corrected to
  // its limit: the reservation moves 25 -> 37 -> 56 -> 68.
  for (JobId id : {5, 6, 7}) {
    EXPECT_TRUE(job(w, o, id).backfilled) << id;
    EXPECT_EQ(job(w, o, id).corrections, 1) << id;
  }
  EXPECT_EQ(job(w, o, 5).start, 7);
  EXPECT_EQ(job(w, o, 6).start, 26);
  EXPECT_EQ(job(w, o, 7).start, 38);
  EXPECT_EQ(job(w, o, 7).prediction_at_start, 16);  // user 1's last two runs: 2 and 30
  EXPECT_EQ(job(w, o, 4).start, 68);
  // Later than the limit of every job running when it became the head (job 3: 25) and
  // than that of the first corrected backfill (job 5: 37).
  EXPECT_GT(job(w, o, 4).start, 37);
}

TEST(Golden, CorrectionChainEasyAndTheGuards) {
  Workload w = load("correction_chain.swf");
  measure::SimOutcome easy = run(w, "easy");
  measure::SimOutcome always = run(w, "easy++:bound=0:guard=always");
  measure::SimOutcome slipped = run(w, "easy++:bound=0:guard=slipped");
  const std::vector<std::pair<JobId, Time>> easy_starts = {{4, 25}, {5, 30}, {6, 30}, {7, 60}};
  for (auto [id, start] : easy_starts) {
    EXPECT_EQ(job(w, easy, id).start, start) << id;
    EXPECT_EQ(job(w, always, id).start, start) << id;  // EASY's promise kept from the first pass
    EXPECT_FALSE(job(w, always, id).backfilled) << id;
  }
  // guard=slipped: job 5 backfilled as under easy++; from its correction at 9 the head is
  // guarded with deadline 37, job 6 (limit 56) no longer backfills.
  EXPECT_TRUE(job(w, slipped, 5).backfilled);
  EXPECT_EQ(job(w, slipped, 5).start, 7);
  EXPECT_EQ(job(w, slipped, 4).start, 37);
  EXPECT_EQ(job(w, slipped, 6).start, 42);
  EXPECT_EQ(job(w, slipped, 7).start, 42);
  EXPECT_FALSE(job(w, slipped, 6).backfilled);
}

TEST(Golden, RuntimeCapKillsAtTheEstimate) {
  Workload w = load("correction_sequence.swf");
  measure::SimOutcome o = run(w, "easy-pcor", SimOptions{RuntimeMode::cap});
  const measure::JobOutcome& j1 = job(w, o, 1);
  EXPECT_EQ(j1.end, 600);
  EXPECT_EQ(j1.runtime, 600);
  EXPECT_TRUE(j1.killed_at_limit);
  EXPECT_EQ(j1.corrections, 0);
  EXPECT_EQ(job(w, o, 2).start, 600);
}

}  // namespace
}  // namespace easypp::sim
