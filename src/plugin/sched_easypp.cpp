// sched/easypp: the Slurm 22.05 scheduler plugin. The plugin contract (plugin_name,
// plugin_type, plugin_version, init, fini, sched_p_reconfig) and the scheduling thread's
// passes; decisions come from the core's policies through Planner.
#include <sys/stat.h>
#include <sys/time.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "easypp/predictor.h"
#include "plugin/agent.h"
#include "plugin/bootstrap_worker.h"
#include "plugin/cluster_model.h"
#include "plugin/config.h"
#include "plugin/owed_bootstrap.h"
#include "plugin/pass_locks.h"
#include "plugin/planner.h"
#include "plugin/slurm_accounting.h"
#include "plugin/slurm_api.h"
#include "plugin/slurm_carry_out.h"
#include "plugin/slurm_handles.h"
#include "plugin/slurm_planned_nodes.h"
#include "plugin/slurm_qos_block.h"
#include "plugin/slurm_show_plan.h"
#include "plugin/slurm_snapshot.h"
#include "plugin/slurm_start.h"

extern "C" {
extern const char plugin_name[] = "EASY++ prediction-based backfill scheduler";
extern const char plugin_type[] = "sched/easypp";
extern const uint32_t plugin_version = SLURM_VERSION_NUMBER;
int init(void);
void fini(void);
int sched_p_reconfig(void);
}

namespace easypp::plugin {
namespace {

// How often the thread looks at Slurm's change stamps (cheap: three loads).
constexpr std::chrono::milliseconds kPoll{500};

time_t load_stamp(const time_t& stamp) { return __atomic_load_n(&stamp, __ATOMIC_RELAXED); }

// slurmctld's locks for the time of a scope (unlocked on every path out, exceptions too).
class SlurmLock {
 public:
  explicit SlurmLock(slurmctld_lock_t levels) : levels_(levels) { lock_slurmctld(levels_); }
  ~SlurmLock() { unlock_slurmctld(levels_); }
  SlurmLock(const SlurmLock&) = delete;
  SlurmLock& operator=(const SlurmLock&) = delete;

 private:
  slurmctld_lock_t levels_;
};

const slurmctld_lock_t kConfigLocks = {READ_LOCK, NO_LOCK, NO_LOCK, NO_LOCK, NO_LOCK};
const slurmctld_lock_t kJobReadLock = {NO_LOCK, READ_LOCK, NO_LOCK, NO_LOCK, NO_LOCK};
const slurmctld_lock_t kLearnLocks = kJobReadLock;  // the ended jobs' records
const slurmctld_lock_t kJobWriteLock = {NO_LOCK, WRITE_LOCK, NO_LOCK, NO_LOCK, NO_LOCK};

std::string dirname_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos || slash == 0 ? "/" : path.substr(0, slash);
}

struct PassCounts {
  int queued = 0;
  int not_runnable = 0;  // queue records left out for limits or licences
  long longest_hold_usec = 0;  // slurmctld's locks, longest single hold in the pass
  long slept_usec = 0;         // locks given back (yields), not counted as pass time
  long build_usec = 0;         // the queue built and sorted (in slices: wall time, yields included)
  long sort_usec = 0;          // its sort (one hold)
  int yields = 0;
  int partitions = 0;
  int learnt = 0;
  CarryOutCounts starts;  // carry_out's
};

// Everything the scheduling thread owns. Only that thread calls its methods, except
// request_reconfig (any thread).
class Scheduler {
 public:
  void request_reconfig() { reconfig_ = true; }

  bool changed() const {
    return load_stamp(last_job_update) != seen_job_ ||
           load_stamp(last_node_update) != seen_node_ ||
           load_stamp(last_part_update) != seen_part_ ||
           load_stamp(last_resv_update) != seen_resv_ || reconfig_ || save_due() ||
           bootstrap_due() || bootstrap_query_.answered() || deferred_ || nodes_moved_ ||
           (recheck_ && time(nullptr) > seen_at_);
  }

  void pass() {
    if (reconfig_.exchange(false)) load_config();
    if (!planner_) return;
    if (auto answer = bootstrap_query_.take()) bootstrap_answered(*answer);
    if (bootstrap_due()) ask_slurmdbd();
    if (wake_at_ && time(nullptr) >= *wake_at_ && config_.debug)
      info("sched/easypp: timed pass (the plan asked for %ld)", static_cast<long>(*wake_at_));
    wake_at_.reset();
    run_pass();
    if (!deferred_) {
      // As stock backfill ends its cycle: burst buffers for the jobs expected to start
      // soonest (a no-op without a burst buffer plugin; with sched_interval=-1 nothing
      // else asks). Its header asks a job read lock, but the plugins rewrite jobs'
      // burst_buffer_state (burst_buffer_common.c) and stock holds the write lock.
      SlurmLock lock(kJobWriteLock);  // as every stock caller: it sets burst_buffer_state
      (void)bb_g_job_try_stage_in();
    }
    save_history(false);
  }

