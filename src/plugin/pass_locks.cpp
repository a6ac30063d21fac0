#include "plugin/pass_locks.h"

#include <algorithm>
#include <thread>

namespace easypp::plugin {

namespace {

const slurmctld_lock_t kPassLocks = {READ_LOCK, WRITE_LOCK, WRITE_LOCK, READ_LOCK, READ_LOCK};

time_t stamp(const time_t& t) { return __atomic_load_n(&t, __ATOMIC_RELAXED); }

int rpc_count() {
  slurm_mutex_lock(&slurmctld_config.thread_count_lock);
  const int n = slurmctld_config.server_thread_count;
  slurm_mutex_unlock(&slurmctld_config.thread_count_lock);
  return n;
}

bool stopping() { return slurmctld_config.shutdown_time || slurmctld_config.scheduling_disabled; }

}  // namespace

bool many_pending_rpcs(int max_rpc_cnt) { return max_rpc_cnt > 0 && rpc_count() >= max_rpc_cnt; }

void PassLocks::take() {
  lock_slurmctld(kPassLocks);
  held_ = true;
  hold_from_ = step_;
  since_ = std::chrono::steady_clock::now();
}

void PassLocks::release() {
  const auto held = std::chrono::duration_cast<std::chrono::microseconds>(
                        std::chrono::steady_clock::now() - since_).count();
  if (held > longest_hold_usec_) {
    longest_hold_usec_ = held;
    longest_from_ = hold_from_;
    longest_to_ = step_;
  }
  held_ = false;
  unlock_slurmctld(kPassLocks);
}

Yield PassLocks::poll(long interval_usec) {
  if (!held_) return Yield::none;
  const auto held = std::chrono::steady_clock::now() - since_;
  if (held < std::chrono::microseconds(interval_usec) &&
      !many_pending_rpcs(rules_.max_rpc_cnt))
    return Yield::none;
  const time_t job = stamp(last_job_update), node = stamp(last_node_update);
  const time_t part = stamp(last_part_update), config = slurm_conf.last_update;
  const time_t resv = stamp(last_resv_update);
  release();
  const int calm = std::max(rules_.max_rpc_cnt / 10, 20);
  do {
    const auto t0 = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::microseconds(rules_.sleep_usec));
    slept_usec_ += std::chrono::duration_cast<std::chrono::microseconds>(
                       std::chrono::steady_clock::now() - t0).count();
  } while (rules_.max_rpc_cnt > 0 && rpc_count() > calm && !stopping());
  take();
  ++yields_;
  if (stamp(last_job_update) != job || stamp(last_node_update) != node ||
      stamp(last_part_update) != part || stamp(last_resv_update) != resv)
    others_changed_ = true;
  // Partition records may have been freed (and the node table rebuilt by a reconfigure):
  // pointers into them cannot be found again by id, so the pass stops; so it does when
  // reservations changed (records freed, nodes taken), as stock backfill's yield does.
  if (stopping() || stamp(last_part_update) != part || stamp(last_resv_update) != resv ||
      slurm_conf.last_update != config)
    return Yield::abandon;
  return Yield::yielded;
}

}  // namespace easypp::plugin
