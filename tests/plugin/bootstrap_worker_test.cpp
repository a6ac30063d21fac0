// The history bootstrap's query off the scheduling thread (BootstrapWorker): the window
// asked a day at a time, exactly covered; the jobs gathered oldest end first, a job
// outside its day's range dropped (slurmdbd lists a job in every day it ran); a failed day
// ends the query; passes are not held while it runs; a stop waits for one day at most.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "plugin/bootstrap_worker.h"

namespace easypp::plugin {
namespace {

using namespace std::chrono_literals;
constexpr Time kNow = 1'700'000'000;
constexpr Time kDay = BootstrapWorker::kDay;

FinishedJob ended(std::uint64_t id, Time end) {
  FinishedJob f;
  f.job.id = id;
  f.end = end;
  return f;
}

template <typename Pred>
bool eventually(Pred pred) {
  const auto deadline = std::chrono::steady_clock::now() + 2s;
  while (!pred() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
  return pred();
}

std::optional<BootstrapWorker::Result> wait_result(BootstrapWorker& w) {
  if (!eventually([&] { return w.answered(); })) return std::nullopt;
  return w.take();
}

TEST(BootstrapDays, CoverTheWindowExactlyOldestFirst) {
  const auto days = bootstrap_days(kNow, 3);
  ASSERT_EQ(days.size(), 3u);
  EXPECT_EQ(days[0], std::make_pair(kNow - 3 * kDay, kNow - 2 * kDay - 1));
  EXPECT_EQ(days[1], std::make_pair(kNow - 2 * kDay, kNow - kDay - 1));
  EXPECT_EQ(days[2], std::make_pair(kNow - kDay, kNow)) << "the last one ends at now";
  EXPECT_EQ(bootstrap_days(kNow, 1), (std::vector<std::pair<Time, Time>>{{kNow - kDay, kNow}}));
  EXPECT_TRUE(bootstrap_days(kNow, 0).empty());
}

// Day 1 lists jobs 1 (ends in day 2: dropped here) and 2; day 2 lists 1 again and 3.
TEST(BootstrapWorker, GathersEachDaysJobsOldestEndFirst) {
  BootstrapWorker w;
  std::vector<std::pair<Time, Time>> asked;
  ASSERT_TRUE(w.start(
      [&](Time from, Time to, std::vector<FinishedJob>& out, std::string&) {
        asked.emplace_back(from, to);
        if (asked.size() == 1) out = {ended(1, kNow - 10), ended(2, kNow - kDay - 5)};
        else out = {ended(3, kNow - 20), ended(1, kNow - 10)};
        return true;
      },
      kNow, 2));
  const auto r = wait_result(w);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->ok);
  EXPECT_EQ(r->days, 2) << "the window asked: the plugin drops an answer for a window a reconfigure changed";
  EXPECT_EQ(asked, bootstrap_days(kNow, 2));
  ASSERT_EQ(r->jobs.size(), 3u);
  EXPECT_EQ(r->jobs[0].job.id, 2u);
  EXPECT_EQ(r->jobs[1].job.id, 3u);
  EXPECT_EQ(r->jobs[2].job.id, 1u);
  EXPECT_FALSE(w.busy());
}

TEST(BootstrapWorker, AFailedDayEndsTheQueryWithItsError) {
  BootstrapWorker w;
  int calls = 0;
  ASSERT_TRUE(w.start(
      [&](Time, Time, std::vector<FinishedJob>& out, std::string& error) {
        if (++calls == 2) {
          error = "slurmdbd returned no job list";
          return false;
        }
        out = {ended(calls, kNow - 3 * kDay + 1)};
        return true;
      },
      kNow, 3));
  const auto r = wait_result(w);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->ok);
  EXPECT_EQ(r->error, "slurmdbd returned no job list");
  EXPECT_EQ(r->days, 3);
  EXPECT_TRUE(r->jobs.empty()) << "all or nothing: the bootstrap is asked again whole";
  EXPECT_EQ(calls, 2) << "the third day is not asked";
}

TEST(BootstrapWorker, AThrowingQueryIsAFailureNotACrash) {
  BootstrapWorker w;
  ASSERT_TRUE(w.start([](Time, Time, std::vector<FinishedJob>&, std::string&) -> bool {
    throw std::runtime_error("boom");
  }, kNow, 1));
  const auto r = wait_result(w);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->ok);
  EXPECT_EQ(r->error, "boom");
}

