// Several threads on one handle: predict/learn/correct/save stay consistent (run this
// binary under the sanitizer build too).
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <thread>
#include <vector>

#include "predictor_fixture.h"

namespace easypp::test {
namespace {

TEST(Concurrency, ThreadsHammeringOneHandle) {
  auto p = make_predictor("history:type=extended,window=3");
  constexpr int kThreads = 4, kJobs = 5000;
  std::atomic<int> learnt{0}, bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kJobs; ++i) {
        // Threads share users 0..9; job ids are unique per thread.
        std::uint64_t id = static_cast<std::uint64_t>(t) * kJobs + i + 1;
        epp_job j = job(id, static_cast<std::uint32_t>(i % 10), 600 * (1 + i % 4), 1000 + i);
        std::int64_t pred = epp_predict(p.get(), &j);
        if (pred < 1 || pred > j.estimate) ++bad;
        std::int64_t next = epp_correct(p.get(), &j, pred, pred, 0);
        if (next <= pred) ++bad;
        learnt += epp_learn(p.get(), &j, 2000 + i, 2000 + i + (i % 500), EPP_END_COMPLETED);
        if (i % 1000 == 0) epp_predictor_records(p.get());
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(epp_predictor_users(p.get()), 10u);
  EXPECT_EQ(epp_predictor_records(p.get()), 10u * 30u);
  // How many are learnt depends on the interleaving (a run ending before everything in a
  // user's full seen set counts as already known), but none is learnt twice.
  EXPECT_GE(learnt.load(), 300);
  EXPECT_LE(learnt.load(), kThreads * kJobs);
  int again = 0;
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kJobs; ++i) {
      epp_job j = job(static_cast<std::uint64_t>(t) * kJobs + i + 1, static_cast<std::uint32_t>(i % 10), 600);
      again += epp_learn(p.get(), &j, 2000 + i, 2000 + i + (i % 500), EPP_END_COMPLETED);
    }
  EXPECT_EQ(again, 0);
}

TEST(Concurrency, SavingWhileOthersLearn) {
  auto p = make_predictor("");
  std::string path = (std::filesystem::temp_directory_path() / ("epp-conc-" + std::to_string(::getpid()))).string();
  std::atomic<bool> stop{false};
  std::thread learner([&] {
    for (int i = 1; !stop; ++i) teach(p.get(), i, i % 50, 3600, 100, 10000 + i);
  });
  char err[256];
  for (int k = 0; k < 20; ++k) ASSERT_EQ(epp_save(p.get(), path.c_str(), err, sizeof err), 0) << err;
  stop = true;
  learner.join();
  auto q = make_predictor("");
  EXPECT_EQ(epp_load(q.get(), path.c_str(), err, sizeof err), EPP_LOAD_OK) << err;
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace easypp::test
