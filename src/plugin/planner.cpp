#include "plugin/planner.h"

#include <cmath>
#include <utility>

#include "easypp/predictor.h"

namespace easypp::plugin {

namespace {

// A running job is corrected at most this many times in one pass: each correction moves
// its predicted end past the previous one, so only a job far past its limit gets near.
constexpr int kMaxCorrectionsPerPass = 64;

bool spec_learns(const std::string& spec) {
  return spec.rfind("history", 0) == 0 || spec.rfind("last", 0) == 0;
}

// "" is the predictor library's default, a history predictor.
bool history_spec(const std::string& spec) { return spec.empty() || spec.rfind("history", 0) == 0; }

}  // namespace

std::vector<std::string> killing_policy_names() {
  std::vector<std::string> out;
  for (const auto& name : policy_names()) {
    if (make_policy(name)->traits().kills) out.push_back(name);
  }
  return out;
}

Planner::Planner(const Config& config) : config_(config) {
  // Every configured policy gets its predictions now, so history loads into all of them.
  std::vector<std::string> names{config_.policy};
  for (const auto& [part, name] : config_.partition_policy) names.push_back(name);
  for (const auto& name : names) {
    if (slots_.count(name)) continue;
    auto policy = make_policy(name);
    slot_for(name, *policy);
  }
}

Planner::~Planner() = default;

Planner::PredictionSlot& Planner::slot_for(const std::string& policy_name, const Policy& policy) {
  auto it = slots_.find(policy_name);
  if (it != slots_.end()) return it->second;
  const PolicyTraits& traits = policy.traits();
  // The history keys of SchedulerParameters replace a history predictor's defaults only;
  // a policy planning on user estimates (easy, easy-sjbf) or another model keeps its own.
  std::string override_spec;
  if (history_spec(traits.predictor)) override_spec = config_.predictor_spec();
  PredictionSlot slot;
  slot.predictions = std::make_unique<Predictions>(traits, override_spec);
  slot.learns = spec_learns(slot.predictions->spec());
  return slots_.emplace(policy_name, std::move(slot)).first->second;
}

Policy& Planner::policy_for(const std::string& partition, std::string& name) {
  name = config_.policy_for(partition);
  auto it = policies_.find(partition);
  if (it == policies_.end() || it->second->name() != name) {
    // One instance per partition: a policy may remember earlier passes of its domain.
    it = policies_.insert_or_assign(partition, make_policy(name)).first;
  }
  return *it->second;
}

Job Planner::to_job(const JobRecord& r, const PolicyTraits& traits) const {
  Job j;
  j.id = r.id;
  j.user = r.user;
  j.submit = r.submit;
  j.procs = r.procs;
  // What the scheduler sees; X2-style policies widen it. Slurm still kills at r.limit.
  j.estimate = std::max<Time>(1, std::llround(static_cast<double>(r.limit) * traits.estimate_factor));
  return j;
}

void Planner::retain_active(const std::unordered_set<JobId>& active) {
  for (auto& [name, slot] : slots_)
    std::erase_if(slot.jobs, [&](const auto& kv) { return !active.count(kv.first); });
}

PartitionPlan Planner::plan(const PartitionSnapshot& partition) {
  PartitionPlan out;
  Policy& policy = policy_for(partition.name, out.policy);
  const PolicyTraits& traits = policy.traits();
  PredictionSlot& slot = slot_for(out.policy, policy);
  ClusterState& state = out.state;
  state.now = partition.now;
  state.procs = partition.procs;

  for (const JobRecord& r : partition.running) {
    RunningJob rj;
    rj.job = to_job(r, traits);
    rj.start = r.start;
    auto mem = slot.jobs.find(r.id);
    if (mem == slot.jobs.end()) {
      // Started before we saw it (main scheduler, or slurmctld restarted): predict now.
      slot.predictions->predict(rj.job);
      mem = slot.jobs.emplace(r.id, JobMemory{rj.job.prediction, 0, r.user, true}).first;
    }
    rj.job.prediction = mem->second.prediction;
    rj.job.corrections = mem->second.corrections;
    // A job outliving its prediction gets a new one (paper 000 section 3.2).
    for (int i = 0; i < kMaxCorrectionsPerPass && rj.predicted_end() <= state.now; ++i) {
      if (!slot.predictions->correct(rj, state.now)) break;
      ++corrections_;
    }
    mem->second = JobMemory{rj.job.prediction, rj.job.corrections, r.user, true};
    state.running.push_back(rj);
  }

  for (const JobRecord& r : partition.waiting) {
    Job j = to_job(r, traits);
    auto mem = slot.jobs.find(r.id);
    if (mem == slot.jobs.end()) {
      // Predicted once, when first seen waiting (about its submit time, as in the paper).
      slot.predictions->predict(j);
      mem = slot.jobs.emplace(r.id, JobMemory{j.prediction, 0, r.user, false}).first;
    }
    j.prediction = mem->second.prediction;
    state.waiting.push_back(j);
  }

  out.decision = policy.plan(state);
  return out;
}

bool Planner::job_ended(const FinishedJob& finished) {
  if (!learnt_.insert(finished.job.id).second) return false;
  Job j;
  j.id = finished.job.id;
  j.user = finished.job.user;
  j.submit = finished.job.submit;
  j.procs = finished.job.procs;
  j.estimate = finished.job.limit;  // the user's own estimate teaches the predictor
  bool learnt = false;
  for (auto& [name, slot] : slots_) {
    if (!slot.learns) continue;
    const auto end = slot.predictions->job_ended(j, finished.job.start, finished.end,
                                                 finished.end_state);
    learnt = learnt || end.learnt;
    if (end.repredict_user) {
      // Propagation: the user's waiting jobs are predicted again at the next pass.
      std::erase_if(slot.jobs, [&](const auto& kv) {
        return kv.second.user == *end.repredict_user && !kv.second.running;
      });
    }
  }
  return learnt;
}

void Planner::retain_finished(const std::unordered_set<JobId>& alive) {
  std::erase_if(learnt_, [&](JobId id) { return !alive.count(id); });
}

Planner::PredictionSlot* Planner::persisted_slot() const {
  auto global = slots_.find(config_.policy);
  if (global != slots_.end() && global->second.learns)
    return const_cast<PredictionSlot*>(&global->second);
  for (const auto& [name, slot] : slots_)
    if (slot.learns) return const_cast<PredictionSlot*>(&slot);
  return nullptr;
}

bool Planner::save(const std::string& path, std::string& error) const {
  const PredictionSlot* slot = persisted_slot();
  if (!slot) return true;
  return slot->predictions->save(path, error);
}

int Planner::load(const std::string& path, std::string& error) {
  int result = EPP_LOAD_MISSING;
  for (auto& [name, slot] : slots_) {
    if (!slot.learns) continue;
    result = slot.predictions->load(path, error);
    if (result != EPP_LOAD_OK) break;
  }
  return result;
}

std::size_t Planner::history_records() const {
  const PredictionSlot* slot = persisted_slot();
  return slot ? epp_predictor_records(slot->predictions->handle()) : 0;
}

std::vector<Reservation> Planner::forecast_starts(const PartitionPlan& plan) {
  return forecast_.forecast(plan.state, plan.decision,
                            static_cast<std::size_t>(config_.start_estimates));
}

}  // namespace easypp::plugin
