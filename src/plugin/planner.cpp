#include "plugin/planner.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "easypp/predictor.h"

namespace easypp::plugin {

namespace {

bool spec_learns(const std::string& spec) {
  return spec.rfind("history", 0) == 0 || spec.rfind("last", 0) == 0 ||
         spec.rfind("learned", 0) == 0;
}

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
    kills_ = kills_ || policy->traits().kills;
    slot_for(name, *policy);
  }
}

Planner::~Planner() = default;

Planner::PredictionSlot& Planner::slot_for(const std::string& policy_name, const Policy& policy) {
  auto it = slots_.find(policy_name);
  if (it != slots_.end()) return it->second;
  const PolicyTraits& traits = policy.traits();
  // easypp_predictor (or the history keys) replaces the predictor of the policies whose
  // predictions are their free parameter, by the core's rule, as easypp-sim --predictor
  // does: the + and ++ variants, pv-easy, timed-run. A policy whose name fixes its
  // predictions (easy, easy-sjbf, x2, mq: the users' estimates) keeps them.
  std::string override_spec;
  if (policy_takes_predictor(policy_name)) override_spec = config_.predictor_spec();
  PredictionSlot slot;
  slot.ledger = std::make_unique<JobLedger>(traits, override_spec);
  slot.learns = spec_learns(slot.ledger->predictions().spec());
  return slots_.emplace(policy_name, std::move(slot)).first->second;
}

std::string Planner::predictor_of(const std::string& policy) const {
  auto it = slots_.find(policy);
  return it == slots_.end() ? std::string() : it->second.ledger->predictions().spec();
}

std::string Planner::predictor_note() const {
  const std::string configured = config_.predictor_spec();
  if (configured.empty()) return {};
  std::string others;
  for (const auto& [name, slot] : slots_) {
    if (policy_takes_predictor(name)) continue;
    const PolicyTraits& t = slot.ledger->traits();
    const std::string spec = slot.ledger->predictions().spec();
    others += (others.empty() ? "" : "; ") + std::string("policy ") + name + " plans " +
              (spec == "estimate" ? (t.estimate_factor == 1.0 ? "on the users' estimates"
                                                              : "on the users' estimates doubled")
                                  : "with its own predictor " + spec);
  }
  return "predictor " + configured + (others.empty() ? "" : " (" + others + ")");
}

namespace {
JobFacts facts_of(const JobRecord& r) {
  JobFacts f;
  f.id = r.id;
  f.user = r.user;
  f.submit = r.submit;
  f.priority = r.priority;
  f.procs = r.procs;
  f.limit = r.limit;
  f.start = r.start;
  return f;
}
}  // namespace

void Planner::retain_active(const std::unordered_set<JobId>& active) {
  for (auto& [name, slot] : slots_) slot.ledger->retain(active);
}

bool Planner::job_ended(const FinishedJob& finished) {
  JobFacts f = facts_of(finished.job);
  bool learnt = false;
  for (auto& [name, slot] : slots_) {
    if (slot.learns)
      learnt = slot.ledger->ended(f, finished.end, finished.end_state).learnt || learnt;
    else
      slot.ledger->note_end(f.id, finished.end);  // for policies that learn from ends (mq-vd)
  }
  return learnt;
}

std::size_t Planner::corrections_made() const {
  std::size_t n = 0;
  for (const auto& [name, slot] : slots_) n += slot.ledger->corrections_made();
  return n;
}

void Planner::retain_finished(const std::unordered_set<JobId>& alive) {
  for (auto& [name, slot] : slots_) slot.ledger->retain_ended(alive);
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
  return slot->ledger->predictions().save(path, error);
}

int Planner::load(const std::string& path, std::string& error) {
  // The slot that saves loads first: a newer easypp's file refused there is refused where
  // save() looks (the predictor then keeps it from being replaced), whatever the names
  // of the other learning policies sort like.
  PredictionSlot* persisted = persisted_slot();
  if (!persisted) return EPP_LOAD_MISSING;
  const int result = persisted->ledger->predictions().load(path, error);
  if (result != EPP_LOAD_OK) return result;
  for (auto& [name, slot] : slots_) {
    if (!slot.learns || &slot == persisted) continue;
    if (const int other = slot.ledger->predictions().load(path, error); other != EPP_LOAD_OK) return other;
  }
  return EPP_LOAD_OK;
}

