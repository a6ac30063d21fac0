// The history bootstrap's query to slurmdbd, off the scheduling thread: slurmdbd may take
// minutes to answer for a busy cluster's last days (and up to Slurm's 900 s if it hangs),
// and passes must go on meanwhile. The window is asked a day at a time, so no answer
// grows past Slurm's message limit (1 GiB) on a large site and a stop waits for one day's
// answer at most. Slurm-free (the query is passed in), so it is unit-tested.
#ifndef EASYPP_PLUGIN_BOOTSTRAP_WORKER_H
#define EASYPP_PLUGIN_BOOTSTRAP_WORKER_H

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "plugin/snapshot.h"

namespace easypp::plugin {

class BootstrapWorker {
 public:
  static constexpr Time kDay = 24 * 3600;  // one query's window

  // The jobs that ended in [from, to] (inclusive seconds), any order; false with a
  // message when slurmdbd gave nothing.
  using Query = std::function<bool(Time from, Time to, std::vector<FinishedJob>& out,
                                   std::string& error)>;

  struct Result {
    bool ok = false;
    std::vector<FinishedJob> jobs;  // ended in [now - days, now], oldest end first
    std::string error;              // when !ok: the failed day's message
    bool stopped = false;           // cancel() ended it: no answer, not a failure
    int days = 0;                   // the window asked (start's days)
  };

  BootstrapWorker() = default;
  ~BootstrapWorker() { stop(); }
  BootstrapWorker(const BootstrapWorker&) = delete;
  BootstrapWorker& operator=(const BootstrapWorker&) = delete;

  // Starts asking for the jobs that ended in [now - days, now], oldest day first. Only one
  // at a time: false (nothing started) while one runs or its result is not taken.
  bool start(Query query, Time now, int days);
  // Asked and not yet taken.
  bool busy() const { return busy_.load(); }
  // Its result is there to take.
  bool answered() const { return answered_.load(); }
  // The result once the query is over (then the worker is free again); nullopt before.
  std::optional<Result> take();
  // Asks the query to stop after the day it is on, without waiting (its result, when
  // taken, says `stopped`).
  void cancel() { stop_ = true; }
  // Asks the query to stop after the day it is on and waits for it; its result is dropped.
  void stop();

 private:
  void run(Query query, Time now, int days);

  std::thread thread_;
  std::atomic<bool> busy_{false};
  std::atomic<bool> answered_{false};
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::optional<Result> result_;  // under mutex_
};

// The days the window [now - days x kDay, now] is asked in: `days` ranges [from, to]
// (inclusive seconds), oldest first, of kDay seconds (the last one second more), together
// exactly the window.
std::vector<std::pair<Time, Time>> bootstrap_days(Time now, int days);

}  // namespace easypp::plugin

#endif
