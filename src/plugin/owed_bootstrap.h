// The history bootstrap from slurmdbd while it is owed: when to ask again after a failed
// query (15 s, the wait doubling up to 10 min, given up easypp_bootstrap_days after the
// first try) and the marker beside the state file that keeps it owed across a restart
// of slurmctld (24.11 re-executes itself on `scontrol reconfigure`). Slurm-free, with
// times passed in as epoch seconds, so the schedule is unit-tested; the plugin makes the
// query and logs.
#ifndef EASYPP_PLUGIN_OWED_BOOTSTRAP_H
#define EASYPP_PLUGIN_OWED_BOOTSTRAP_H

#include <ctime>
#include <optional>
#include <string>

namespace easypp::plugin {

class OwedBootstrap {
 public:
  static constexpr time_t kFirstRetry = 15, kLastRetry = 600;

  // Owed from `now` (a first start with no history): asked at once.
  static OwedBootstrap first_try(time_t now) { return OwedBootstrap(now, 0); }
  // Owed since `since`, from a marker written before a restart: asked at once, and it
  // counts as having failed already (the next failure waits 30 s, logged quietly).
  static OwedBootstrap after_restart(time_t since) { return OwedBootstrap(since, kFirstRetry); }

  enum class Failure {
    first,     // the first failure: the marker is to be written, the failure logged
    again,     // asked again at next()
    given_up,  // `days` since the first try passed: no more asking
  };
  // The query made at `now` failed.
  Failure failed(time_t now, int days);

  bool due(time_t now) const { return now >= next_; }
  bool failed_before() const { return delay_ > 0; }
  time_t since() const { return since_; }
  time_t next() const { return next_; }

 private:
  OwedBootstrap(time_t since, time_t delay) : since_(since), delay_(delay) {}
  time_t since_;     // the first try
  time_t delay_;     // the wait before next_; 0: not failed yet
  time_t next_ = 0;  // when to ask again (0: at once)
};

// The marker file (one decimal epoch second: since()). Written whole under a temporary
// name, synced, renamed and its directory synced, so a crash or a power cut leaves the
// old marker or the new one, never a part, and a marker written stays.
bool write_owed_marker(const std::string& path, time_t since, std::string& error);

struct OwedMarker {
  bool found = false;  // it exists (or cannot be told not to)
  // Its time; empty when found but unusable (the bootstrap is still owed, since when is
  // not known), and then `problem` says why.
  std::optional<time_t> since;
  std::string problem;
};
OwedMarker read_owed_marker(const std::string& path, time_t now);

}  // namespace easypp::plugin

#endif