  // At shutdown: learn the jobs that ended since the last pass, then save, so the
  // history survives a restart. slurmctld calls fini() with its locks free.
  void final_save() {
    // An answer already there is learnt and saved with the rest; one still on its way is
    // dropped (the stop waits for the day being asked at most), and the marker keeps the
    // bootstrap owed for the restart.
    if (planner_)
      if (auto answer = bootstrap_query_.take()) bootstrap_answered(*answer, /*may_ask=*/false);
    bootstrap_query_.stop();
    if (!planner_) return;
    {
      SlurmLock lock(kLearnLocks);
      learn_finished_jobs();
    }
    save_history(true);
  }

  std::chrono::milliseconds interval() const { return std::chrono::seconds(config_.interval); }
  // When the last pass's plan asked to plan again (Decision::wake_at; epoch seconds).
  std::optional<time_t> wake_at() const { return wake_at_; }

 private:
  static constexpr const char* kOwedSuffix = ".bootstrap-owed";

  void load_config() {
    std::string params;
    std::string state_dir;
    std::string accounting;
    std::string cluster;
    std::uint32_t slurm_uid = 0;
    {
      SlurmLock lock(kConfigLocks);
      params = slurm_conf.sched_params ? slurm_conf.sched_params : "";
      state_dir = slurm_conf.state_save_location ? slurm_conf.state_save_location : "";
      accounting = slurm_conf.accounting_storage_type ? slurm_conf.accounting_storage_type : "";
      cluster = slurm_conf.cluster_name ? slurm_conf.cluster_name : "";
      slurm_uid = slurm_conf.slurm_user_id;
    }
    if (planner_ && params == params_) return;
    params_ = params;
    ParsedConfig parsed = parse_scheduler_parameters(params, policy_names(), killing_policy_names());
    for (const auto& line : parsed.errors) error("sched/easypp: %s", line.c_str());
    if (!parsed.ignored.empty()) {
      std::string keys;
      for (const auto& k : parsed.ignored) keys += (keys.empty() ? "" : ", ") + k;
      info("sched/easypp: stock backfill's SchedulerParameters ignored: %s", keys.c_str());
    }

    std::unique_ptr<Planner> planner;
    try {
      planner = std::make_unique<Planner>(parsed.config);
    } catch (const std::exception& e) {
      error("sched/easypp: %s; using the default configuration", e.what());
      parsed.config = Config{};
      planner = std::make_unique<Planner>(parsed.config);
    }
    config_ = parsed.config;
    // The old planner hands what it learnt over in memory, not through the state file: a
    // save failing here (a full disk) would lose everything learnt since the last one.
    const std::unique_ptr<Planner> old = std::move(planner_);
    planner_ = std::move(planner);
    const std::string old_state_file = state_file_;
    state_file_ = config_.state_file.empty() ? state_dir + "/easypp/predictor.json"
                                             : config_.state_file;
    if (::mkdir(dirname_of(state_file_).c_str(), 0700) != 0 && errno != EEXIST)
      error("sched/easypp: cannot create %s: %s; history will not be saved",
            dirname_of(state_file_).c_str(), std::strerror(errno));
    std::string err;
    int loaded = old ? planner_->take_history(*old, err) : EPP_LOAD_MISSING;
    const bool handed_over = loaded == EPP_LOAD_OK;
    if (loaded == EPP_LOAD_ERROR)
      error("sched/easypp: predictor history not handed over to the new configuration (%s); "
            "loading %s", err.c_str(), state_file_.c_str());
    if (!handed_over) loaded = planner_->load(state_file_, err);
    if (loaded == EPP_LOAD_OK || loaded == EPP_LOAD_MISSING) {
      info("sched/easypp: policy=%s%s%s%s, predictor history %s (%zu records)",
           config_.policy.c_str(), config_.partition_policy.empty() ? "" : " with per-partition policies",
           // Which policies plan with it: not those whose name fixes their predictions.
           planner_->predictor_note().empty() ? "" : (", " + planner_->predictor_note()).c_str(),
           std::string(config_.assoc_limit_stop ? ", jobs held by limits planned (assoc_limit_stop)" : "")
               .append(config_.bf_licenses ? ", jobs waiting for licences planned (bf_licenses)" : "")
               .c_str(),
           handed_over                 ? "kept in memory"
           : loaded == EPP_LOAD_OK     ? ("loaded from " + state_file_).c_str()
                                       : "starts empty",
           planner_->history_records());
    } else {
      error("sched/easypp: predictor history %s not loaded (%s); starting empty",
            state_file_.c_str(), err.c_str());
    }
    last_save_ = time(nullptr);
    // Handed over: unsaved history stays to be saved (at once into a new state file).
    dirty_ = handed_over && (dirty_ || state_file_ != old_state_file);
    const bool can_bootstrap = planner_->learns() && config_.bootstrap_days > 0 &&
                               accounting == "accounting_storage/slurmdbd";
    const std::string old_marker = old_state_file.empty() ? "" : old_state_file + kOwedSuffix;
    cluster_ = cluster;
    slurm_uid_ = slurm_uid;
    if (!owed_bootstrap_ && !old && can_bootstrap) owed_bootstrap_ = owed_before_restart();
    if (!can_bootstrap) {
      if (owed_bootstrap_)
        info("sched/easypp: bootstrapping history from slurmdbd no longer owed (the "
             "configuration has no history to bootstrap)");
      owed_bootstrap_.reset();
      bootstrap_query_.cancel();  // no more days asked; its answer is dropped
      if (!old_marker.empty()) std::remove(old_marker.c_str());
      std::remove(owed_marker().c_str());
    } else if (owed_bootstrap_) {
      // Still owed (slurmdbd away at an earlier start, maybe before a restart): kept, with
      // the new settings, and asked at once.
      if (!old_marker.empty() && old_marker != owed_marker()) {  // a new state file
        std::remove(old_marker.c_str());
        save_owed_marker(owed_bootstrap_->since());
      }
      // A query in flight for another window stops after its day and is asked anew
      // (bootstrap_answered); one for this window goes on.
      if (bootstrap_query_.busy() && asked_days_ != config_.bootstrap_days) bootstrap_query_.cancel();
      ask_slurmdbd();
    } else if (planner_->history_records() == 0) {
      // The marker from the first try on, not the first failure: passes go on while
      // slurmdbd answers and may save history learnt live, and a restart meanwhile (24.11's
      // reconfigure is one) must find the bootstrap still owed.
      owed_bootstrap_ = OwedBootstrap::first_try(time(nullptr));
      save_owed_marker(owed_bootstrap_->since());
      ask_slurmdbd();
    }
  }

