// slurmctld's locks for a scheduling pass, held in slices: a reader of 20,000 jobs or the
// starting of many gives the locks back every `interval` (or at once when max_rpc_cnt RPCs
// wait), sleeps, and takes them again, as stock backfill's bf_yield_interval,
// bf_yield_sleep and max_rpc_cnt do. Slurm glue: part of the module only.
#ifndef EASYPP_PLUGIN_PASS_LOCKS_H
#define EASYPP_PLUGIN_PASS_LOCKS_H

#include <chrono>
#include <ctime>
#include <string>

#include "plugin/slurm_api.h"
#include "plugin/slurm_snapshot.h"

namespace easypp::plugin {

struct YieldRules {
  long interval_usec = 30000;  // easypp_yield_interval
  long sleep_usec = 10000;     // easypp_yield_sleep
  int max_rpc_cnt = 0;         // max_rpc_cnt (Slurm's key); 0: never for RPCs
};

// True when max_rpc_cnt > 0 and slurmctld serves at least that many RPCs now.
bool many_pending_rpcs(int max_rpc_cnt);

class PassLocks {
 public:
  explicit PassLocks(const YieldRules& rules) : rules_(rules) {}
  ~PassLocks() {
    if (held_) release();
  }
  PassLocks(const PassLocks&) = delete;
  PassLocks& operator=(const PassLocks&) = delete;

  // {READ conf, WRITE job, WRITE node, READ part, READ fed}: what stock backfill holds.
  void take();
  void release();

  // A yield point (between records): when the hold has lasted `interval` or many RPCs
  // wait, gives the locks back for `sleep` (longer while RPCs stay above max(max_rpc_cnt
  // / 10, 20), as stock), takes them again and says what may have gone stale.
  Yield poll() { return poll(rules_.interval_usec); }
  // The same with a shorter interval: before a step that cannot yield inside (the queue's
  // sort), so that the hold it ends does not grow by a whole interval.
  Yield poll(long interval_usec);
  YieldPoint point() {
    return [this] { return poll(); };
  }

  // Names the step of the pass now running (a string literal), so that the longest hold
  // can say where it began and ended.
  void step(const char* name) { step_ = name; }
  long longest_hold_usec() const { return longest_hold_usec_; }
  // "queue" or "queue..cluster": the steps the longest hold began and ended in.
  std::string longest_hold_steps() const {
    return std::string(longest_from_) +
           (longest_to_ != longest_from_ ? std::string("..") + longest_to_ : std::string());
  }
  long slept_usec() const { return slept_usec_; }
  int yields() const { return yields_; }
  // Jobs, nodes, partitions or reservations changed by others while the locks were given
  // back (since the last call): what the pass read may miss it, so another pass must follow.
  bool others_changed() {
    const bool c = others_changed_;
    others_changed_ = false;
    return c;
  }

 private:
  YieldRules rules_;
  bool held_ = false;
  std::chrono::steady_clock::time_point since_;
  long longest_hold_usec_ = 0;
  const char* step_ = "pass";
  const char* hold_from_ = "pass";
  const char* longest_from_ = "none";
  const char* longest_to_ = "none";
  long slept_usec_ = 0;
  int yields_ = 0;
  bool others_changed_ = false;
};

}  // namespace easypp::plugin

#endif
