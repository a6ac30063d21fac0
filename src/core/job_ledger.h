// The rules that drive a policy, once for both drivers: what the scheduler sees of a job's
// time limit (X2 doubles it), its prediction (made once, when the job is first seen),
// corrections when a running job outlives its prediction (paper 000 section 3.2), what the
// predictor learns when a job ends (the user's own limit, never the scaled one), and
// re-prediction of a user's waiting jobs when the predictor propagates.
//
// The ledger remembers, per job id, the prediction and corrections it gave, so a driver
// that sees the world as snapshots (the plugin) gets the same numbers as one that sees it
// as events (the simulator). `sync` is the snapshot form: running and waiting jobs as the
// driver sees them now, and the policy's decision back. The simulator keeps its own
// in-place state for speed and calls the same rules one event at a time (admit,
// correct, ended); a test drives one event log through both and compares decisions.
#ifndef EASYPP_CORE_JOB_LEDGER_H
#define EASYPP_CORE_JOB_LEDGER_H

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/decision.h"
#include "core/job.h"
#include "core/policy.h"
#include "core/predictions.h"

namespace easypp {

// What a driver knows of a job, in its own plain numbers.
struct JobFacts {
  JobId id = 0;
  UserId user = 0;
  Time submit = 0;
  std::int64_t priority = 0;  // Job::priority
  int procs = 1;
  Time limit = 0;  // the user's time limit: the job is killed at start + limit
  Time start = 0;  // running jobs only
  int restarts = 0;
  bool requeueable = true;  // Job::requeueable
  bool releasing = false;   // Job::releasing
  bool reservable = true;   // Job::reservable
  std::shared_ptr<const JobRequest> request;
  std::shared_ptr<const Allocation> allocation;  // running jobs on a Machine
  // The real runtime, known only to a simulator (clairvoyant predictors); -1 otherwise.
  Time actual_runtime = -1;
};

class JobLedger {
 public:
  // A running job is corrected at most this many times in one sync: each correction moves
  // its predicted end past the previous one, so only a job far past its limit gets near.
  static constexpr int kMaxCorrectionsPerSync = 64;

  // How the driver sees the world. snapshots (the plugin): the ledger remembers each
  // job's prediction and corrections between syncs and takes each ended job once. events
  // (the simulator): the driver keeps its jobs in its own state and reports each event
  // once, so the ledger keeps no per-job memory (the same rules, without the cost).
  enum class Driver { snapshots, events };

  // For policies with these traits (one ledger serves every partition planned by the same
  // policy, so they share its history). Throws std::invalid_argument on a bad predictor
  // spec; a non-empty override replaces the traits' predictor spec.
  explicit JobLedger(const PolicyTraits& traits, std::string_view predictor_override = {},
                     Driver driver = Driver::snapshots);

  const PolicyTraits& traits() const { return predictions_.traits(); }
  Predictions& predictions() { return predictions_; }
  const Predictions& predictions() const { return predictions_; }

  // --- the rules, one job at a time ---------------------------------------------------
  // The job as the policy plans it: the scheduler's estimate (limit x estimate_factor, at
  // least one second) and the prediction made when the ledger first saw the job.
  Job admit(const JobFacts& facts);
  // A running job as the policy plans it (predicted now if it started unseen), corrected
  // while its prediction has expired at `now` (at most kMaxCorrectionsPerSync times).
  RunningJob running(const JobFacts& facts, Time now);
  // A running job in a driver's own state reached its predicted end: correct it once and
  // remember it. False when the policy does not correct or it is not overdue.
  bool correct(RunningJob& job, Time now);
  // When `job` must next be corrected (its predicted end), if the policy corrects.
  std::optional<Time> next_correction(const RunningJob& job) const;

  struct Ended {
    bool learnt = false;
    std::optional<UserId> repredict_user;  // propagation: predict this user's waiting jobs again
  };
  // A job left the system (once per id; later calls return {}): the predictor learns from
  // the user's own limit, and the ledger forgets the job. With propagation, the user's
  // waiting jobs are predicted again the next time they are admitted or re-predicted.
  Ended ended(const JobFacts& facts, Time end, int end_state);
  // A job's real end, for the syncs' ClusterState::ended until retain_ended forgets it;
  // ended() notes it itself. For a ledger that learns nothing (a driver then does not
  // call ended()). Snapshots only: an events driver keeps its state's ends itself.
  void note_end(JobId id, Time end);
  // Predicts a waiting job again (propagation), returning its new prediction; remembered
  // only for a job the ledger has admitted.
  Time repredict(Job& job, Time actual_runtime = -1);

  // --- the snapshot form ---------------------------------------------------------------
  // Plans a pass of `policy` (of this ledger's traits): running and waiting jobs
  // (priority order) as the driver sees them now. The state the policy saw stays readable
  // until the next sync.
  const Decision& sync(Policy& policy, Time now, int procs, const Machine* machine,
                       std::span<const JobFacts> running, std::span<const JobFacts> waiting);
  const ClusterState& state() const { return state_; }
  const Decision& decision() const { return decision_; }

  // Forget jobs no longer pending or running (bounds memory between syncs).
  void retain(const std::unordered_set<JobId>& active);
  // Forget the ids of ended jobs slurmctld no longer keeps (bounds the dedupe set and the
  // ends shown).
  void retain_ended(const std::unordered_set<JobId>& alive);
  std::size_t remembered() const { return memory_.size(); }
  std::size_t corrections_made() const { return corrections_; }

 private:
  struct Memory {
    Time prediction = 0;
    int corrections = 0;
    UserId user = 0;
    bool running = false;
    Time limit = 0;  // the user's limit the prediction was made under; -1: unknown
  };
  Job base_job(const JobFacts& facts) const;

  Predictions predictions_;
  bool remembers_ = true;  // Driver::snapshots
  std::unordered_map<JobId, Memory> memory_;
  // Jobs taken as ended (each once), with their real ends, until retain_ended forgets
  // them: the syncs' ClusterState::ended.
  std::unordered_map<JobId, Time> ended_;
  ClusterState state_;
  Decision decision_;
  // The jobs the syncs at started_at_ started (every group planned then).
  std::unordered_set<JobId> started_;
  Time started_at_ = -1;
  std::size_t corrections_ = 0;
};

}  // namespace easypp

#endif