  // No saved history: start from the jobs slurmdbd saw end recently, instead of planning
  // everybody on their time limits until their jobs finish again. slurmdbd may not answer
  // yet (both daemons restarted, MariaDB still recovering): then the bootstrap stays owed
  // and is asked again, across restarts of slurmctld too (OwedBootstrap: the schedule and
  // the marker beside the state file). Jobs learnt live meanwhile do not
  // spoil the history kinds: the library keeps each user's runs in end-time order,
  // whatever order they are learnt in, and skips jobs it has learnt already
  // (predictor/README.md); the learned model's steps on the older jobs come after the
  // newer ones' (admin guide). The query runs on its own thread, a day at a time
  // (BootstrapWorker): passes go on while slurmdbd answers.
  void ask_slurmdbd() {
    const std::string cluster = cluster_;
    const std::uint32_t uid = slurm_uid_;
    if (!bootstrap_query_.start(
            [cluster, uid](Time from, Time to, std::vector<FinishedJob>& out, std::string& err) {
              return read_accounting_history(cluster, uid, from, to, out, err);
            },
            time(nullptr), config_.bootstrap_days))
      return;  // one in flight: its answer counts, if it is for this window
    asked_days_ = config_.bootstrap_days;
    if (!owed_bootstrap_->failed_before())
      info("sched/easypp: asking slurmdbd for the jobs that ended in the last %d days, a day "
           "at a time (scheduling goes on meanwhile)", config_.bootstrap_days);
  }

  // may_ask: false at shutdown, where nothing is asked anew (the marker keeps it owed).
  void bootstrap_answered(const BootstrapWorker::Result& answer, bool may_ask = true) {
    // No longer owed (a reconfigure to a configuration that learns nothing): dropped.
    if (!owed_bootstrap_) return;
    // Cancelled, or asked for a window a reconfigure has changed since: asked anew for
    // this one at once, no failure.
    if (answer.stopped || answer.days != config_.bootstrap_days) {
      if (may_ask) ask_slurmdbd();
      return;
    }
    const bool failed_before = owed_bootstrap_->failed_before();
    const time_t now = time(nullptr);
    const std::vector<FinishedJob>& jobs = answer.jobs;
    const std::string& err = answer.error;
    if (!answer.ok) {
      switch (owed_bootstrap_->failed(now, config_.bootstrap_days)) {
        case OwedBootstrap::Failure::first:
          error("sched/easypp: bootstrapping history from slurmdbd failed: %s; trying again "
                "in %d s, then less often, until it answers (history meanwhile builds up from "
                "jobs finishing)", err.c_str(), static_cast<int>(OwedBootstrap::kFirstRetry));
          save_owed_marker(owed_bootstrap_->since());
          break;
        case OwedBootstrap::Failure::again:
          debug("sched/easypp: bootstrapping history from slurmdbd failed again: %s", err.c_str());
          break;
        case OwedBootstrap::Failure::given_up:
          error("sched/easypp: slurmdbd has not answered for %d days (last: %s); bootstrapping "
                "history from it given up", config_.bootstrap_days, err.c_str());
          owed_bootstrap_.reset();
          std::remove(owed_marker().c_str());
          break;
      }
      return;
    }
    owed_bootstrap_.reset();
    int learnt = 0;
    for (const FinishedJob& f : jobs) learnt += planner_->job_ended(f) ? 1 : 0;
    dirty_ = dirty_ || learnt > 0;
    // Saved at once; the marker goes with the save (save_history): removed before, a
    // crash before the next periodic save would leave a history with jobs learnt live
    // and no marker, and the restart would never bootstrap.
    save_history(true);
    if (!dirty_) std::remove(owed_marker().c_str());
    info("sched/easypp: bootstrapped history from slurmdbd%s: %d of %zu jobs of the last %d days "
         "learnt (%zu records)",
         failed_before ? " (it answers again)" : "", learnt, jobs.size(), config_.bootstrap_days,
         planner_->history_records());
  }

