// The plugin's settings, read from slurm.conf SchedulerParameters keys prefixed
// `easypp_`. Pure C++ (no Slurm) so the parser is unit-tested on its own.
#ifndef EASYPP_PLUGIN_CONFIG_H
#define EASYPP_PLUGIN_CONFIG_H

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace easypp::plugin {

struct Config {
  // Policy for partitions not named in partition_policy (core's make_policy names).
  std::string policy = "easy++";
  // Partition name -> policy name (easypp_partition_policy=PART:POLICY[;PART:POLICY]).
  std::map<std::string, std::string> partition_policy;
  // Partitions whose running jobs a policy that kills (pv-easy, timed-run) may requeue
  // (easypp_requeue_partitions=PART[;PART]); such a policy is refused without one.
  std::set<std::string> requeue_partitions;
  // History-predictor keys; when any is set they form the predictor spec for the
  // policies that take a predictor (core's policy_takes_predictor: the + and ++ variants,
  // pv-easy, timed-run; not easy, easy-sjbf, x2, mq..., whose name fixes their
  // predictions), as easypp-sim --predictor does (see predictor_spec()).
  int window = 2;                       // easypp_window, 1..30
  std::string metric = "avg";           // easypp_metric: avg|median|min|max
  std::string correction = "estimate";  // easypp_correction: estimate|gradual|exponential
  bool propagation = false;             // easypp_propagation: off|on
  bool predictor_keys_given = false;
  // easypp_predictor=SPEC: a whole predictor spec (items separated by ';', as Slurm splits
  // SchedulerParameters at commas), e.g. learned:under=4;eta=0.3. Replaces the history
  // keys above; empty: they apply.
  std::string predictor;
  // Seconds between scheduling passes when nothing changes (corrections, clock).
  int interval = 5;  // easypp_interval, 1..3600
  // Jobs started per pass at most (stock: bf_max_job_start); 0: no limit.
  int max_starts = 0;  // easypp_max_starts, 0..100000
  // Pending tasks of one job array planned per pass (each may start; stock backfill
  // starts one task per array per test).
  // 1,000 by default: more than the tasks one pass can start on most clusters, so an array
  // of short tasks is never held back by the plan (a cap of 100 left a 128-CPU testbed idle).
  int array_tasks = 1000;  // easypp_array_tasks, 1..10000
  // Waiting jobs of one user planned per pass at most (stock: bf_max_job_user); the
  // user's other jobs wait for a later pass without a reservation; 0: no limit.
  int max_job_user = 0;  // easypp_max_job_user, 0..100000
  // Reservations per pass for policies of the EASY family (their depth=N key; stock
  // backfill reserves for every job it tests); 0: the policy's own (1: EASY).
  int reservation_depth = 0;  // easypp_reservation_depth, 0..1000
  // Waiting jobs per partition handed to the policy, highest priority first.
  int max_job_test = 1000;  // easypp_max_job_test, 1..100000
  // Waiting jobs per partition, beyond those the policy starts or reserves, that get a
  // forecast start time for squeue --start (core/start_forecast.h); 0: none.
  int start_estimates = 100;  // easypp_start_estimates, 0..100000
  // Predictor history file; empty: StateSaveLocation/easypp/predictor.json.
  std::string state_file;  // easypp_state_file, absolute path
  // Seconds between periodic history saves (also saved at shutdown).
  int save_interval = 60;  // easypp_save_interval, 1..86400
  // With accounting through slurmdbd and no saved history, learn the jobs that ended in
  // this many past days from slurmdbd at start; 0: never.
  int bootstrap_days = 30;  // easypp_bootstrap_days, 0..3650
  // A pass gives slurmctld's locks back after holding them this long (stock:
  // bf_yield_interval, 2 s) and sleeps this long before taking them again (stock:
  // bf_yield_sleep, 0.5 s): short, so that no RPC waits long behind a pass.
  int yield_interval_usec = 30000;  // easypp_yield_interval, 1000..10000000
  int yield_sleep_usec = 10000;     // easypp_yield_sleep, 1..10000000 (stock: > 0)
  // Slurm's own max_rpc_cnt (alias max_rpc_count; max_rpc_cnt wins, as in stock),
  // honoured as stock backfill does: with that many RPCs in progress a pass is deferred,
  // or yields at once; 0: never. max_sched_rpc_cnt, no Slurm key, is read last, with an error.
  int max_rpc_cnt = 0;  // max_rpc_cnt, 0..1000
  // Slurm's own assoc_limit_stop, honoured as stock backfill does: a job held back by a
  // QOS or association limit is planned and keeps what the plan gives it, so no lower job
  // in its partition takes it; off: such a job is left out of the plan.
  bool assoc_limit_stop = false;  // assoc_limit_stop (a flag; stock matches the word)
  // Slurm's own bf_licenses, honoured as stock backfill does: a job waiting for licences
  // is planned (at the end of the running jobs that hold them) and may be reserved for;
  // off: it is left out until its licences are free. Licences are planned either way,
  // so no backfill takes those a job planned to start later needs. (Slurm's main
  // scheduler reads the word too: it then stops at a job waiting for licences.)
  bool bf_licenses = false;  // bf_licenses (a flag)
  // Slurm's own bf_min_age_reserve and bf_min_prio_reserve, honoured as stock backfill
  // does: nothing is reserved for a job eligible for less than that many seconds, or of
  // a lower priority (a QOS's MinPrioThreshold takes the place of the latter); it starts
  // only where it fits now, and the jobs behind it are planned as if it were not there.
  int min_age_reserve = 0;            // bf_min_age_reserve, 0..2592000 (30 days); 0: off
  std::int64_t min_prio_reserve = 0;  // bf_min_prio_reserve, 1..4294967295; 0: off

  // Log every decision at info level even without DebugFlags=Backfill.
  bool debug = false;  // easypp_debug=0|1

  // The policy for a partition.
  const std::string& policy_for(const std::string& partition) const;
  // The predictor spec built from the history keys, or "" when none was given (then
  // each policy uses its own default predictor).
  std::string predictor_spec() const;
};

struct ParsedConfig {
  Config config;
  // One line per rejected key or value, naming key=value, the reason and what is used.
  std::vector<std::string> errors;
  // Stock backfill's keys found that sched/easypp does not honour (bf_*, and
  // max_job_bf and time_min_as_soft_limit), each with what it does instead (the plugin
  // logs them in one line: they are not silently dropped).
  std::vector<std::string> ignored;
};

// Parses Slurm's comma-separated SchedulerParameters. Keys not starting with `easypp_`
// belong to Slurm and are ignored, but for a key of a predictor spec or a policy
// (metric=, depth=), or a bare word that is none of Slurm's flags or keys right after
// such a spec (mq:60,3600): a spec given with commas was cut there, so it is an error, and the
// easypp_predictor, easypp_policy or easypp_partition_policy entry it was cut off falls
// back to its default with it (one error line); easypp_ keys are case-insensitive like Slurm's, and so
// are the words of a fixed vocabulary (on, avg, ...), not policy or predictor specs. A bad
// value keeps the default and adds an error; it never throws for bad input.
// `policies` lists the valid policy names (core's policy_names()); `killing` those whose
// decisions kill and requeue running jobs (PolicyTraits::kills): naming one without
// easypp_requeue_partitions is an error and keeps the default.
ParsedConfig parse_scheduler_parameters(std::string_view params,
                                        const std::vector<std::string>& policies,
                                        const std::vector<std::string>& killing = {});

}  // namespace easypp::plugin

#endif
