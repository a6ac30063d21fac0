// One EASY scheduling pass over a snapshot (paper 000 section 1, Fig. 1), reusable by
// every policy of the EASY family: start jobs in reservation order while they fit; the
// first that does not (the head) gets a reservation at the shadow time; other jobs are
// then backfilled in backfill order if they end by the shadow time or fit in the extra
// processors (those free at the shadow time beyond the head's need).
//
// Written on the EASY toolkit (easy_plan.h), so the same steps plan one pool of
// processors (the papers' arithmetic: shadow time and extra processors) or a Machine's
// nodes (reservations on specific nodes; a backfill may start only where it delays no
// reservation in any resource).
//
// Cost per pass on the pool: O(R log R) for the running jobs plus O(Q log Q) for ordering
// the queue, O(1) per backfill candidate; scratch buffers are reused across passes.
#ifndef EASYPP_CORE_EASY_PASS_H
#define EASYPP_CORE_EASY_PASS_H

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/decision.h"
#include "core/easy_plan.h"
#include "core/head_bound.h"
#include "core/job.h"
#include "core/job_order.h"
#include "core/job_request.h"
#include "core/machine.h"

namespace easypp {

// Split backfilling (issue 15, key split=): candidates that end before the head's
// reservation (by prediction, and by kill time when the head is guarded) only hold
// processors that are free again before the head starts; the others can only start in
// the processors free beyond the head's need there (the extra processors, or on nodes
// those the reservation leaves), which the next heads wait for. The first are taken
// shortest-predicted-first, the second in queue order (as EASY does), so the extra
// processors drain the front of the queue.
enum class BackfillSplit {
  off,          // the backfill order alone (paper 000)
  short_first,  // split=short: the ending-before phase first, then the extra phase
  extra_first,  // split=extra: the extra phase (queue order) first
  short_kill,   // split=kill: as short, but the extra phase by shortest estimate (the
                // processors past the head's start come back soonest on kill times)
};

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
  // Lookahead window (issue 15): only the first `lookahead` waiting jobs after the head
  // (in reservation order) are backfill candidates, so a newcomer cannot overtake more
  // than that many queued jobs however short it is. 0: the whole queue (paper 000).
  std::size_t lookahead = 0;
  // Old jobs first (issue 15), on top of the backfill order: the first `front` waiting
  // jobs after the head, and those that have waited at least `relative_age` percent of the
  // head's wait, are backfill candidates before the others, in reservation order.
  // 0: off.
  std::size_t front = 0;
  int relative_age = 0;
  // Split backfilling (BackfillSplit), with a shortest-first backfill order only.
  BackfillSplit split = BackfillSplit::off;
  // split_kill (splitby=kill): a candidate ends before the head's reservation only if its
  // kill time (now + estimate) is also no later than the head's kill-time reservation
  // (its deadline when guarded), guarded or not; needs a bound. Otherwise (splitby=pred)
  // the kill time counts only while the head is guarded.
  bool split_kill = false;
  // split_safe (splitby=safe): a candidate ends before the head's reservation only if its
  // kill time is no later than the head's planned start (on predictions): only jobs that
  // cannot outlive the head's start, whatever their prediction, are taken shortest-first.
  bool split_safe = false;
  // Extra-phase candidates only among the first `split_window` waiting jobs after the
  // head (splitn=N); 0: all.
  std::size_t split_window = 0;
  // Coarse shortest-first (classes=F): backfill candidates by prediction class on a log
  // scale of base F (class c holds predictions in [F^c, F^(c+1)) seconds), queue order
  // within a class; applied to the shortest-first order before front=, oldfirst= and
  // split=. 0: off (exact shortest-first).
  int classes = 0;
};

class EasyPass {
 public:
  struct Head {
    std::uint32_t position;  // index into state.waiting
    Time shadow;             // its reservation
  };
  // Positions of the blocked jobs that got a reservation (the head first).
  std::span<const std::uint32_t> reserved() const { return reserved_; }

  // Plans one pass; fills `decision` (start, backfilled, reservations[0] = the head's,
  // examined). Previous contents of `decision` are replaced.
  void run(const ClusterState& state, const EasyRules& rules, Decision& decision);

  // The same pass at a moment where since the last pass only jobs were appended to the
  // queue and running jobs corrected to predicted ends no later than the head's shadow
  // time (state.since_last_pass), continuing that pass: the head and its reservation are
  // unchanged and every earlier candidate still fails (idle processors, the shadow time
  // and the extra processors are the same, and a candidate started now ends later), so
  // only the new jobs are tried, in backfill order, against the plan the last pass left.
  // Only after a pass on the pool that reserved a head for depth 1, in queue order, with
  // no bound and predictions fitting, on a state whose running jobs are all corrected
  // when they reach their predicted ends (so an end never passes unseen); the caller
  // passes the same rules. Returns false, doing nothing, when the last pass cannot be
  // continued: then call run().
  bool run_continued(const ClusterState& state, const EasyRules& rules, Decision& decision);

  // Results of the last run(): the blocked head (none if all started or the queue was
  // empty) and the positions started (in order before the head, then backfilled).
  const std::optional<Head>& head() const { return head_; }
  std::span<const std::uint32_t> started() const { return started_; }

 private:
  // The pass on `state` (the caller's, or pool_state_ for depth > 1 on a pool).
  void plan(const ClusterState& state, const EasyRules& rules, Decision& decision);

  std::vector<std::uint32_t> positions_;
  std::vector<std::uint32_t> started_;
  std::vector<EasyPlan::Placement> placements_;  // of started_ (null on the pool)
  std::vector<std::uint32_t> reserved_;
  std::vector<std::uint64_t> class_keys_;  // classes=: (class, position) of the candidates
  std::optional<Head> head_;
  // run_arrivals() may continue the last pass: its head's id.
  bool continuable_ = false;
  JobId head_id_ = 0;
  // The plan on predictions, and the bound's on kill times: running jobs to their kill
  // times, this pass's starts for their estimates, the guarded head at its deadline.
  EasyPlan plan_;
  EasyPlan kill_plan_;
  Machine pool_;  // single_node(procs): depth > 1 on a state without a Machine
  ClusterState pool_state_;
};

}  // namespace easypp

#endif
