#include "core/job_ledger.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>
#include <utility>

namespace easypp {

JobLedger::JobLedger(const PolicyTraits& traits, std::string_view predictor_override,
                     Driver driver)
    : predictions_(traits, predictor_override), remembers_(driver == Driver::snapshots) {}

Job JobLedger::base_job(const JobFacts& facts) const {
  Job j;
  j.id = facts.id;
  j.user = facts.user;
  j.submit = facts.submit;
  j.priority = facts.priority;
  j.procs = facts.procs;
  j.restarts = facts.restarts;
  j.requeueable = facts.requeueable;
  j.releasing = facts.releasing;
  j.reservable = facts.reservable;
  j.request = facts.request;
  // What the scheduler sees; X2-style policies widen it. The driver still kills at the
  // user's own limit.
  const double factor = traits().estimate_factor;
  j.estimate = factor == 1.0 ? std::max<Time>(facts.limit, 1)
                             : std::max<Time>(1, static_cast<Time>(std::llround(
                                                     static_cast<double>(facts.limit) * factor)));
  return j;
}

Job JobLedger::admit(const JobFacts& facts) {
  Job j = base_job(facts);
  if (!remembers_) {
    predictions_.predict(j, facts.actual_runtime);
    return j;
  }
  auto mem = memory_.find(facts.id);
  if (mem == memory_.end() || mem->second.limit != facts.limit) {
    // Predicted once, when first seen waiting (at its submit time, as in the paper), and
    // again if its time limit was changed while it waited (scontrol update): a prediction
    // is made under a limit (an estimate-based one is the limit) and never exceeds it.
    predictions_.predict(j, facts.actual_runtime);
    memory_.insert_or_assign(facts.id, Memory{j.prediction, 0, facts.user, false, facts.limit});
  } else {
    j.prediction = mem->second.prediction;
    mem->second.running = false;
  }
  return j;
}

RunningJob JobLedger::running(const JobFacts& facts, Time now) {
  RunningJob rj;
  rj.job = base_job(facts);
  rj.start = facts.start;
  rj.allocation = facts.allocation;
  auto mem = memory_.find(facts.id);
  if (mem == memory_.end()) {
    // Started before the ledger saw it (another scheduler, or a restart): predict now.
    predictions_.predict(rj.job, facts.actual_runtime);
    mem = memory_.emplace(facts.id, Memory{rj.job.prediction, 0, facts.user, true, facts.limit}).first;
  }
  rj.job.prediction = mem->second.prediction;
  rj.job.corrections = mem->second.corrections;
  if (facts.releasing) {
    // Its run is over and Slurm is releasing its nodes (completing): it holds its share
    // now and is planned free from now, on its prediction and its kill time alike, as the
    // simulator frees it at its end, never corrected. (Its limit then reads as its
    // runtime; under X2 the scaled estimate would plan it busy for as long again.)
    rj.job.prediction = rj.job.estimate = std::max<Time>(1, now - rj.start);
    return rj;
  }
  // A running job's limit lowered below its prediction: it is killed by then.
  if (mem->second.limit != facts.limit) rj.job.prediction = std::min(rj.job.prediction, rj.job.estimate);
  for (int i = 0; i < kMaxCorrectionsPerSync && rj.predicted_end() <= now; ++i) {
    if (!predictions_.correct(rj, now)) break;
    ++corrections_;
  }
  mem->second = Memory{rj.job.prediction, rj.job.corrections, facts.user, true, facts.limit};
  return rj;
}

bool JobLedger::correct(RunningJob& job, Time now) {
  if (!predictions_.correct(job, now)) return false;
  ++corrections_;
  if (!remembers_) return true;
  Memory& mem = memory_[job.job.id];
  const Time limit = mem.limit;  // a correction does not change the limit
  mem = Memory{job.job.prediction, job.job.corrections, job.job.user, true, limit};
  return true;
}

std::optional<Time> JobLedger::next_correction(const RunningJob& job) const {
  return predictions_.next_correction_time(job);
}

void JobLedger::note_end(JobId id, Time end) {
  if (remembers_) ended_.emplace(id, end);  // events: the driver reports ends itself
}

JobLedger::Ended JobLedger::ended(const JobFacts& facts, Time end, int end_state) {
  if (remembers_) {
    if (!ended_.emplace(facts.id, end).second) return {};
    memory_.erase(facts.id);
  }
  Job j = base_job(facts);
  // The predictor learns from the user's own limit, whatever the scheduler saw.
  j.estimate = facts.limit;
  const auto learnt = predictions_.job_ended(j, facts.start, end, end_state);
  Ended out{learnt.learnt, learnt.repredict_user};
  if (out.repredict_user && remembers_) {
    // Propagation: the user's waiting jobs are predicted again when next admitted. Jobs
    // the last decision started count as running (the next sync sees them so): a running
    // job keeps its prediction, as in the simulator, which re-predicts waiting jobs only.
    std::erase_if(memory_, [&](const auto& kv) {
      return kv.second.user == *out.repredict_user && !kv.second.running && !started_.count(kv.first);
    });
  }
  return out;
}

Time JobLedger::repredict(Job& job, Time actual_runtime) {
  predictions_.predict(job, actual_runtime);
  // Remembered only under the limit the ledger saw; a job it never admitted is predicted
  // when it is (a remembered limit of 0 would have it predicted twice).
  if (remembers_) {
    if (auto mem = memory_.find(job.id); mem != memory_.end())
      mem->second = Memory{job.prediction, 0, job.user, false, mem->second.limit};
  }
  return job.prediction;
}

const Decision& JobLedger::sync(Policy& policy, Time now, int procs, const Machine* machine,
                                std::span<const JobFacts> running,
                                std::span<const JobFacts> waiting) {
  state_.now = now;
  state_.procs = procs;
  state_.machine = machine;
  // Every end still known, not only those since this group's last sync: a job may leave
  // the running set passes after its end was read (COMPLETING), and a group may not be
  // planned at every pass (an empty queue).
  state_.ended.clear();
  for (const auto& [id, end] : ended_) state_.ended.push_back({id, end});
  state_.running.clear();
  state_.waiting.clear();
  for (const JobFacts& f : running) state_.running.push_back(this->running(f, now));
  for (const JobFacts& f : waiting) state_.waiting.push_back(admit(f));
  decision_ = policy.plan(state_);
  // One ledger may plan several groups at one moment (the plugin's partition sets): the
  // starts of all of them count as running until the next moment's syncs.
  if (now != started_at_) {
    started_.clear();
    started_at_ = now;
  }
  started_.insert(decision_.start.begin(), decision_.start.end());
  return decision_;
}

void JobLedger::retain(const std::unordered_set<JobId>& active) {
  std::erase_if(memory_, [&](const auto& kv) { return !active.count(kv.first); });
}

void JobLedger::retain_ended(const std::unordered_set<JobId>& alive) {
  std::erase_if(ended_, [&](const auto& kv) { return !alive.count(kv.first); });
}

}  // namespace easypp