  bool bootstrap_due() const {
    return owed_bootstrap_ && !bootstrap_query_.busy() && owed_bootstrap_->due(time(nullptr));
  }

  std::string owed_marker() const { return state_file_ + kOwedSuffix; }
  void save_owed_marker(time_t since) const {
    std::string err;
    if (!write_owed_marker(owed_marker(), since, err))
      error("sched/easypp: cannot write %s: %s; the bootstrap from slurmdbd is not tried again "
            "after a restart", owed_marker().c_str(), err.c_str());
  }
  // An owed bootstrap from before a restart (the marker), tried at once. A marker that
  // cannot be used still says the bootstrap is owed: owed from now, and written anew.
  std::optional<OwedBootstrap> owed_before_restart() const {
    const time_t now = time(nullptr);
    const OwedMarker marker = read_owed_marker(owed_marker(), now);
    if (!marker.found) return std::nullopt;
    if (!marker.since) {
      save_owed_marker(now);
      error("sched/easypp: %s %s; the bootstrap from slurmdbd is taken as owed from now; "
            "asking slurmdbd", owed_marker().c_str(), marker.problem.c_str());
      return OwedBootstrap::after_restart(now);
    }
    info("sched/easypp: a bootstrap from slurmdbd is owed since %lld (%s); asking slurmdbd",
         static_cast<long long>(*marker.since), owed_marker().c_str());
    return OwedBootstrap::after_restart(*marker.since);
  }

  bool save_due() const {
    return planner_ && dirty_ && time(nullptr) - last_save_ >= config_.save_interval;
  }

  // Feeds jobs that ended since the last pass to the predictor (no end hook exists for
  // plugins); returns how many entered history. Needs the job read lock.
  int learn_finished_jobs() {
    int learnt = 0;
    std::unordered_set<JobId> finished_ids, active_ids;
    for (const FinishedJob& f : read_finished_jobs(finished_ids, active_ids)) {
      if (planner_->job_ended(f)) {
        ++learnt;
        dirty_ = true;
      }
    }
    planner_->retain_finished(finished_ids);
    planner_->retain_active(active_ids);
    return learnt;
  }

  void save_history(bool force) {
    if (!planner_ || !dirty_) return;
    const time_t now = time(nullptr);
    if (!force && now - last_save_ < config_.save_interval) return;
    std::string err;
    if (planner_->save(state_file_, err)) {
      if (!save_error_.empty())
        info("sched/easypp: predictor history saved to %s again", state_file_.c_str());
      save_error_.clear();
      dirty_ = false;
      if (!owed_bootstrap_) std::remove(owed_marker().c_str());  // a bootstrap done is saved
    } else if (err != save_error_) {
      // Once until it changes: a lasting cause (a newer easypp's state file, a full disk)
      // would otherwise be logged every save interval.
      error("sched/easypp: saving predictor history to %s failed: %s (not logged again "
            "until the error changes)", state_file_.c_str(), err.c_str());
      save_error_ = err;
    }
    last_save_ = now;
  }

  // Slurm's change stamps, to tell whether anything changed while the plan was made.
  // Reservations too, as stock backfill's: a reservation made, changed or ended moves
  // last_resv_update only, and changes which nodes a plan may use.
  struct Stamps {
    time_t job = 0, node = 0, part = 0, resv = 0;
    bool operator==(const Stamps&) const = default;
  };
  static Stamps stamps_now() {
    return {load_stamp(last_job_update), load_stamp(last_node_update),
            load_stamp(last_part_update), load_stamp(last_resv_update)};
  }

  static bool stopping() {
    return slurmctld_config.shutdown_time || slurmctld_config.scheduling_disabled;
  }