// A slow slurmdbd: the caller (the scheduling thread) is not held; one query at a time.
class Gate {
 public:
  void wait() {
    std::unique_lock lock(m_);
    ++waiting_;
    cv_.wait(lock, [&] { return open_; });
  }
  void open() {
    {
      std::lock_guard lock(m_);
      open_ = true;
    }
    cv_.notify_all();
  }
  int waiting() {
    std::lock_guard lock(m_);
    return waiting_;
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool open_ = false;
  int waiting_ = 0;
};

TEST(BootstrapWorker, RunsOffTheCallersThreadOneAtATime) {
  Gate gate;  // before the worker: outlives it if an assertion ends the test early
  BootstrapWorker w;
  auto slow = [&](Time, Time to, std::vector<FinishedJob>& out, std::string&) {
    gate.wait();
    out = {ended(9, to)};
    return true;
  };
  ASSERT_TRUE(w.start(slow, kNow, 1));
  ASSERT_TRUE(eventually([&] { return gate.waiting() == 1; }));
  EXPECT_TRUE(w.busy());
  EXPECT_FALSE(w.answered());
  EXPECT_FALSE(w.take()) << "no result while slurmdbd has not answered";
  EXPECT_FALSE(w.start(slow, kNow, 1)) << "one query at a time";
  gate.open();
  ASSERT_TRUE(eventually([&] { return w.answered(); }));
  const auto r = w.take();
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->ok);
  ASSERT_EQ(r->jobs.size(), 1u);
  EXPECT_FALSE(w.answered());
  EXPECT_FALSE(w.busy());
  EXPECT_TRUE(w.start(slow, kNow, 1)) << "free again once the result is taken";
  EXPECT_TRUE(wait_result(w));
}

// At shutdown: the day being asked is waited for, no later day is asked, the result is
// dropped.
TEST(BootstrapWorker, StopWaitsForTheDayBeingAskedOnly) {
  Gate gate;  // before the worker: outlives it if an assertion ends the test early
  BootstrapWorker w;
  std::atomic<int> calls{0};
  ASSERT_TRUE(w.start(
      [&](Time, Time, std::vector<FinishedJob>&, std::string&) {
        ++calls;
        gate.wait();
        return true;
      },
      kNow, 30));
  ASSERT_TRUE(eventually([&] { return gate.waiting() == 1; }));
  std::atomic<bool> stopped{false};
  std::thread stopper([&] {
    w.stop();
    stopped = true;
  });
  std::this_thread::sleep_for(20ms);
  EXPECT_FALSE(stopped) << "the day being asked is waited for";
  gate.open();
  stopper.join();
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(w.take());
  EXPECT_FALSE(w.busy());
}

// A reconfigure that no longer bootstraps: no later day is asked, the caller is not held,
// and the answer says it was stopped (no failure to count).
TEST(BootstrapWorker, CancelEndsTheQueryAfterTheDayBeingAsked) {
  Gate gate;
  BootstrapWorker w;
  std::atomic<int> calls{0};
  ASSERT_TRUE(w.start(
      [&](Time, Time, std::vector<FinishedJob>&, std::string&) {
        ++calls;
        gate.wait();
        return true;
      },
      kNow, 30));
  ASSERT_TRUE(eventually([&] { return gate.waiting() == 1; }));
  w.cancel();
  gate.open();
  const auto r = wait_result(w);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->ok);
  EXPECT_TRUE(r->stopped);
  EXPECT_EQ(r->days, 30);
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace easypp::plugin
