// The EASY family of paper 000 as one parameterized policy: FCFS, EASY, EASY_PCOR, EASY+,
// EASY_SJBF, EASY++, PERFECT++, X2, X2+, X2++, SJF, SJF+, and the two no-surprise
// variants of section 4 (double booking, safe backfilling). They differ only in traits
// (which predictions, corrections, doubling), in the two job orders and in which runtime
// must fit before the reservation; the pass itself is EasyPass.
#ifndef EASYPP_CORE_EASY_FAMILY_H
#define EASYPP_CORE_EASY_FAMILY_H

#include <optional>
#include <string>

#include "core/easy_pass.h"
#include "core/easy_plan.h"
#include "core/head_bound.h"
#include "core/job_order.h"
#include "core/lxfw_order.h"
#include "core/policy.h"
#include "core/profile.h"

namespace easypp {

struct EasyFamilyConfig {
  std::string name{};
  PolicyTraits traits{};
  bool shortest_reservation = false;  // SJF: the shortest job starts first / is the head
  bool backfill = true;               // false: plain FCFS
  bool shortest_backfill = false;     // SJBF
  BackfillFit fit = BackfillFit::prediction;
  // Double booking: also compute the head's reservation on user estimates (kill times) and
  // report that one in Decision.reservations; the planned one goes to planned_reservations.
  bool double_booking = false;
  // Reservations per pass: the first `depth` blocked jobs get one (1 = EASY). Key depth=N.
  int depth = 1;
  // The bound on the head (head_bound.h); nothing: unbounded. Keys bound=off|SECONDS
  // (the slack) and guard=slipped|always|tight.
  std::optional<BoundRule> bound{};
  // With shortest_backfill: jobs waiting this long are backfilled first, in queue order
  // (AgedShortestFirst). Key age=off|SECONDS.
  std::optional<Time> age{};
  // With shortest_backfill: backfill in paper 003's LXF&W(w) order instead, w in
  // thousandths per hour of wait (lxfw_order.h). Key lxfw=off|N.
  std::optional<int> lxfw{};
  // Backfill candidates: only the first N waiting jobs after the head (EasyRules::
  // lookahead); 0: all. Key lookahead=off|N.
  int lookahead = 0;
  // Old jobs first (EasyRules::front, relative_age): keys front=off|N, oldfirst=off|PERCENT.
  int front = 0;
  int relative_age = 0;
  // Split backfilling (EasyRules::split, split_kill, split_window): keys
  // split=off|short|extra|kill, splitby=pred|kill|safe, splitn=off|N.
  BackfillSplit split = BackfillSplit::off;
  bool split_kill = false;
  bool split_safe = false;
  int split_window = 0;
  // Coarse shortest-first (EasyRules::classes): key classes=off|F.
  int classes = 0;
};

class EasyFamilyPolicy final : public Policy {
 public:
  explicit EasyFamilyPolicy(EasyFamilyConfig config);
  std::string_view name() const override { return config_.name; }
  const PolicyTraits& traits() const override { return config_.traits; }
  Decision plan(const ClusterState& state) override;
  void plan_into(const ClusterState& state, Decision& decision) override;

 private:
  // The head's earliest start on kill times: running jobs end by start + estimate, jobs
  // started this pass (backfilled ones too) by now + estimate. A promise that holds as
  // long as jobs are killed at their limits.
  Time estimate_based_start(const ClusterState& state, const Job& head, const Decision& d);

  EasyFamilyConfig config_;
  QueueOrder queue_order_;
  ShortestFirst shortest_first_;
  std::optional<AgedShortestFirst> aged_first_;
  std::optional<LargestExpansionWaitFirst> lxfw_first_;
  EasyRules rules_;
  EasyPass pass_;
  std::optional<HeadBound> head_bound_;
  EasyPlan estimate_plan_;
};

}  // namespace easypp

#endif
