#include "plugin/agent.h"

#include <pthread.h>

#include <exception>
#include <utility>

namespace easypp::plugin {

Agent::Agent(Hooks hooks, std::chrono::milliseconds poll, std::chrono::milliseconds interval)
    : hooks_(std::move(hooks)), poll_(poll), interval_(interval) {}

Agent::~Agent() { stop(); }

void Agent::start(const char* name) {
  if (thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stop_ = false;
  }
  thread_ = std::thread([this] { loop(); });
  if (name) pthread_setname_np(thread_.native_handle(), name);  // best effort
}

void Agent::stop() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void Agent::wake() {
  {
    std::lock_guard lock(mutex_);
    woken_ = true;
  }
  cv_.notify_all();
}

void Agent::set_interval(std::chrono::milliseconds interval) {
  std::lock_guard lock(mutex_);
  interval_ = interval;
}

void Agent::loop() {
  using Clock = std::chrono::steady_clock;
  // The first pass runs at once: slurmctld may have pending jobs from its saved state.
  auto last = Clock::now() - interval_;
  while (true) {
    bool woken = false;
    std::chrono::milliseconds interval;
    {
      std::unique_lock lock(mutex_);
      cv_.wait_for(lock, poll_, [this] { return stop_ || woken_; });
      if (stop_) return;
      woken = std::exchange(woken_, false);
      interval = interval_;
    }
    try {
      const bool due = woken || Clock::now() - last >= interval || hooks_.changed();
      if (!due) continue;
      last = Clock::now();
      hooks_.pass();
      ++passes_;
    } catch (const std::exception& e) {
      if (hooks_.error) hooks_.error(e.what());
    } catch (...) {
      if (hooks_.error) hooks_.error("unknown exception");
    }
  }
}

}  // namespace easypp::plugin
