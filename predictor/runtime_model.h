// The predictor proper: a spec plus per-user histories. Not locked; the C ABI locks.
#ifndef EASYPP_PREDICTOR_RUNTIME_MODEL_H
#define EASYPP_PREDICTOR_RUNTIME_MODEL_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "easypp/predictor.h"
#include "job_features.h"
#include "online_regression.h"
#include "spec.h"
#include "user_history.h"
#include "workload_stats.h"

namespace easypp::predictor {

class RuntimeModel {
 public:
  explicit RuntimeModel(const Spec& spec) : spec_(spec), spec_text_(canonical(spec)) {
    if (spec_.kind == Kind::Learned) learner_.emplace(spec_.learned);
  }

  const Spec& spec() const { return spec_; }
  const std::string& spec_text() const { return spec_text_; }
  bool has_history() const {
    return spec_.kind == Kind::History || spec_.kind == Kind::Last || spec_.kind == Kind::Learned;
  }

  // Not const: the learned kind remembers the features it predicted a job with.
  std::int64_t predict(const epp_job& job);

  // Evaluation kinds (paper 003): the whole workload's statistics. False with `error` on a
  // bad workload; other kinds ignore it (true).
  bool set_workload(const epp_workload_job* jobs, std::size_t n, std::string& error);
  const WorkloadStats* workload() const { return workload_ ? &*workload_ : nullptr; }
  // False (and no change) for kinds without random draws.
  bool set_seed(std::uint64_t seed);
  // True if the run entered history (see predictor/README.md for what teaches).
  bool learn(const epp_job& job, std::int64_t start, std::int64_t end, int end_state);

  // Whether a job that ended this way teaches, per spec.learn.
  bool teaches(int end_state, std::int64_t runtime) const;

  // Users with history (a learned-kind user predicted but never learnt from has none).
  std::size_t users() const { return users_with_history_; }
  std::size_t records() const { return records_; }

  // For persistence and the C ABI: the user's history (null if none), each user's history
  // and each user's pending jobs (kind learned), in no particular order.
  const UserHistory* history(std::uint32_t user) const;
  template <class F>
  void for_each_history(F f) const {
    for (const auto& [uid, e] : users_)
      if (e.has_history) f(uid, e.history);
  }
  template <class F>
  void for_each_pending(F f) const {
    for (const auto& [uid, e] : users_)
      if (!e.pending.empty()) f(uid, e.pending);
  }
  void clear();
  // Takes what `loaded` learnt (histories, pending jobs, the learned weights), keeping this
  // model's spec and workload: a load must neither move the spec text the C ABI hands out
  // (read without the lock) nor drop an evaluation kind's workload. Same spec required.
  void adopt_state(RuntimeModel&& loaded);
  // Loading a saved state: runs go back in without the end-state filter or accuracy.
  void restore_recent(std::uint32_t user, const Run& run);
  void restore_by_estimate(std::uint32_t user, const Run& run);
  void rebuild_by_estimate(std::uint32_t user);  // from the recent runs
  void restore_accuracy(std::uint32_t user, double sum, std::uint64_t count);
  void restore_seen(std::uint32_t user, std::uint64_t id, std::int64_t end);
  // Kind learned: the model and the jobs predicted but not ended (null/empty otherwise).
  const OnlineRegression* learner() const { return learner_ ? &*learner_ : nullptr; }
  OnlineRegression* learner() { return learner_ ? &*learner_ : nullptr; }
  void restore_pending(std::uint32_t user, const PendingJob& job) { users_[user].pending.remember(job); }

 private:
  // What is kept of one user. The learned kind's pending jobs sit beside the history, so a
  // predict + learn pair looks the user up once each (with many users the lookup misses
  // the cache). An emptied pending list stays (a user with one job at a time does not
  // allocate per job), holding at most PendingJobs::kKeptCapacity slots: memory per user
  // stays bounded.
  struct UserEntry {
    UserHistory history;
    PendingJobs pending;
    // False while the entry only holds pending jobs: the user has no history yet.
    bool has_history = false;
  };

  std::int64_t predict_history(const UserHistory* h, const epp_job& job) const;
  std::int64_t fallback(const UserHistory* h, std::int64_t estimate) const;
  std::int64_t predict_learned(const UserHistory* h, PendingJobs* pending, const epp_job& job);
  // runtime_log1p: std::log1p(run.runtime), read only if the ring keeps logs.
  void add_run(UserHistory& h, const Run& run, double runtime_log1p);
  // The user's history, made if new (set up for the model's kind).
  UserHistory& history_of(std::uint32_t user);
  UserHistory& history_of(UserEntry& e);

  Spec spec_;
  std::string spec_text_;
  std::unordered_map<std::uint32_t, UserEntry> users_;
  std::size_t users_with_history_ = 0;
  std::size_t records_ = 0;
  std::optional<WorkloadStats> workload_;
  std::optional<OnlineRegression> learner_;
};

}  // namespace easypp::predictor

#endif
