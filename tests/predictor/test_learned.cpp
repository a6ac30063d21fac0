// The `learned` predictor (issue 16): an online linear model trained by NAG steps on the
// asymmetric E-Loss of Gaussier, Glesser, Reis and Trystram (SC 2015). The gradient steps
// below were worked out by hand (and checked with a calculator) from the update rule in
// predictor/online_regression.h.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "predictor_fixture.h"

namespace easypp::test {
namespace {

namespace fs = std::filesystem;

epp_job job_at(std::uint64_t id, std::uint32_t user, std::int64_t estimate, std::int64_t submit, std::int32_t procs = 1) {
  epp_job j = job(id, user, estimate, submit);
  j.procs = procs;
  return j;
}

// Only the bias and the estimate are features (features=estimate), so the base
// prediction is the estimate E and the model is E + w0 * 1 + w8 * E; seconds target,
// weight 1, under-prediction 4 times as costly, eta = 10 s.
constexpr const char* kTiny = "learned:target=seconds,features=estimate,weight=one,under=4,eta=10";

TEST(Learned, HandComputedGradientSteps) {
  auto p = make_predictor(kTiny);
  // A fresh model predicts the base: the estimate.
  epp_job a = job_at(1, 7, 100, 0);
  EXPECT_EQ(epp_predict(p.get(), &a), 100);
  // Job 1 (E = 100) runs 40 s. x = (1, 100): s = (1, 100) (first sight, no rescale),
  // N = 1 + 1 = 2, t = 1, step = 10 * sqrt(1/2) = 7.0711. Error = 100 - 40 = 60 (over,
  // c = 1): g = 2 * 60 * x = (120, 12000), G = g^2, so each weight moves by
  // step / s_i: w0 = -7.0711, w8 = -7.0711 / 100 = -0.070711.
  ASSERT_EQ(epp_learn(p.get(), &a, 10, 50, EPP_END_COMPLETED), 1);
  // E = 100: 100 - 7.0711 - 7.0711 = 85.86 -> 86.
  epp_job probe = job_at(0, 7, 100, 60);  // id 0: predicted, not remembered
  EXPECT_EQ(epp_predict(p.get(), &probe), 86);
  // Job 2 (E = 200): 200 - 7.0711 - 0.070711 * 200 = 178.79 -> 179.
  epp_job b = job_at(2, 7, 200, 60);
  EXPECT_EQ(epp_predict(p.get(), &b), 179);
  // It runs 190 s. |x8| = 200 > s8 = 100: w8 *= 100/200 -> -0.035355, s8 = 200. N = 4,
  // t = 2, step = 10 * sqrt(2/4) = 7.0711. Prediction 200 - 7.0711 - 7.0711 = 185.858,
  // error -4.1421 (under: c = 4): g0 = 2*4*(-4.1421) = -33.137, G0 = 14400 + 1098.07 =
  // 15498.07, w0 += 7.0711 * 33.137 / sqrt(15498.07) = 1.8822 -> -5.1889;
  // g8 = -33.137 * 200 = -6627.4, G8 = 1.44e8 + 4.3923e7 = 1.87923e8,
  // w8 += 7.0711 * 6627.4 / (200 * 13708.5) = 0.017093 -> -0.018263.
  ASSERT_EQ(epp_learn(p.get(), &b, 100, 290, EPP_END_COMPLETED), 1);
  // E = 200: 200 - 5.1889 - 3.6525 = 191.16 -> 191; E = 100: 100 - 5.1889 - 1.8263 = 92.98 -> 93.
  epp_job c = job_at(3, 7, 200, 300);
  EXPECT_EQ(epp_predict(p.get(), &c), 191);
  epp_job d = job_at(4, 7, 100, 300);
  EXPECT_EQ(epp_predict(p.get(), &d), 93);
  // One model for all users: another user gets the same.
  epp_job e = job_at(5, 8, 100, 300);
  EXPECT_EQ(epp_predict(p.get(), &e), 93);
}

TEST(Learned, HandComputedAbsoluteLossSteps) {
  // loss=absolute: the gradient is w_j * c * sign(error) * x_i, so NAG's steps depend on
  // the error's side, not its size. Same setting as kTiny; worked out by hand.
  auto run = [](const char* spec, std::int64_t second_runtime) {
    auto p = make_predictor(spec);
    epp_job a = job_at(1, 7, 100, 0);
    EXPECT_EQ(epp_predict(p.get(), &a), 100);
    // Job 1 runs 40 s (over by 60, sign +1): g = (1, 100), G = (1, 10^4), step =
    // 10 * sqrt(1/2) = 7.0711: w0 = -7.0711, w8 = -0.070711, as with the squared loss
    // (a first NAG step has the same size whatever the gradient's).
    EXPECT_EQ(epp_learn(p.get(), &a, 10, 50, EPP_END_COMPLETED), 1);
    epp_job b = job_at(2, 7, 200, 60);
    EXPECT_EQ(epp_predict(p.get(), &b), 179);  // 200 - 7.0711 - 14.142
    EXPECT_EQ(epp_learn(p.get(), &b, 100, 100 + second_runtime, EPP_END_COMPLETED), 1);
    epp_job c = job_at(3, 7, 200, 300), d = job_at(4, 7, 100, 300);
    return std::make_pair(epp_predict(p.get(), &c), epp_predict(p.get(), &d));
  };
  // Job 2 (E = 200): w8 *= 100/200 -> -0.035355, s8 = 200, N = 4, t = 2, step = 7.0711,
  // prediction 185.858. Runs 100 s (over, c = 1): g = (1, 200), G0 = 2, G8 = 50000:
  // w0 -= 7.0711 / sqrt(2) = 5 -> -12.0711; w8 -= 7.0711 * 200 / (200 * 223.607) =
  // 0.031623 -> -0.066978. E = 200: 200 - 12.0711 - 13.3956 = 174.53 -> 175;
  // E = 100: 100 - 12.0711 - 6.6978 = 81.23 -> 81.
  EXPECT_EQ(run("learned:target=seconds,features=estimate,under=4,eta=10,loss=absolute", 100),
            std::make_pair(std::int64_t{175}, std::int64_t{81}));
  // Runs 190 s (under by 4.142) with under=1: g = (-1, -200), the same sizes: w0 = -2.0711,
  // w8 = -0.003732: E = 200: 200 - 2.0711 - 0.7464 = 197.18 -> 197; E = 100: 97.56 -> 98.
  EXPECT_EQ(run("learned:target=seconds,features=estimate,under=1,eta=10,loss=absolute", 190),
            std::make_pair(std::int64_t{197}, std::int64_t{98}));
  // With under=4, c = 4: g0 = -4, G0 = 17, w0 += 7.0711 * 4 / sqrt(17) = 6.8600 -> -0.2111;
  // g8 = -800, G8 = 650000, w8 += 7.0711 * 800 / (200 * 806.23) = 0.035082 -> -0.000273:
  // both predictions round to the estimate (199.73 -> 200, 99.76 -> 100).
  EXPECT_EQ(run("learned:target=seconds,features=estimate,under=4,eta=10,loss=absolute", 190),
            std::make_pair(std::int64_t{200}, std::int64_t{100}));
}

TEST(Learned, LearnsFromTheFeaturesItPredictedWith) {
  // Job 2 is predicted while job 1 is not yet learnt; what job 2 teaches must not depend
  // on job 1 having ended since (the pending features are used), so both orders of
  // predicting a third job after the same learns agree with a run that re-predicts.
  auto p = make_predictor("learned:target=seconds,eta=10");
  auto q = make_predictor("learned:target=seconds,eta=10");
  epp_job j1 = job_at(1, 7, 1000, 0), j2 = job_at(2, 7, 1000, 5);
  epp_predict(p.get(), &j1);
  epp_predict(p.get(), &j2);
  epp_predict(q.get(), &j1);
  epp_predict(q.get(), &j2);
  epp_predict(q.get(), &j2);  // a re-prediction with the same state changes nothing
  for (auto* m : {p.get(), q.get()}) {
    epp_learn(m, &j1, 10, 400, EPP_END_COMPLETED);
    epp_learn(m, &j2, 20, 900, EPP_END_COMPLETED);
  }
  epp_job j3 = job_at(3, 7, 1000, 1000);
  EXPECT_EQ(epp_predict(p.get(), &j3), epp_predict(q.get(), &j3));
}

TEST(Learned, NeverAboveTheKillTimeAndAtLeastOneSecond) {
  // Heavily penalised under-prediction pushes predictions up; they stop at the estimate.
  auto p = make_predictor("learned:under=1000,eta=1000");
  for (std::uint64_t i = 1; i <= 200; ++i) {
    epp_job j = job_at(i, 7, i % 2 ? 60 : 36000, static_cast<std::int64_t>(i) * 100, 4);
    const std::int64_t pred = epp_predict(p.get(), &j);
    EXPECT_GE(pred, 1);
    EXPECT_LE(pred, j.estimate);
    epp_learn(p.get(), &j, j.submit, j.submit + (i % 2 ? 60 : 36000), EPP_END_COMPLETED);
  }
  // Correction beyond the estimate is the only way past it (the paper's post-estimate rule).
  epp_job j = job_at(999, 7, 600, 100000);
  EXPECT_GT(epp_correct(p.get(), &j, 600, 600, 0), 600);
}

TEST(Learned, DeterministicForAGivenInput) {
  auto run = [] {
    auto p = make_predictor("learned");
    std::uint64_t sum = 0;  // a hash of every prediction (unsigned: wraps)
    for (std::uint64_t i = 1; i <= 500; ++i) {
      epp_job j = job_at(i, static_cast<std::uint32_t>(i % 7), 600 * static_cast<std::int64_t>(1 + i % 5),
                         static_cast<std::int64_t>(i) * 37, static_cast<std::int32_t>(1 + i % 16));
      sum = sum * 31 + static_cast<std::uint64_t>(epp_predict(p.get(), &j));
      epp_learn(p.get(), &j, j.submit + 5, j.submit + 5 + static_cast<std::int64_t>((i * 7919) % j.estimate),
                EPP_END_COMPLETED);
    }
    return sum;
  };
  EXPECT_EQ(run(), run());
}

TEST(Learned, SpecKeysAndCanonicalForm) {
  auto p = make_predictor("learned");
  EXPECT_STREQ(epp_predictor_spec(p.get()),
               "learned:target=log,under=4,loss=squared,weight=one,eta=0.3,features=recent+estimate+procs+load+time,"
               "correction=estimate,scale=1,learn=finished,failed_min=60");
  // ';' separates items too (Slurm's SchedulerParameters splits at commas).
  auto q = make_predictor("learned:under=2;features=time+recent;weight=one");
  EXPECT_STREQ(epp_predictor_spec(q.get()),
               "learned:target=log,under=2,loss=squared,weight=one,eta=0.3,features=recent+time,"
               "correction=estimate,scale=1,learn=finished,failed_min=60");
  char err[256] = "";
  EXPECT_EQ(epp_predictor_new("learned:features=recent+recent", err, sizeof err), nullptr);
  EXPECT_STREQ(err, "predictor spec: features=recent+recent: bad value (allowed: groups joined by '+': recent, "
                    "estimate, procs, load, time)");
  EXPECT_EQ(epp_predictor_new("learned:loss=huber", err, sizeof err), nullptr);
  EXPECT_STREQ(err, "predictor spec: loss=huber: bad value (allowed: squared, absolute)");
  EXPECT_EQ(epp_predictor_new("learned:under=0", err, sizeof err), nullptr);
  EXPECT_STREQ(err, "predictor spec: under=0: bad value (allowed: a number >= 0.01 and <= 1000)");
  EXPECT_EQ(epp_predictor_new("learned:window=2", err, sizeof err), nullptr);
  EXPECT_STREQ(err, "predictor spec: window=2: unknown key for learned (allowed: target, under, loss, weight, eta, "
                    "features, correction, scale, learn, failed_min)");
  EXPECT_EQ(epp_predictor_propagates(p.get()), 0);
  EXPECT_EQ(epp_predictor_needs_workload(p.get()), 0);
}

TEST(Learned, ThreadsShareOneHandle) {
  // slurmctld's threads may predict and learn on one handle at once (one lock per handle).
  auto p = make_predictor("learned");
  std::vector<std::thread> threads;
  for (std::uint32_t t = 0; t < 4; ++t)
    threads.emplace_back([&p, t] {
      for (std::uint64_t i = 1; i <= 2000; ++i) {
        epp_job j = job_at(t * 100000 + i, t, 3600, static_cast<std::int64_t>(i) * 10);
        const std::int64_t pred = epp_predict(p.get(), &j);
        EXPECT_TRUE(pred >= 1 && pred <= 3600);
        epp_learn(p.get(), &j, j.submit, j.submit + static_cast<std::int64_t>(i % 3000), EPP_END_COMPLETED);
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(epp_predictor_users(p.get()), 4u);
  EXPECT_EQ(epp_predictor_records(p.get()), 4u * 30u);  // each user's ring of 30
}

class LearnedState : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "epp-learned-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    path_ = (dir_ / "state.json").string();
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string read() {
    std::ifstream in(path_, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  fs::path dir_;
  std::string path_;
  char err_[512] = "";
};

// Feeds jobs [from, to) of a fixed synthetic stream; leaves job `to` predicted, not ended.
std::uint64_t feed(epp_predictor* p, std::uint64_t from, std::uint64_t to) {
  std::uint64_t sum = 0;  // a hash of every prediction (unsigned: wraps)
  for (std::uint64_t i = from; i <= to; ++i) {
    epp_job j = job_at(i, static_cast<std::uint32_t>(i % 3), 600 * static_cast<std::int64_t>(1 + i % 4),
                       static_cast<std::int64_t>(i) * 100, static_cast<std::int32_t>(1 + i % 8));
    sum = sum * 31 + static_cast<std::uint64_t>(epp_predict(p, &j));
    if (i < to) epp_learn(p, &j, j.submit + 10, j.submit + 10 + static_cast<std::int64_t>((i * 131) % j.estimate),
                          EPP_END_COMPLETED);
  }
  return sum;
}

TEST_F(LearnedState, RoundTripContinuesExactlyAsWithoutARestart) {
  const std::string spec = "learned:eta=0.3";
  auto a = make_predictor(spec), straight = make_predictor(spec);
  feed(a.get(), 1, 50);
  feed(straight.get(), 1, 50);
  ASSERT_EQ(epp_save(a.get(), path_.c_str(), err_, sizeof err_), 0) << err_;
  EXPECT_NE(read().find("\"schema\":2"), std::string::npos);
  EXPECT_NE(read().find("\"learned\":"), std::string::npos);
  auto b = make_predictor(spec);
  ASSERT_EQ(epp_load(b.get(), path_.c_str(), err_, sizeof err_), EPP_LOAD_OK) << err_;
  // Job 50 was pending at the save: its features came back too. Weights, NAG sums and
  // histories make the restarted predictor continue exactly like the one never stopped.
  EXPECT_EQ(feed(b.get(), 50, 120), feed(straight.get(), 50, 120));
  EXPECT_EQ(epp_predictor_records(b.get()), epp_predictor_records(straight.get()));
}

TEST_F(LearnedState, PredictedUsersWithoutARunAreNotUsersWithHistory) {
  // A predicted job is remembered as pending under its user; until one of the user's jobs
  // teaches, the user has no history: not counted or listed, no runs, and saved only as a
  // pending job, which comes back and is learnt from the features it was predicted with.
  const std::string spec = "learned:target=seconds,eta=10";
  auto a = make_predictor(spec), straight = make_predictor(spec);
  // Job 9 stays pending throughout: job 1's saved features count it as the user's load.
  epp_job j9 = job_at(9, 7, 1000, 0), j1 = job_at(1, 7, 1000, 0), j2 = job_at(2, 8, 1000, 0);
  for (auto* m : {a.get(), straight.get()}) {
    epp_predict(m, &j9);
    epp_predict(m, &j1);
    epp_predict(m, &j2);
    epp_learn(m, &j2, 0, 100, EPP_END_CANCELLED);  // ends without teaching
  }
  std::uint32_t ids[4] = {};
  EXPECT_EQ(epp_predictor_users(a.get()), 0u);
  EXPECT_EQ(epp_predictor_user_ids(a.get(), ids, 4), 0u);
  EXPECT_EQ(epp_user_runs(a.get(), 7, nullptr, 0), 0u);
  ASSERT_EQ(epp_save(a.get(), path_.c_str(), err_, sizeof err_), 0) << err_;
  EXPECT_NE(read().find("\"users\":[]"), std::string::npos) << read();
  EXPECT_NE(read().find("],[7,1,0,1,"), std::string::npos) << read();  // after job 9
  auto b = make_predictor(spec);
  ASSERT_EQ(epp_load(b.get(), path_.c_str(), err_, sizeof err_), EPP_LOAD_OK) << err_;
  EXPECT_EQ(epp_predictor_users(b.get()), 0u);
  // The same learn after the restart: user 7 now has a history, and the model moved as
  // in the predictor never stopped.
  for (auto* m : {b.get(), straight.get()}) epp_learn(m, &j1, 0, 300, EPP_END_COMPLETED);
  EXPECT_EQ(epp_predictor_users(b.get()), 1u);
  ASSERT_EQ(epp_predictor_user_ids(b.get(), ids, 4), 1u);
  EXPECT_EQ(ids[0], 7u);
  epp_job j3 = job_at(3, 7, 1000, 500);
  EXPECT_EQ(epp_predict(b.get(), &j3), epp_predict(straight.get(), &j3));
}

// An SWF "unknown" processor count (-1) was kept as a pending job's load of -1 and saved
// so; the loader refuses negative counts, so the next start set the whole state aside.
// Now a pending job counts at least one processor, as the processor feature does, and a
// file from before loads with -1 read as 1.
TEST_F(LearnedState, UnknownProcessorCountsSurviveARestart) {
  const std::string spec = "learned:target=seconds,eta=10";
  auto a = make_predictor(spec), one = make_predictor(spec);
  epp_job unknown = job_at(5, 7, 1000, 0, -1), known = job_at(5, 7, 1000, 0, 1);
  epp_predict(a.get(), &unknown);
  epp_predict(one.get(), &known);
  ASSERT_EQ(epp_save(a.get(), path_.c_str(), err_, sizeof err_), 0) << err_;
  EXPECT_NE(read().find("[7,5,0,1,"), std::string::npos) << read();
  auto b = make_predictor(spec);
  ASSERT_EQ(epp_load(b.get(), path_.c_str(), err_, sizeof err_), EPP_LOAD_OK) << err_;
  // The same job 6 behind it: job 5's load counts one processor, with -1 or 1 asked.
  epp_job next = job_at(6, 7, 1000, 10);
  EXPECT_EQ(epp_predict(b.get(), &next), epp_predict(one.get(), &next));
  // A file written before the fix (procs -1 in a pending row) loads, -1 read as 1.
  std::string old = read();
  old.replace(old.find("[7,5,0,1,"), 9, "[7,5,0,-1,");
  std::ofstream(path_, std::ios::binary | std::ios::trunc) << old;
  auto c = make_predictor(spec);
  ASSERT_EQ(epp_load(c.get(), path_.c_str(), err_, sizeof err_), EPP_LOAD_OK) << err_;
  EXPECT_EQ(epp_predict(c.get(), &next), epp_predict(one.get(), &next));
}

TEST_F(LearnedState, OldSchemaFileLoadsWithAFreshModel) {
  // A schema-1 file (written by a history predictor, as every library before schema 2
  // wrote): the learned predictor keeps its histories and starts its weights fresh.
  auto h = make_predictor("");
  teach(h.get(), 1, 7, 3600, 900, 10000);
  teach(h.get(), 2, 7, 3600, 1100, 10100);
  ASSERT_EQ(epp_save(h.get(), path_.c_str(), err_, sizeof err_), 0) << err_;
  EXPECT_NE(read().find("\"schema\":1"), std::string::npos);
  auto p = make_predictor("learned");
  ASSERT_EQ(epp_load(p.get(), path_.c_str(), err_, sizeof err_), EPP_LOAD_OK) << err_;
  EXPECT_EQ(epp_predictor_records(p.get()), 2u);
  // Fresh weights: the base, EASY++'s mean of the last two runs: (900 + 1100) / 2.
  epp_job j = job_at(3, 7, 3600, 20000);
  EXPECT_EQ(epp_predict(p.get(), &j), 1000);
  // And a history predictor reads a schema-2 file (it ignores the model).
  auto l = make_predictor("learned");
  feed(l.get(), 1, 20);
  ASSERT_EQ(epp_save(l.get(), path_.c_str(), err_, sizeof err_), 0) << err_;
  auto h2 = make_predictor("");
  EXPECT_EQ(epp_load(h2.get(), path_.c_str(), err_, sizeof err_), EPP_LOAD_OK) << err_;
}

TEST_F(LearnedState, ModelOfAnotherShapeIsNotReused) {
  auto a = make_predictor("learned:features=recent");
  feed(a.get(), 1, 40);
  ASSERT_EQ(epp_save(a.get(), path_.c_str(), err_, sizeof err_), 0) << err_;
  auto b = make_predictor("learned:features=recent+estimate");
  ASSERT_EQ(epp_load(b.get(), path_.c_str(), err_, sizeof err_), EPP_LOAD_OK) << err_;
  // Same histories, fresh weights: the base, the mean of the user's last two runs, as the
  // history predictor computes it from the same file.
  epp_job j = job_at(1000, 1, 3600, 50000);
  auto base = make_predictor("history");  // the base: mean of the last two runs
  ASSERT_EQ(epp_load(base.get(), path_.c_str(), err_, sizeof err_), EPP_LOAD_OK) << err_;
  EXPECT_EQ(epp_predict(b.get(), &j), epp_predict(base.get(), &j));
}

TEST_F(LearnedState, BadModelNamesItsPlace) {
  std::ofstream(path_) << R"({"format":"easypp-predictor-state","schema":2,"spec":"","users":[],)"
                          R"("learned":{"shape":"target=log,features=recent+estimate+procs+load+time",)"
                          R"("steps":1,"n_sum":1,"w":[1,2],"s":[],"g":[],"pending":[]}})";
  auto p = make_predictor("learned");
  EXPECT_EQ(epp_load(p.get(), path_.c_str(), err_, sizeof err_), EPP_LOAD_CORRUPT);
  EXPECT_NE(std::string(err_).find("learned.w: expected 17 finite numbers"), std::string::npos) << err_;
}

}  // namespace
}  // namespace easypp::test