  // A pass. slurmctld's locks are held only to read the cluster and to carry the plan
  // out; the plan itself (the policy, the predictor) is made without them, so RPCs are
  // served meanwhile. Reading and carrying out also give the locks back every
  // easypp_yield_interval (PassLocks), so no hold is long even with 20,000 jobs queued.
  // Job and partition pointers do not survive an unlock: the reading finds jobs again by
  // id after a yield, the carrying out finds every job by id and partition by name.
  //
  // Why a snapshot read in slices cannot make the plan double-book: the resources held
  // (nodes, reservations, running jobs' allocations) are read in one hold, and each job
  // the plan starts is confined to the nodes the plan gave it (start_job excludes every
  // other node), where select_nodes checks what is really free. What changed during a
  // yield (a job started or ended by another scheduler, a new job) can only make the
  // plan stale, never make two starts share what Slurm holds: a start on resources taken
  // meanwhile is refused and keeps them for this pass, a job started meanwhile is
  // dropped from the queue (no longer pending after its id is looked up again), and any
  // change by others sets off another pass at once. Partition or configuration changes
  // during a yield invalidate partition pointers and node indices: the pass stops there.
  // So does a node the plan uses deleted or replaced (dynamic nodes: its index then names
  // no node, or another one), checked before starting, after every yield between starts
  // and before showing.
  void run_pass() {
    nodes_moved_ = false;
    struct timeval t0;
    gettimeofday(&t0, nullptr);
    const time_t now = time(nullptr);
    PassCounts counts;
    // Deferred while slurmctld is busy with RPCs, as stock backfill does (max_rpc_cnt),
    // and while a job is completing under CompleteWait (stock skips its cycle then, so
    // as not to start jobs on nodes still cleaning up): owed, so the thread tries again
    // at its next poll, whatever set this pass off (a change, the interval, a wake-up).
    deferred_ = true;
    if (many_pending_rpcs(config_.max_rpc_cnt)) {
      debug("sched/easypp: pass deferred: %d or more RPCs in progress (max_rpc_cnt)",
            config_.max_rpc_cnt);
      return;
    }
    if (slurm_conf.complete_wait > 0) {
      SlurmLock lock(kJobReadLock);
      if (job_is_completing(nullptr)) {
        debug("sched/easypp: pass deferred: a job is completing (CompleteWait=%u)",
              static_cast<unsigned>(slurm_conf.complete_wait));
        return;
      }
    }
    deferred_ = false;
    // As stock backfill's cycle: sdiag shows it active, and slurmctld purges no old job
    // record meanwhile (controller.c skips purge_old_job while bf_active). Set with none of
    // slurmctld's locks held, as stock sets it (the purge takes them under this mutex);
    // declared before the pass's locks, so cleared after they are given back.
    const ActiveFlag active;
    bool trace = config_.debug;
    std::unordered_set<JobId> not_runnable;
    QosBlock blocked;
    std::vector<LimitWait> limit_waits;  // jobs refused for a limit, in any round
    const CarryOutRules rules{config_.max_starts, config_.assoc_limit_stop,
                              config_.requeue_partitions};
    Stamps read_at, seen;
    // When the cluster was read (the last round).
    time_t part_read = 0, resv_read = 0, config_read = 0;
    PassLocks locks(YieldRules{config_.yield_interval_usec, config_.yield_sleep_usec,
                               config_.max_rpc_cnt});
    const YieldPoint yield = locks.point();
    constexpr int kRounds = 3;
    for (int round = 0; round < kRounds; ++round) {
      ClusterSnapshot snap;
      std::unordered_map<JobId, QueuedByName> where;
      {
        locks.take();
        if (stopping()) return;
        const Stamps read_from = stamps_now();
        locks.others_changed();  // from here: changes by others while the read yields
        trace = (slurm_conf.debug_flags & DEBUG_FLAG_BACKFILL) || config_.debug;
        locks.step("finished jobs");
        if (round == 0) counts.learnt = learn_finished_jobs();
        // The queue begins with one walk of job_list that cannot yield: on a fresh hold
        // unless this one is young.
        locks.step("queue");
        if (locks.poll(config_.yield_interval_usec / 4) == Yield::abandon) return;
        // Before a step that cannot yield (the queue's sort with preemption, the cluster's
        // resources): a fresh hold unless this one is young.
        const YieldPoint fresh_hold = [&] { return locks.poll(config_.yield_interval_usec / 4); };
        const JobQueue queue = read_job_queue(
            config_.max_job_test, yield, fresh_hold,
            config_.assoc_limit_stop ? LimitBlocked::planned : LimitBlocked::left_out,
            ReserveRules{config_.min_age_reserve, config_.min_prio_reserve},
            config_.bf_licenses ? LicenceBlocked::planned : LicenceBlocked::left_out);
        if (queue.abandoned) return;
        counts.build_usec = std::max(counts.build_usec, queue.build_usec);
        counts.sort_usec = std::max(counts.sort_usec, queue.sort_usec);
        if (round == 0) {
          counts.queued = queue.length;
          counts.not_runnable = queue.not_runnable;
          for (const PartitionQueue& pq : queue.partitions)
            if (pq.partition->state_up & PARTITION_SCHED) ++counts.partitions;
        }
        std::vector<ClusterJob> jobs = nodes_queue(queue, not_runnable, blocked);
        // Partition names now: read_cluster may yield (partitions stay valid unless it
        // abandons, job pointers do not).
        for (const ClusterJob& c : jobs) {
          QueuedByName& w = where[c.id];
          for (const QueuedJob& q : c.in)
            w.choices.push_back(
                {partition_name(q.partition), q.priority, q.qos_id, q.reservation, q.magnetic});
        }
        bool abandoned = false;
        locks.step("cluster");
        snap = read_cluster(jobs, now, config_.array_tasks, yield, &abandoned, fresh_hold);
        if (abandoned) return;
        apply_requeue_opt_in(snap, config_.requeue_partitions);
        // The read's own changes (reasons set by build_job_queue) need no new pass; a
        // change by others while it yielded may have been missed: then the stamps from
        // before the read count as seen, so another pass follows.
        read_at = locks.others_changed() ? read_from : stamps_now();
        if (round == 0) seen = read_at;
        part_read = load_stamp(last_part_update);
        resv_read = load_stamp(last_resv_update);
        config_read = slurm_conf.last_update;
        locks.release();
      }
      if (snap.waiting.empty() && !planner_->plans_empty_queue()) {
        // Every job left was refused for a limit earlier in the pass (the queue build
        // cleared their starts): show when they may start all the same. With none, a
        // start squeue was told of may still have gone from a pending job.
        if (!limit_waits.empty() || !told_starts_.start.empty()) {
          locks.take();
          if (stopping()) return;
          locks.step("show");
          show_plan(ClusterPlan{}, {}, limit_waits, ClusterModel{}, where, told_starts_,
                    time(nullptr), trace);
          locks.release();
        }
        break;
      }
      const ClusterModel model = build_cluster_model(snap);
      const ClusterPlan plan = planner_->plan_cluster(model, now);
      // The start forecasts too (a node plan per group, up to easypp_start_estimates jobs
      // placed), before the locks: show_plan only writes them where squeue reads them.
      std::vector<std::vector<Reservation>> forecasts;
      for (const GroupPlan& group : plan.groups) forecasts.push_back(planner_->forecast_starts(group));
      // The nodes the plan uses, by the names read: checked again under the locks.
      const NodesAsRead planned_nodes = nodes_as_read(snap, plan_node_indices(plan, forecasts));
      std::optional<std::string> moved;  // a planned node found deleted or replaced
      wake_at_ = plan.wake_at;
      bool again = false;
      {
        locks.take();
        if (stopping()) return;
        // Partitions or reservations changed, or slurmctld reconfigured, while we
        // planned: the plan's partitions and node indices may no longer be Slurm's (a
        // 22.05 reconfigure rebuilds the node table), or its reservations may no longer
        // hold, so nothing is started, as stock backfill gives up its cycle then. The
        // stamps seen stay old: another pass follows.
        if (load_stamp(last_part_update) != part_read ||
            load_stamp(last_resv_update) != resv_read || slurm_conf.last_update != config_read) {
          if (trace)
            info("sched/easypp: partitions, reservations or configuration changed while "
                 "planning; pass abandoned");
          return;
        }
        // A node the plan uses deleted or replaced while we planned: the same.
        if ((moved = moved_node(planned_nodes))) {
          give_up_for_moved_node(*moved, trace);
          return;
        }
        const bool quiet = stamps_now() == read_at && !locks.others_changed();
        bool stopped = false;
        locks.step("start");
        for (const std::string& note : model.notes) log_once(note);
        for (const std::string& note : plan.notes) log_once(note);
        for (const std::string& line : plan.errors) log_once_error(line);
        again = carry_out(plan, model, snap, where, rules, not_runnable, blocked, limit_waits,
                          trace, counts.starts, abandon_if_moved(yield, planned_nodes, &moved),
                          stopped);
        if (moved) {  // a yield between starts found it
          give_up_for_moved_node(*moved, trace);
          return;
        }
        if (stopped) return;
        if (!again || round + 1 == kRounds) {
          locks.step("show");
          if (locks.poll(config_.yield_interval_usec / 4) == Yield::abandon) return;
          if ((moved = moved_node(planned_nodes))) {
            give_up_for_moved_node(*moved, trace);
            return;
          }
          // At the time of showing, not the pass's start (before it planned without the
          // locks): no start shown in the past, no job stamp moved back.
          show_plan(plan, forecasts, limit_waits, model, where, told_starts_, time(nullptr), trace);
        }
        // Our own starts need no new pass; a change made by others while we planned (or
        // while the carrying out yielded) does.
        seen = quiet && !locks.others_changed() ? stamps_now() : read_at;
        locks.release();
      }
      if (!again) break;
    }

    counts.longest_hold_usec = locks.longest_hold_usec();
    counts.slept_usec = locks.slept_usec();
    counts.yields = locks.yields();
    finish_stats(t0, counts);
    seen_job_ = seen.job;
    seen_node_ = seen.node;
    seen_part_ = seen.part;
    seen_resv_ = seen.resv;
    // Stamps count whole seconds: a change later in the second a stamp already shows
    // would not move it, so look once more when that second is over.
    seen_at_ = time(nullptr);
    recheck_ = std::max({seen.job, seen.node, seen.part, seen.resv}) >= seen_at_;
    debug("sched/easypp: pass %u: %d queued in %d partitions (%d not runnable for limits or "
          "licences), %d started (%d backfilled), %d refused by select_nodes, %d finished jobs "
          "learnt, %u usec, longest lock hold %ld usec (in %s; queue built in %ld usec, sorted in %ld usec), %d yields "
          "(%ld usec)",
          slurmctld_diag_stats.bf_cycle_counter, counts.queued, counts.partitions,
          counts.not_runnable, counts.starts.started, counts.starts.backfilled,
          counts.starts.refused, counts.learnt,
          slurmctld_diag_stats.bf_cycle_last, counts.longest_hold_usec, locks.longest_hold_steps().c_str(), counts.build_usec,
          counts.sort_usec, counts.yields,
          counts.slept_usec);
  }

