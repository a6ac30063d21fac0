// One EASY scheduling pass over a snapshot (paper 000 section 1, Fig. 1), reusable by
// every policy of the EASY family: start jobs in reservation order while they fit; the
// first that does not (the head) gets a reservation at the shadow time; other jobs are
// then backfilled in backfill order if they end by the shadow time or fit in the extra
// processors (those free at the shadow time beyond the head's need).
//
// Cost per pass: O(R log R) for the running jobs plus O(Q log Q) for ordering the queue,
// O(1) per backfill candidate; scratch buffers are reused across passes.
#ifndef EASYPP_CORE_EASY_PASS_H
#define EASYPP_CORE_EASY_PASS_H

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/decision.h"
#include "core/head_bound.h"
#include "core/job.h"
#include "core/job_order.h"
#include "core/job_request.h"
#include "core/node_plan.h"
#include "core/profile.h"

namespace easypp {

// Which runtime of a backfill candidate must end by the shadow time.
enum class BackfillFit {
  prediction,  // EASY, EASY++: the scheduler's prediction
  estimate,    // easy++-safe (section 4): the user estimate, so the reservation holds
};

struct EasyRules {
  const JobOrder* reservation_order = nullptr;  // required
  const JobOrder* backfill_order = nullptr;     // nullptr: no backfilling (FCFS)
  BackfillFit fit = BackfillFit::prediction;
  // Reservations per pass: the first `depth` blocked jobs in reservation order get one
  // (1 = EASY; more, as stock backfill's several reservations or Fluxion's reservation
  // depth). A state without a Machine plans depth > 1 on Machine::single_node.
  int depth = 1;
  // The bound on the head (head_bound.h): its memory across passes, owned by the policy;
  // nullptr: unbounded (paper 000's EASY++). Only the head is bounded.
  HeadBound* bound = nullptr;
};

class EasyPass {
 public:
  struct Head {
    std::uint32_t position;  // index into state.waiting
    Time shadow;             // its reservation
    int extra;               // processors free at `shadow` beyond its need, before backfill
  };
  // Positions of the blocked jobs that got a reservation (the head first).
  std::span<const std::uint32_t> reserved() const { return reserved_; }

  // Plans one pass; fills `decision` (start, backfilled, reservations[0] = the head's,
  // examined). Previous contents of `decision` are replaced.
  void run(const ClusterState& state, const EasyRules& rules, Decision& decision);
  // The node plan of the last run() on a Machine (what was left free, per node).
  const NodePlan& node_plan() const { return node_plan_; }

  // Results of the last run(): the blocked head (none if all started or the queue was
  // empty) and the positions started (in order before the head, then backfilled).
  const std::optional<Head>& head() const { return head_; }
  std::span<const std::uint32_t> started() const { return started_; }

 private:
  std::vector<std::uint32_t> positions_;
  std::vector<std::uint32_t> started_;
  std::vector<AvailabilityProfile::Busy> busy_;
  AvailabilityProfile profile_;
  std::optional<Head> head_;

  // The same pass on a Machine's nodes (node_easy_pass.cpp): reservations on specific
  // nodes; a backfill may start only where it delays no reservation in any resource.
  void run_on_nodes(const ClusterState& state, const EasyRules& rules, Decision& decision);
  const JobRequest& request_of(const Job& job, std::size_t position);
  NodePlan node_plan_;
  // Kill-time plans for the bound: running jobs to their kill times, this pass's starts
  // for their estimates, the guarded head at its deadline.
  AvailabilityProfile kill_profile_;
  NodePlan kill_plan_;
  std::vector<JobRequest> cpu_requests_;  // for jobs without a request (procs CPUs)
  std::vector<std::uint32_t> reserved_;
  Machine pool_;  // single_node(procs): depth > 1 on a state without a Machine
  ClusterState pool_state_;
};

}  // namespace easypp

#endif