int Planner::take_history(const Planner& old, std::string& error) {
  const PredictionSlot* from = old.persisted_slot();
  if (!from || !persisted_slot()) return EPP_LOAD_MISSING;
  for (auto& [name, slot] : slots_) {
    if (!slot.learns) continue;
    if (!slot.ledger->predictions().take_history(from->ledger->predictions(), error))
      return EPP_LOAD_ERROR;
  }
  return EPP_LOAD_OK;
}

std::size_t Planner::history_records() const {
  const PredictionSlot* slot = persisted_slot();
  return slot ? epp_predictor_records(slot->ledger->predictions().handle()) : 0;
}

Policy& Planner::group_policy(const std::string& key, const std::string& name) {
  // Kept across passes while its spec stays (a policy may remember earlier passes:
  // timed-run, which of its running jobs are on trial).
  GroupPolicy& group = group_policies_[key];
  if (!group.policy || group.spec != name) group = {name, make_policy(name)};
  return *group.policy;
}

ClusterPlan Planner::plan_cluster(const ClusterModel& model, Time now) {
  ClusterPlan out;
  const std::vector<Partition>& parts = model.machine.partitions();
  // Licences are the cluster's: partitions whose waiting jobs ask for the same licence are
  // planned together too, or one group could take a licence another's reservation needs.
  // (Links by licences and by jobs queued in several partitions come and go with the
  // waiting jobs, so sets may merge and split between passes: see the keys below.)
  std::vector<std::uint64_t> licences_asked(parts.size(), 0);  // a bit per licence kind
  for (const JobFacts& f : model.waiting)
    for (std::size_t p : f.request->partitions)
      for (std::size_t l = 0; l < kMaxResourceKinds; ++l)
        if (p < parts.size() && f.request->licences[l] > 0) licences_asked[p] |= std::uint64_t{1} << l;
  const auto known = [&](const std::string& name) {
    return std::any_of(parts.begin(), parts.end(), [&](const Partition& p) { return p.name == name; });
  };
  for (const auto& [name, policy] : config_.partition_policy)
    if (!known(name))
      out.errors.push_back("easypp_partition_policy=" + name + ":" + policy + ": no partition " +
                           name + " (names are case-sensitive); not applied");
  for (const std::string& name : config_.requeue_partitions)
    if (!known(name))
      out.errors.push_back("easypp_requeue_partitions=" + name + ": no partition " + name +
                           " (names are case-sensitive); no job is killed there");
  const auto linked = [&](std::size_t p, std::size_t q) {
    return parts[p].nodes.intersects(parts[q].nodes) || (licences_asked[p] & licences_asked[q]) != 0;
  };
  // Partitions linked by shared nodes or licences, directly or through others, are one
  // machine and get one plan; unlinked sets are separate machines, each with its own plan
  // (so each has its own reservations: EASY's head per set, as stock backfill reserves
  // for every partition). A set of one partition with its own policy is planned with it;
  // every other set with easypp_policy.
  std::vector<std::size_t> set_of(parts.size());
  for (std::size_t p = 0; p < parts.size(); ++p) set_of[p] = p;
  const auto root = [&](std::size_t p) {
    while (set_of[p] != p) p = set_of[p] = set_of[set_of[p]];
    return p;
  };
  for (std::size_t p = 0; p < parts.size(); ++p)
    for (std::size_t q = p + 1; q < parts.size(); ++q)
      if (linked(p, q)) set_of[root(q)] = root(p);
  // A waiting job queued in several partitions under easypp_policy links them too: it is
  // planned in one plan, free to start in any of them. (A partition with a policy of its
  // own keeps it: such a job is planned in its first partition's plan only.)
  const auto global = [&](std::size_t p) {
    return p < parts.size() && config_.policy_for(parts[p].name) == config_.policy;
  };
  for (const JobFacts& f : model.waiting) {
    const std::vector<std::size_t>& in = f.request->partitions;
    for (std::size_t k = 1; k < in.size(); ++k)
      if (global(in[0]) && global(in[k])) set_of[root(in[k])] = root(in[0]);
  }
  // Groups in the order of their first partition (one with no partition when there is none).
  std::vector<std::size_t> group_of(parts.size(), 0);
  std::vector<std::size_t> group_of_root(parts.size(), SIZE_MAX);
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const std::size_t r = root(p);
    if (group_of_root[r] == SIZE_MAX) {
      group_of_root[r] = out.groups.size();
      out.groups.emplace_back();
    }
    group_of[p] = group_of_root[r];
    out.groups[group_of[p]].partitions.push_back(p);
  }
  if (out.groups.empty()) out.groups.emplace_back();
  // A group's key keeps its policy's memory across passes: its partitions' names. A set
  // that merged or split gets a new policy (timed-run, say, then knows no trial and kills
  // none), and a key no group has any more is dropped, so no policy comes back with
  // memory of another set's jobs.
  std::vector<std::string> keys;
  for (GroupPlan& g : out.groups) {
    g.policy = g.partitions.size() == 1 ? config_.policy_for(parts[g.partitions[0]].name)
                                        : config_.policy;
    std::string key;
    for (std::size_t p : g.partitions) key += (key.empty() ? "" : "+") + parts[p].name;
    keys.push_back(std::move(key));
    if (g.policy != config_.policy || g.partitions.size() < 2) continue;
    for (std::size_t p : g.partitions)
      if (const std::string& own = config_.policy_for(parts[p].name); own != config_.policy)
        out.notes.push_back("partition " + parts[p].name + " shares nodes or licences with "
                            "another partition: planned with easypp_policy=" + config_.policy +
                            ", not its own " + own);
  }

  std::erase_if(group_policies_, [&](const auto& kv) {
    return std::find(keys.begin(), keys.end(), kv.first) == keys.end();
  });

  std::vector<std::vector<JobFacts>> waiting(out.groups.size());
  for (const JobFacts& f : model.waiting) {
    const JobRequest& r = *f.request;
    const std::size_t g = r.partitions.empty() ? 0 : group_of[r.partitions.front()];
    JobFacts job = f;
    // Queued also in partitions of other groups: planned in its first one's group only.
    std::vector<std::size_t> mine;
    for (std::size_t p : r.partitions)
      if (group_of[p] == g) mine.push_back(p);
    if (mine.size() != r.partitions.size()) {
      auto own = std::make_shared<JobRequest>(r);
      own->partitions = std::move(mine);
      job.request = std::move(own);
    }
    waiting[g].push_back(std::move(job));
  }
  const int procs = static_cast<int>(std::min<std::int64_t>(model.machine.total_cpus(), 1 << 30));
  for (std::size_t g = 0; g < out.groups.size(); ++g) {
    GroupPlan& group = out.groups[g];
    Policy& policy = group_policy(keys[g], group.policy);
    // A policy that kills plans with no job waiting too: timed-run commits a job whose
    // trial ends then (otherwise a later arrival's trial would kill it).
    if (waiting[g].empty() && g > 0 && !policy.traits().kills) continue;
    group.honours_reservable = policy.traits().honours_reservable;
    if (!policy.traits().honours_reservable &&
        std::any_of(waiting[g].begin(), waiting[g].end(), [](const JobFacts& f) { return !f.reservable; }))
      out.notes.push_back("easypp_policy " + group.policy + " plans jobs exempt from "
                          "reservations (QOS flag NoReserve, bf_min_prio_reserve, "
                          "bf_min_age_reserve) like any other" +
                          std::string(policy.traits().never_backfills
                                          ? ": it never backfills, so the queue waits for them"
                                          : ""));
    PredictionSlot& slot = slot_for(group.policy, policy);
    group.decision = slot.ledger->sync(policy, now, procs, &model.machine, model.running, waiting[g]);
    group.state = slot.ledger->state();
    if (const auto& t = group.decision.wake_at; t && (!out.wake_at || *t < *out.wake_at))
      out.wake_at = t;
  }
  return out;
}

std::vector<Reservation> Planner::forecast_starts(const GroupPlan& plan) {
  return forecast_.forecast(plan.state, plan.decision,
                            static_cast<std::size_t>(config_.start_estimates));
}

Time limit_wait_shown(const ClusterState& state) {
  Time next = state.now + 500;
  bool any = false;
  for (const RunningJob& r : state.running)
    if (r.predicted_end() > state.now && (!any || r.predicted_end() < next)) {
      next = r.predicted_end();
      any = true;
    }
  return next;
}

}  // namespace easypp::plugin