  // A pass given up because a node its plan uses was deleted or replaced (run_pass):
  // nothing more is started or shown. The stamps seen stay old, and another pass is owed
  // in any case (deleting a node need not move a stamp).
  void give_up_for_moved_node(const std::string& node, bool trace) {
    nodes_moved_ = true;
    if (trace)
      info("sched/easypp: planned node %s was deleted or replaced; pass abandoned", node.c_str());
  }

  // The queued jobs planned: those of partitions that schedule, less the ones found not
  // runnable earlier in the pass, the records of a blocked QOS and those past
  // easypp_max_job_user.
  std::vector<ClusterJob> nodes_queue(const JobQueue& queue,
                                      const std::unordered_set<JobId>& not_runnable,
                                      const QosBlock& blocked) {
    auto keep = [](part_record_t* part) { return (part->state_up & PARTITION_SCHED) != 0; };
    std::vector<ClusterJob> jobs = cluster_jobs(queue, keep);
    std::optional<AssocMgrReadLock> lock;
    if (!blocked.empty()) lock.emplace();
    std::erase_if(jobs, [&](ClusterJob& c) {
      if (not_runnable.count(c.id) > 0) return true;
      if (blocked.empty()) return false;
      std::erase_if(c.in, [&](const QueuedJob& q) {
        return blocked.blocks(c.job, c.id, q.qos_id, q.partition);
      });
      return c.in.empty();
    });
    lock.reset();
    if (config_.max_job_user > 0) {
      std::unordered_map<std::uint32_t, int> per_user;
      std::erase_if(jobs, [&](const ClusterJob& c) {
        return ++per_user[c.job->user_id] > config_.max_job_user;
      });
    }
    return jobs;
  }

