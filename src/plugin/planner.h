// The Slurm-free half of a scheduling pass: translates the cluster model into the core's
// JobLedger (which predicts, corrects and learns by the same rules as in the simulator)
// and asks each group's policy for a plan on the nodes. Owns the groups' policies and one
// ledger per policy name (partitions with the same policy share its history).
#ifndef EASYPP_PLUGIN_PLANNER_H
#define EASYPP_PLUGIN_PLANNER_H

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/decision.h"
#include "core/job.h"
#include "core/job_ledger.h"
#include "core/policy.h"
#include "core/start_forecast.h"
#include "plugin/cluster_model.h"
#include "plugin/config.h"
#include "plugin/snapshot.h"

namespace easypp::plugin {

// Core policies whose decisions kill and requeue running jobs (PolicyTraits::kills:
// pv-easy, timed-run). The plugin carries kills out (slurm_requeue.h) only on jobs of the
// partitions named in easypp_requeue_partitions; without one the configuration refuses
// these policies (parse_scheduler_parameters' `killing`).
std::vector<std::string> killing_policy_names();

// One plan on the cluster's nodes: a group of partitions planned together by one policy.
struct GroupPlan {
  std::string policy;
  bool honours_reservable = false;  // the policy's PolicyTraits::honours_reservable
  std::vector<std::size_t> partitions;  // Machine partition indices
  ClusterState state;                   // what the policy saw (machine: the model's)
  Decision decision;
};

// A pass on nodes. Partitions sharing nodes are planned together, so they never
// double-book: all partitions form one group under the global policy (easypp_policy),
// except a partition that has its own policy (easypp_partition_policy) and shares no
// node with any other partition, which is planned alone with it.
struct ClusterPlan {
  std::vector<GroupPlan> groups;
  // Partition policies not applied (the partition shares nodes), one line each.
  std::vector<std::string> notes;
  // Configuration naming partitions slurmctld does not have (easypp_partition_policy,
  // easypp_requeue_partitions: a typo would leave them silently unused), one line each.
  std::vector<std::string> errors;
  // The earliest time a group's policy asked to plan again (Decision::wake_at, e.g. mq-vd
  // releasing a delayed job), for the scheduling thread's timed pass; none if no group asked.
  std::optional<Time> wake_at;
};

// The start squeue --start shows for a job select_nodes refused for a limit under
// assoc_limit_stop, planned in `state` (its partitions' group): a guess, as stock's is.
// Stock backfill does not know when a limit frees either (that would take every job's
// start and end): it shows its later_start, the next change in its plan after now (a
// running job's end, or the edge of a reservation), else 500 s ahead. Here: the first
// planned end of one of the group's running jobs after now, else 500 s ahead.
Time limit_wait_shown(const ClusterState& state);

class Planner {
 public:
  // Throws std::invalid_argument when a policy or predictor spec is rejected (the config
  // parser has already checked names, so this means a bad predictor spec).
  explicit Planner(const Config& config);
  Planner(const Planner&) = delete;
  Planner& operator=(const Planner&) = delete;
  ~Planner();

  // True when some configured policy kills (pv-easy, timed-run): it must be asked to plan
  // even with no job waiting (timed-run commits a job when its trial ends).
  bool plans_empty_queue() const { return kills_; }

  // Drops per-job memory (predictions, corrections) of jobs no longer pending or running.
  void retain_active(const std::unordered_set<JobId>& active);

  // Plans the model's waiting jobs (priority order) on its machine. `model` must outlive
  // the result (the states point to its machine).
  ClusterPlan plan_cluster(const ClusterModel& model, Time now);
  // Forecast starts (squeue --start) for up to Config::start_estimates of the plan's
  // waiting jobs that it neither starts nor reserves.
  std::vector<Reservation> forecast_starts(const GroupPlan& plan);

  // A job left the system. Deduplicated by job id; returns true if some predictor learnt.
  bool job_ended(const FinishedJob& finished);
  // Forget dedupe ids not in `alive` (ids slurmctld still keeps), bounding memory.
  void retain_finished(const std::unordered_set<JobId>& alive);

  // History persistence, through the predictor whose history is the widest (the global
  // policy's when it learns). No-ops returning true/EPP_LOAD_MISSING when no policy learns.
  bool save(const std::string& path, std::string& error) const;
  int load(const std::string& path, std::string& error);
  // A reconfigure: this (new) planner takes `old`'s history in memory, as save + load
  // would give it, so nothing learnt since the last save is lost when that save fails.
  // EPP_LOAD_OK; EPP_LOAD_MISSING when `old` or this planner learns nothing (load the
  // state file instead); EPP_LOAD_ERROR with a message when the copy failed (this
  // planner's history is then empty).
  int take_history(const Planner& old, std::string& error);

  // The canonical predictor spec a configured policy (its spec as configured) plans with;
  // "" for a policy not configured.
  std::string predictor_of(const std::string& policy) const;
  // For the start-up log: "predictor SPEC" when easypp_predictor or the history keys give
  // one, naming each configured policy that plans otherwise, since its name fixes its
  // predictions ("predictor learned (policy easy plans on the users' estimates)"); "" when
  // none is given (each policy plans with its own).
  std::string predictor_note() const;

  std::size_t history_records() const;
  // Whether any configured policy's predictions learn from finished jobs (else there is
  // no history to load, save or bootstrap).
  bool learns() const { return persisted_slot() != nullptr; }
  std::size_t corrections_made() const;

 private:
  // One per policy name: its ledger (predictions and per-job memory).
  struct PredictionSlot {
    std::unique_ptr<JobLedger> ledger;
    bool learns = false;  // history-based: persisted and fed finished jobs
  };

  Policy& group_policy(const std::string& key, const std::string& name);
  PredictionSlot& slot_for(const std::string& policy_name, const Policy& policy);
  PredictionSlot* persisted_slot() const;

  // A group's policy and the spec it was made from (name() drops a spec's keys).
  struct GroupPolicy {
    std::string spec;
    std::unique_ptr<Policy> policy;
  };

  Config config_;
  std::map<std::string, PredictionSlot> slots_;        // by policy name
  std::map<std::string, GroupPolicy> group_policies_;  // by group key
  bool kills_ = false;  // some configured policy kills
  StartForecast forecast_;
};

}  // namespace easypp::plugin

#endif
