#include "runtime_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "correction.h"
#include "error_model.h"
#include "rounding.h"

namespace easypp::predictor {
namespace {

// Rounds half away from zero; the metric values are small, so the division is exact enough.
std::int64_t rounded_mean(std::int64_t sum, std::size_t n) {
  return (sum + static_cast<std::int64_t>(n / 2)) / static_cast<std::int64_t>(n);
}

std::int64_t apply_metric(Metric metric, std::int64_t* v, std::size_t n) {
  switch (metric) {
    case Metric::Avg: {
      std::int64_t sum = 0;
      for (std::size_t i = 0; i < n; ++i) sum += v[i];
      return rounded_mean(sum, n);
    }
    case Metric::Median: {
      std::sort(v, v + n);
      if (n % 2 == 1) return v[n / 2];
      return rounded_mean(v[n / 2 - 1] + v[n / 2], 2);
    }
    case Metric::Min:
      return *std::min_element(v, v + n);
    case Metric::Max:
      return *std::max_element(v, v + n);
  }
  return v[0];
}

}  // namespace

std::int64_t RuntimeModel::fallback(const UserHistory* h, std::int64_t estimate) const {
  if (spec_.fallback == Fallback::Relative && h != nullptr && h->accuracy_count > 0) {
    double accuracy = h->accuracy_sum / static_cast<double>(h->accuracy_count);
    return rounded_within(accuracy * static_cast<double>(estimate), 1, estimate);
  }
  return estimate;
}

std::int64_t RuntimeModel::predict_history(const UserHistory* h, const epp_job& job) const {
  const std::size_t w = static_cast<std::size_t>(spec_.window);
  const bool full = spec_.fullness == Fullness::Full;
  std::int64_t v[kMaxWindow];
  std::size_t n = 0;
  if (h != nullptr) {
    switch (spec_.type) {
      case WindowType::All: {
        const RunRing& r = h->recent;
        std::size_t take = std::min(w, r.size());
        for (std::size_t i = r.size() - take; i < r.size(); ++i) v[n++] = r.at(i).runtime;
        break;
      }
      case WindowType::Immediate: {
        // The w most recent runs, used only where their estimate equals this job's.
        const RunRing& r = h->recent;
        std::size_t take = std::min(w, r.size());
        for (std::size_t i = r.size() - take; i < r.size(); ++i)
          if (r.at(i).estimate == job.estimate) v[n++] = r.at(i).runtime;
        break;
      }
      case WindowType::Extended: {
        if (const RunRing* r = h->runs_with_estimate(job.estimate)) {
          std::size_t take = std::min(w, r->size());
          for (std::size_t i = r->size() - take; i < r->size(); ++i) v[n++] = r->at(i).runtime;
        }
        break;
      }
    }
  }
  if (n == 0 || (full && n < w)) return fallback(h, job.estimate);
  return std::clamp<std::int64_t>(apply_metric(spec_.metric, v, n), 1, job.estimate);
}

namespace {

// The logs of the user's newest runtimes, kept by their ring when the target is log.
KnownLogs known_logs(const UserHistory* h) {
  if (h == nullptr || !h->recent.tracks_logs()) return {};
  return {std::min(RunRing::kNewestKept, h->recent.size()), h->recent.newest_runtimes(),
          h->recent.newest_runtime_logs()};
}

}  // namespace

std::int64_t RuntimeModel::predict_learned(const UserHistory* h, PendingJobs* pending, const epp_job& job) {
  const FeatureVector x = learner_->prepare(job_features(h, pending, job, spec_.learned.features), known_logs(h));
  const double v = learner_->predict(x);
  // At least 1, as the processor feature counts it (an SWF -1, "unknown", is not a load of -1).
  if (job.job_id != 0) pending->remember(PendingJob{job.job_id, job.submit, std::max(1, job.procs), x});
  // Never above the kill time; a model gone wrong (not finite) plans with the estimate.
  if (!std::isfinite(v)) return job.estimate;
  return rounded_within(v, 1, job.estimate);
}

std::int64_t RuntimeModel::predict(const epp_job& job) {
  if (job.estimate <= 0) return 1;  // no limit known: nothing sensible to plan with
  std::int64_t p = job.estimate;
  UserEntry* e = nullptr;
  if (spec_.kind == Kind::Learned && job.job_id != 0) {
    // Remembered as pending below: the user's entry is made here (no history yet counts as
    // none, and an empty pending list counts no load).
    e = &users_[job.user_id];
  } else if (has_history()) {
    auto it = users_.find(job.user_id);
    if (it != users_.end()) e = &it->second;
  }
  const UserHistory* h = e != nullptr && e->has_history ? &e->history : nullptr;
  switch (spec_.kind) {
    case Kind::History:
      p = predict_history(h, job);
      break;
    case Kind::Last:
      // Last Model (paper 002): the last job's runtime/estimate times this estimate.
      if (h != nullptr && h->recent.size() > 0 && h->recent.newest().estimate > 0) {
        const Run& last = h->recent.newest();
        double accuracy = static_cast<double>(last.runtime) / static_cast<double>(last.estimate);
        p = rounded_within(accuracy * static_cast<double>(job.estimate), 1, job.estimate);
      }
      break;
    case Kind::Learned:
      p = predict_learned(h, e != nullptr ? &e->pending : nullptr, job);
      break;
    case Kind::Estimate:
    case Kind::Double:
      break;
    case Kind::Perfect:
      if (job.runtime >= 0) p = std::clamp<std::int64_t>(job.runtime, 1, job.estimate);
      break;
    case Kind::Quant:
    case Kind::Qual:
      // Without the workload or the runtime there is nothing to err from: the estimate.
      if (workload_ && job.runtime >= 0) {
        const std::int64_t e = spec_.kind == Kind::Quant ? quant_prediction(spec_.error_model, *workload_, job)
                                                         : qual_prediction(spec_.error_model, *workload_, job);
        p = std::clamp<std::int64_t>(e, 1, job.estimate);
      }
      break;
  }
  // Saturating: an estimate near 2^63 times scale > 1 does not fit (as the ceiling, ceiling_of).
  if (spec_.scale != 1.0)
    p = rounded_within(static_cast<double>(p) * spec_.scale, 1, std::numeric_limits<std::int64_t>::max());
  return p;
}

bool RuntimeModel::set_workload(const epp_workload_job* jobs, std::size_t n, std::string& error) {
  if (!is_error_model(spec_.kind)) return true;
  auto stats = compute_workload_stats(jobs, n, spec_.error_model.lb_factor, error);
  if (!stats) return false;
  // An empty category would silently turn this into pure-equal.
  if (spec_.kind == Kind::Quant && spec_.error_model.category == Category::MoreExecutedApplications &&
      stats->frequent_apps.empty()) {
    error = "category=more-executed-applications: the workload has no application numbers "
            "(SWF field 14 is -1 for every job)";
    return false;
  }
  workload_ = std::move(*stats);
  return true;
}

bool RuntimeModel::set_seed(std::uint64_t seed) {
  if (!is_error_model(spec_.kind)) return false;
  spec_.error_model.seed = seed;
  spec_text_ = canonical(spec_);
  return true;
}

bool RuntimeModel::teaches(int end_state, std::int64_t runtime) const {
  switch (spec_.learn) {
    case Learn::All:
      return end_state >= EPP_END_COMPLETED && end_state <= EPP_END_TIMEOUT;
    case Learn::Completed:
      return end_state == EPP_END_COMPLETED;
    case Learn::Finished:
      return end_state == EPP_END_COMPLETED || end_state == EPP_END_TIMEOUT ||
             (end_state == EPP_END_FAILED && runtime >= spec_.failed_min);
  }
  return false;
}

void RuntimeModel::add_run(UserHistory& h, const Run& run, double runtime_log1p) {
  // All or nothing, so a learn that ran out of memory can be retried: what allocates comes
  // first (each step throws with the history unchanged), then what cannot fail. A failure
  // leaves a gap in learn_seq, which only orders evictions.
  h.recent.make_room();
  h.seen.make_room();
  ++h.learn_seq;
  if (spec_.kind == Kind::History && spec_.type == WindowType::Extended)
    h.add_by_estimate(run, static_cast<std::size_t>(spec_.window));
  if (h.recent.add(run, runtime_log1p)) ++records_;
  if (run.estimate > 0) {
    h.accuracy_sum += static_cast<double>(run.runtime) / static_cast<double>(run.estimate);
    ++h.accuracy_count;
  }
  h.seen.insert(run.job_id, run.end);
}

UserHistory& RuntimeModel::history_of(std::uint32_t user) { return history_of(users_[user]); }

UserHistory& RuntimeModel::history_of(UserEntry& e) {
  if (!e.has_history) {
    e.has_history = true;
    ++users_with_history_;
    // The learned model's kept-runs mean is O(1) from tracked runtimes, and with a log
    // target the newest runtimes' logs are taken once each, when learnt.
    if (spec_.kind == Kind::Learned) e.history.recent.track_runtimes(spec_.learned.target == Target::Log);
  }
  return e.history;
}

const UserHistory* RuntimeModel::history(std::uint32_t user) const {
  auto it = users_.find(user);
  return it != users_.end() && it->second.has_history ? &it->second.history : nullptr;
}

bool RuntimeModel::learn(const epp_job& job, std::int64_t start, std::int64_t end, int end_state) {
  if (!has_history()) return false;
  auto it = users_.find(job.user_id);
  // The job is no longer pending whether or not it teaches, unless the learn runs out of
  // memory: it is taken out only then (taking allocates nothing, and a failed learn leaves
  // the list as it was, so a retry learns from the features it was predicted with).
  PendingJobs* pending = learner_ && it != users_.end() ? &it->second.pending : nullptr;
  FeatureVector x{};
  const bool predicted = pending != nullptr && pending->find(job.job_id, &x);
  const auto done = [&](bool learnt) {
    if (predicted) pending->take(job.job_id, nullptr);
    return learnt;
  };
  if (start < 0 || end < start) return done(false);
  const std::int64_t runtime = end - start;
  if (runtime > kMaxRuntime || !teaches(end_state, runtime)) return done(false);
  // A user first seen here gets an entry and a history; if the learn runs out of memory
  // they go again, so the handle is as before it (no user counted, listed or saved with no
  // run). The insertion itself throws with the map unchanged.
  bool inserted = false;
  if (it == users_.end()) std::tie(it, inserted) = users_.try_emplace(job.user_id);
  UserEntry& e = it->second;
  const bool new_history = !e.has_history;
  UserHistory& h = history_of(e);
  if (h.seen.contains(job.job_id, end)) return done(false);
  // The runtime in the model's units: with a log target its log, which the ring keeps
  // for the next predictions (the ring reads it only then).
  const double y = learner_ ? learner_->target(static_cast<double>(runtime)) : 0.0;
  const bool trains = learner_ && job.estimate > 0;
  try {
    // A job learnt without a prediction (an import from accounting, or one forgotten as
    // pending) gets the features it would have had now, before this run.
    if (trains && !predicted)
      x = learner_->prepare(job_features(&h, nullptr, job, spec_.learned.features), known_logs(&h));
    add_run(h, Run{job.job_id, job.submit, end, job.estimate, runtime}, y);
  } catch (...) {
    // Out of memory, nothing learnt (add_run is all or nothing): the user made for it is
    // taken back (moves and erase allocate nothing).
    if (new_history) {
      e.history = UserHistory();
      e.has_history = false;
      --users_with_history_;
    }
    if (inserted) users_.erase(it);
    throw;
  }
  done(true);
  // Only once the run is stored (add_run may run out of memory), so a retried learn
  // trains once; the step allocates nothing.
  if (trains) learner_->update_to(x, y, job_weight(spec_.learned.weight, static_cast<double>(runtime), job.procs));
  return true;
}

void RuntimeModel::clear() {
  users_.clear();
  users_with_history_ = 0;
  records_ = 0;
  if (learner_) learner_.emplace(spec_.learned);
}

void RuntimeModel::adopt_state(RuntimeModel&& loaded) {
  users_ = std::move(loaded.users_);
  users_with_history_ = loaded.users_with_history_;
  records_ = loaded.records_;
  learner_ = std::move(loaded.learner_);
}

void RuntimeModel::restore_recent(std::uint32_t user, const Run& run) {
  UserHistory& h = history_of(user);
  ++h.learn_seq;
  if (h.recent.add(run)) ++records_;
  h.seen.insert(run.job_id, run.end);
}

void RuntimeModel::restore_by_estimate(std::uint32_t user, const Run& run) {
  UserHistory& h = history_of(user);
  ++h.learn_seq;
  h.add_by_estimate(run, static_cast<std::size_t>(spec_.window));
}

void RuntimeModel::rebuild_by_estimate(std::uint32_t user) {
  UserHistory& h = history_of(user);
  h.by_estimate.clear();
  for (std::size_t i = 0; i < h.recent.size(); ++i) {
    ++h.learn_seq;
    h.add_by_estimate(h.recent.at(i), static_cast<std::size_t>(spec_.window));
  }
}

void RuntimeModel::restore_accuracy(std::uint32_t user, double sum, std::uint64_t count) {
  UserHistory& h = history_of(user);
  h.accuracy_sum = sum;
  h.accuracy_count = count;
}

void RuntimeModel::restore_seen(std::uint32_t user, std::uint64_t id, std::int64_t end) {
  // The recent runs' ids went in with them (restore_recent), and a saved file lists them
  // again: kept once, or every load would push older ids out.
  SeenJobs& seen = history_of(user).seen;
  if (!seen.has_id(id)) seen.insert(id, end);
}

}  // namespace easypp::predictor
