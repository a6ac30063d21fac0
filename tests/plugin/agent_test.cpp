// The scheduling thread: passes on change, on the periodic tick, on wake() and at a
// requested time (wake_at); a prompt stop even with a long poll period; exceptions from a
// pass reported, not fatal. Timed passes are checked by order and lower bounds (never
// before the time asked), with poll and interval of an hour so only wake_at explains them.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <mutex>
#include <pthread.h>
#include <thread>
#include <vector>

#include "plugin/agent.h"

namespace easypp::plugin {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// Waits until pred() holds or the deadline passes; returns pred().
template <typename Pred>
bool eventually(Pred pred, std::chrono::milliseconds limit = 2000ms) {
  const auto deadline = Clock::now() + limit;
  while (!pred() && Clock::now() < deadline) std::this_thread::sleep_for(2ms);
  return pred();
}

TEST(PluginAgent, FirstPassAtOnceThenOnlyOnChange) {
  std::atomic<bool> change{false};
  std::atomic<int> passes{0};
  Agent agent({[&] { return change.exchange(false); }, [&] { ++passes; }, {}}, 5ms, 1h);
  agent.start();
  ASSERT_TRUE(eventually([&] { return passes == 1; }));
  std::this_thread::sleep_for(60ms);
  EXPECT_EQ(passes, 1) << "no change and the interval (1 h) not reached: no pass";
  change = true;
  ASSERT_TRUE(eventually([&] { return passes == 2; }));
  std::this_thread::sleep_for(30ms);
  EXPECT_EQ(passes, 2);
  agent.stop();
}

TEST(PluginAgent, PeriodicTickWithoutChange) {
  std::atomic<int> passes{0};
  Agent agent({[] { return false; }, [&] { ++passes; }, {}}, 5ms, 40ms);
  agent.start();
  EXPECT_TRUE(eventually([&] { return passes >= 4; }));
  agent.stop();
  const int at_stop = passes;
  std::this_thread::sleep_for(60ms);
  EXPECT_EQ(passes, at_stop) << "no pass after stop()";
}

TEST(PluginAgent, WakeForcesPass) {
  std::atomic<int> passes{0};
  Agent agent({[] { return false; }, [&] { ++passes; }, {}}, 5ms, 1h);
  agent.start();
  ASSERT_TRUE(eventually([&] { return passes == 1; }));
  agent.wake();
  EXPECT_TRUE(eventually([&] { return passes == 2; }));
  agent.stop();
}

TEST(PluginAgent, ThreadIsNamed) {
  std::atomic<bool> named{false};
  Agent agent({[] { return true; },  // passes keep coming until one sees the name
               [&] {
                 char name[16] = {};
                 pthread_getname_np(pthread_self(), name, sizeof name);
                 named = std::string(name) == "easypp-test";
               },
               {}},
              5ms, 1h);
  agent.start("easypp-test");
  EXPECT_TRUE(eventually([&] { return named.load(); }));
  agent.stop();
}

TEST(PluginAgent, StopIsPromptEvenWithLongPoll) {
  Agent agent({[] { return false; }, [] {}, {}}, 1h, 1h);
  agent.start();
  EXPECT_TRUE(agent.running());
  const auto t0 = Clock::now();
  agent.stop();
  EXPECT_LT(Clock::now() - t0, 500ms);
  EXPECT_FALSE(agent.running());
  agent.stop();  // idempotent
}

TEST(PluginAgent, ExceptionsAreReportedAndTheThreadGoesOn) {
  std::atomic<int> passes{0};
  std::atomic<int> errors{0};
  std::string last_error;
  std::mutex m;
  Agent agent({[] { return true; },
               [&] {
                 if (++passes == 1) throw std::runtime_error("boom");
               },
               [&](const std::string& what) {
                 std::lock_guard lock(m);
                 last_error = what;
                 ++errors;
               }},
              5ms, 20ms);
  agent.start();
  ASSERT_TRUE(eventually([&] { return passes >= 3; }));
  agent.stop();
  EXPECT_EQ(errors, 1);
  EXPECT_EQ(last_error, "boom");
}

// A pass that fails every time (the probe still says changed: the stamps were never
// marked seen) is tried again at the interval, not at every poll; a wake (reconfigure)
// still runs one at once.
TEST(PluginAgent, AFailedPassIsTriedAgainAtTheIntervalNotAtEveryPoll) {
  std::atomic<int> passes{0};
  std::atomic<int> errors{0};
  Agent agent({[] { return true; },
               [&] {
                 ++passes;
                 throw std::runtime_error("always");
               },
               [&](const std::string&) { ++errors; }},
              5ms, 1h);
  agent.start();
  ASSERT_TRUE(eventually([&] { return errors == 1; }));
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(passes, 1) << "20 polls of a changed probe: no pass before the interval (1 h)";
  EXPECT_EQ(errors, 1);
  agent.wake();
  ASSERT_TRUE(eventually([&] { return passes == 2; }));
  agent.stop();
  EXPECT_EQ(errors, 2);
}

TEST(PluginAgent, SetIntervalTakesEffect) {
  std::atomic<int> passes{0};
  Agent agent({[] { return false; }, [&] { ++passes; }, {}}, 5ms, 1h);
  agent.start();
  ASSERT_TRUE(eventually([&] { return passes == 1; }));
  agent.set_interval(20ms);
  EXPECT_TRUE(eventually([&] { return passes >= 3; }));
  agent.stop();
}

// The pass's own clock reading, for lower bounds.
struct PassTimes {
  std::mutex m;
  std::vector<Clock::time_point> at;
  void add() {
    std::lock_guard lock(m);
    at.push_back(Clock::now());
  }
  Clock::time_point operator[](std::size_t i) {
    std::lock_guard lock(m);
    return at.at(i);
  }
};

TEST(PluginAgent, WakeAtRunsAPassNoEarlierThanAsked) {
  PassTimes times;
  std::atomic<int> passes{0};
  Agent agent({[] { return false; }, [&] { times.add(); ++passes; }, {}}, 1h, 1h);
  agent.start();
  agent.wake();  // the first pass (it would otherwise wait one poll, an hour here)
  ASSERT_TRUE(eventually([&] { return passes == 1; }));
  const auto asked = Clock::now() + 40ms;
  agent.wake_at(asked);
  // Poll and interval are an hour: only the requested time can bring this pass.
  ASSERT_TRUE(eventually([&] { return passes == 2; }));
  EXPECT_GE(times[1], asked) << "a timed pass ran before its time";
  agent.stop();
}

TEST(PluginAgent, APassCanAskForTheNext) {
  // Each of the first three passes asks for one 10 ms later (what the plugin does with the
  // plan's wake_at); the request is consumed before the pass, so the chain goes on.
  PassTimes times;
  std::atomic<int> passes{0};
  std::vector<Clock::time_point> asked;  // written by the thread only, read after stop
  Agent* self = nullptr;
  Agent agent({[] { return false; },
               [&] {
                 times.add();
                 if (++passes <= 3) {
                   asked.push_back(Clock::now() + 10ms);
                   self->wake_at(asked.back());
                 }
               },
               {}},
              1h, 1h);
  self = &agent;
  agent.start();
  agent.wake();
  ASSERT_TRUE(eventually([&] { return passes == 4; }));
  agent.stop();
  ASSERT_EQ(asked.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_GE(times[i + 1], asked[i]) << "pass " << i + 2 << " ran before its time";
}

TEST(PluginAgent, AnEarlierWakeReplacesALaterOne) {
  std::atomic<int> passes{0};
  Agent agent({[] { return false; }, [&] { ++passes; }, {}}, 1h, 1h);
  agent.start();
  agent.wake();  // the first pass (it would otherwise wait one poll, an hour here)
  ASSERT_TRUE(eventually([&] { return passes == 1; }));
  agent.wake_at(Clock::now() + 1h);  // the thread now sleeps towards this ...
  agent.wake_at(Clock::now() + 5ms);  // ... and must notice the earlier request
  EXPECT_TRUE(eventually([&] { return passes == 2; }));
  agent.stop();
}

TEST(PluginAgent, WakeAtNulloptCancels) {
  std::atomic<int> passes{0};
  Agent agent({[] { return false; }, [&] { ++passes; }, {}}, 5ms, 1h);
  agent.start();
  agent.wake();  // the first pass (it would otherwise wait one poll, an hour here)
  ASSERT_TRUE(eventually([&] { return passes == 1; }));
  agent.wake_at(Clock::now() + 20ms);
  agent.wake_at(std::nullopt);
  std::this_thread::sleep_for(60ms);  // past the cancelled time, many polls later
  EXPECT_EQ(passes, 1) << "a cancelled wake-up still ran a pass";
  agent.stop();
}

}  // namespace
}  // namespace easypp::plugin
