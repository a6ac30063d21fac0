// The plugin's scheduling thread: runs a pass when Slurm's state changed (a cheap probe
// polled often), when the periodic interval elapsed, or at the time the last pass asked
// to plan again (a policy's Decision::wake_at, e.g. mq-vd releasing a delayed job), and
// stops promptly on request.
// Slurm-free so its timing is unit-tested; the plugin supplies the probe and the pass.
#ifndef EASYPP_PLUGIN_AGENT_H
#define EASYPP_PLUGIN_AGENT_H

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace easypp::plugin {

class Agent {
 public:
  struct Hooks {
    // True when something a pass depends on changed since the last pass. Polled every
    // `poll`; must be cheap (the plugin compares Slurm's last_*_update stamps).
    std::function<bool()> changed;
    // One scheduling pass.
    std::function<void()> pass;
    // Receives what a hook threw; the thread keeps running. After a pass threw, the next
    // runs at the interval or a wake, not at the next change.
    std::function<void(const std::string&)> error;
  };

  Agent(Hooks hooks, std::chrono::milliseconds poll, std::chrono::milliseconds interval);
  ~Agent();
  Agent(const Agent&) = delete;
  Agent& operator=(const Agent&) = delete;

  // `name` (at most 15 characters) names the thread in ps/top/gdb, like Slurm's "bckfl".
  void start(const char* name = nullptr);
  // Asks the thread to finish its current pass and joins it. Idempotent.
  void stop();
  // Run a pass at the next poll, whatever the probe says (reconfiguration).
  void wake();
  void set_interval(std::chrono::milliseconds interval);
  // Run a pass at `when` (not before; as soon after as the thread wakes), whatever the
  // probe and the interval say. Replaces the earlier request; nullopt cancels it. A pass
  // consumes the request before it runs, so the pass may make the next one.
  void wake_at(std::optional<std::chrono::steady_clock::time_point> when);
  std::uint64_t passes() const { return passes_.load(); }
  bool running() const { return thread_.joinable(); }

 private:
  void loop();
  void report(const char* what) noexcept;

  Hooks hooks_;
  std::chrono::milliseconds poll_;
  std::chrono::milliseconds interval_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool woken_ = false;
  std::optional<std::chrono::steady_clock::time_point> wake_at_;
  bool wake_changed_ = false;  // wake_at_ moved: the wait recomputes its deadline
  std::atomic<std::uint64_t> passes_{0};
  std::thread thread_;
};

}  // namespace easypp::plugin

#endif