  // Each distinct line once per slurmctld run, as info() or error().
  void log_once(const std::string& line) {
    if (logged_.insert(line).second) info("sched/easypp: %s", line.c_str());
  }
  void log_once_error(const std::string& line) {
    if (logged_.insert(line).second) error("sched/easypp: %s", line.c_str());
  }

  // sdiag's "Backfilling stats", filled as stock backfill does.
  struct ActiveFlag {
    ActiveFlag() { set(1); }
    ~ActiveFlag() { set(0); }
    ActiveFlag(const ActiveFlag&) = delete;
    ActiveFlag& operator=(const ActiveFlag&) = delete;
    static void set(std::uint32_t active) {
      slurm_mutex_lock(&check_bf_running_lock);
      slurmctld_diag_stats.bf_active = active;
      slurm_mutex_unlock(&check_bf_running_lock);
    }
  };

  static void finish_stats(const struct timeval& t0, const PassCounts& counts) {
    struct timeval t1;
    gettimeofday(&t1, nullptr);
    // Less the time the locks were given back, as stock backfill leaves out bf_sleep_usec.
    const auto usec = static_cast<std::uint32_t>(std::max<long>(
        0, (t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_usec - t0.tv_usec) - counts.slept_usec));
    diag_stats_t& st = slurmctld_diag_stats;
    st.bf_when_last_cycle = t0.tv_sec;
    st.bf_cycle_counter++;
    st.bf_cycle_sum += usec;
    st.bf_cycle_last = usec;
    st.bf_cycle_max = std::max(st.bf_cycle_max, usec);
    st.bf_last_depth = counts.starts.examined;
    st.bf_last_depth_try = counts.starts.examined;
    st.bf_depth_sum += counts.starts.examined;
    st.bf_depth_try_sum += counts.starts.examined;
    st.bf_queue_len = counts.queued;
    st.bf_queue_len_sum += counts.queued;
  }

