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

void Agent::wake_at(std::optional<std::chrono::steady_clock::time_point> when) {
  {
    std::lock_guard lock(mutex_);
    wake_at_ = when;
    wake_changed_ = true;
  }
  cv_.notify_all();
}

void Agent::report(const char* what) noexcept {
  // The hook builds a message (allocates): out of memory there must not end the thread
  // function with an exception (std::terminate in slurmctld). The error is dropped.
  try {
    if (hooks_.error) hooks_.error(what);
  } catch (...) {
  }
}

void Agent::loop() {
  using Clock = std::chrono::steady_clock;
  // The first pass runs at once: slurmctld may have pending jobs from its saved state.
  auto last = Clock::now() - interval_;
  // The last pass threw: the next waits for the interval (or a wake), not for the next
  // change, since the stamps it would have marked seen still read as changed and a pass
  // failing the same way would run, and log, at every poll.
  bool failed = false;
  while (true) {
    bool woken = false;
    std::chrono::milliseconds interval;
    {
      std::unique_lock lock(mutex_);
      // Until the next poll, or the requested wake-up if that comes first (to the
      // millisecond, not rounded to the poll period).
      auto until = Clock::now() + poll_;
      if (wake_at_ && *wake_at_ < until) until = *wake_at_;
      wake_changed_ = false;
      cv_.wait_until(lock, until, [this] { return stop_ || woken_ || wake_changed_; });
      if (stop_) return;
      woken = std::exchange(woken_, false);
      if (wake_at_ && Clock::now() >= *wake_at_) {
        woken = true;
        wake_at_.reset();  // consumed: the pass may ask for the next one
      }
      interval = interval_;
    }
    try {
      const bool due = woken || Clock::now() - last >= interval || (!failed && hooks_.changed());
      if (!due) continue;
      last = Clock::now();
      failed = true;
      hooks_.pass();
      failed = false;
      ++passes_;
    } catch (const std::exception& e) {
      report(e.what());
    } catch (...) {
      report("unknown exception");
    }
  }
}

}  // namespace easypp::plugin