  std::atomic<bool> reconfig_{true};
  std::string params_;
  Config config_;
  std::unique_ptr<Planner> planner_;
  std::string state_file_;
  time_t last_save_ = 0;
  bool dirty_ = false;
  std::string save_error_;  // the last save's error, logged once
  time_t seen_job_ = 0, seen_node_ = 0, seen_part_ = 0, seen_resv_ = 0;
  ToldStarts told_starts_;  // what squeue -i was last told (show_plan)
  time_t seen_at_ = 0;    // when the stamps above were taken
  bool recheck_ = false;  // one of them was of that very second
  std::unordered_set<std::string> logged_;  // lines logged once per slurmctld run
  std::optional<time_t> wake_at_;  // the last plan's wake_at
  bool deferred_ = false;          // the last pass was put off (run_pass): one is owed
  bool nodes_moved_ = false;  // the last pass was given up for a planned node moved: one is owed
  std::optional<OwedBootstrap> owed_bootstrap_;  // ask_slurmdbd, bootstrap_answered
  int asked_days_ = 0;                           // the window of the query last started
  BootstrapWorker bootstrap_query_;               // its query, on its own thread
  std::string cluster_;        // slurm_conf's, for the bootstrap's query
  std::uint32_t slurm_uid_ = 0;
};

// An epoch second as the agent's steady clock (the agent must not jump with the wall
// clock). A pass at that second sees time() >= it, so the policy's release is due.
std::optional<std::chrono::steady_clock::time_point> steady_time_of(std::optional<time_t> t) {
  if (!t) return std::nullopt;
  const auto wall = std::chrono::system_clock::from_time_t(*t) - std::chrono::system_clock::now();
  return std::chrono::steady_clock::now() +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(wall);
}

std::mutex g_mutex;  // init/fini/reconfig against each other
// Plain pointers, made by init() and deleted by fini(), never by a static destructor:
// slurmctld's fatal() calls exit() holding its locks, maybe with a pass under way, and
// an exit-time ~Agent would join that thread (a hang, the locks never freed) or, called
// on the thread itself, destroy it joinable (std::terminate). At exit() the thread is
// left to the process's end, like stock backfill's.
Scheduler* g_scheduler = nullptr;
Agent* g_agent = nullptr;

void log_exception(const char* where) {
  try {
    throw;
  } catch (const std::exception& e) {
    error("sched/easypp: %s: %s", where, e.what());
  } catch (...) {
    error("sched/easypp: %s: unknown exception", where);
  }
}

}  // namespace
}  // namespace easypp::plugin

using namespace easypp::plugin;

int init(void) {
  try {
    std::lock_guard lock(g_mutex);
    if (slurmctld_config.scheduling_disabled) return SLURM_SUCCESS;
    if (g_agent) return SLURM_SUCCESS;
    auto scheduler = std::make_unique<Scheduler>();
    Scheduler* s = scheduler.get();
    Agent::Hooks hooks;
    hooks.changed = [s] { return s->changed(); };
    hooks.pass = [s] {
      s->pass();
      if (!g_agent) return;
      g_agent->set_interval(s->interval());
      g_agent->wake_at(steady_time_of(s->wake_at()));
    };
    hooks.error = [](const std::string& what) {
      error("sched/easypp: scheduling pass failed: %s", what.c_str());
    };
    auto agent = std::make_unique<Agent>(hooks, kPoll, s->interval());
    g_scheduler = scheduler.release();
    g_agent = agent.release();
    g_agent->start("easypp");
    info("sched/easypp: %s loaded", plugin_name);
    return SLURM_SUCCESS;
  } catch (...) {
    log_exception("init");
    return SLURM_ERROR;
  }
}

void fini(void) {
  try {
    std::lock_guard lock(g_mutex);
    if (g_agent) g_agent->stop();
    if (g_scheduler) g_scheduler->final_save();
    delete std::exchange(g_agent, nullptr);
    delete std::exchange(g_scheduler, nullptr);
  } catch (...) {
    log_exception("fini");
  }
}

int sched_p_reconfig(void) {
  try {
    std::lock_guard lock(g_mutex);
    if (g_scheduler) g_scheduler->request_reconfig();
    if (g_agent) g_agent->wake();
  } catch (...) {
    log_exception("sched_p_reconfig");
  }
  return SLURM_SUCCESS;
}
