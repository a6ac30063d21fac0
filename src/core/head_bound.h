// The bound on EASY++'s head (issue 15): a kill-time promise per head job.
//
// EASY++ reserves the head on predictions and backfills what is predicted to end by that
// reservation. A backfilled job that outlives its prediction pushes the head back, and
// shortest-first backfilling picks such jobs again and again, so a head can wait far
// longer than under EASY (35 days on CTC). EASY never lets a backfill delay the head's
// kill-time reservation: jobs end by their kill times at the latest.
//
// The promise: when a job first becomes the head, its kill-time reservation (running jobs
// ending at their kill times, the jobs started in the same pass by now + estimate) plus a
// slack. While the head's planned start (on predictions) is within the promise, EASY++
// backfills as always. Once it has slipped past the promise, the head is guarded until it
// starts: a backfill must then also end, by its kill time, by the deadline (the promise,
// or the head's current kill-time reservation if that is later), or fit the processors
// still free beyond the head's need at the deadline on kill times. From that pass on the
// head's kill-time reservation can only move earlier, as under EASY. With guard=always
// the head is guarded from its first pass, so it starts by its promise.
//
// The starvation threshold (starve=SECONDS): shortest-first backfilling serves newcomers
// before jobs queued for long that are not the head, so in a backlog their waits grow past
// EASY's (which backfills in queue order). Every waiting job behind the head that has
// waited at least the threshold is guarded too: it is reserved, in queue order, at its
// earliest start in the kill-time plan (after the head's deadline), and a backfill must
// fit around those reservations on kill times, as EASY's backfills fit around its head.
// Like Maui's and Slurm's reservations for the longest-waiting jobs, but on kill times.
// protect=N guards the first N jobs behind the head that way whatever their wait (the
// next heads). fair=SECONDS guards by a per-job promise instead of an age, as fair-start
// analyses of backfilling do: each job behind the head gets a promise the first pass it is
// seen (its earliest kill-time start then, plus the slack), and is guarded from the pass
// its kill-time start has slipped past it, so later backfills cannot push it further.
#ifndef EASYPP_CORE_HEAD_BOUND_H
#define EASYPP_CORE_HEAD_BOUND_H

#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>

#include "core/job.h"
#include "core/easy_plan.h"

namespace easypp {

struct BoundRule {
  Time slack = 0;  // seconds past the kill-time reservation before the head is guarded
  bool always = false;  // guard from the head's first pass (start <= promise)
  // Waiting jobs behind the head that have waited this long are guarded too (kNever: none).
  Time starve = kNever;
  // Fair start (fair=SECONDS): every waiting job behind the head gets a promise the first
  // pass it is seen (its earliest start on kill times then, plus this slack) and is
  // guarded like a starved job from the pass its kill-time start slips past it (kNever: off).
  Time fair = kNever;
  // The first `protect` waiting jobs behind the head are guarded like starved jobs,
  // whatever their wait (protect=N; 0: none): the next heads' kill-time starts hold.
  int protect = 0;
  // guard=tight: guarded from the first pass, and the deadline follows the head's current
  // kill-time reservation down (that plus the slack, never past the promise), as EASY's
  // shadow time does when jobs end early; with always the deadline stays at the promise.
  bool tight = false;
};

class HeadBound {
 public:
  explicit HeadBound(BoundRule rule) : rule_(rule) {}
  const BoundRule& rule() const { return rule_; }

  // One pass with `head` blocked, planned to start at `planned` (predictions) and at
  // `kill_time_start` at the latest (kill times). Returns the backfill deadline when the
  // head is guarded, nothing otherwise. A different head than last pass gets a new
  // promise. A kill-time start of kNever (the head cannot be placed on kill times)
  // guards nothing.
  std::optional<Time> deadline(JobId head, Time planned, Time kill_time_start);

  // True when a waiting job has waited at least the starvation threshold at state.now
  // (then the pass plans on nodes, where several kill-time reservations fit).
  bool starving(const ClusterState& state) const;

  // Reserves in `kill_plan` (running jobs to kill times, this pass's starts, the head),
  // in the order of `behind` (the waiting positions after the head, queue order), every
  // job that has waited at least the threshold, at its earliest start on kill times.
  // Returns how many it reserved; a backfill must then fit `kill_plan` now. `kill_plan`
  // must plan on nodes (several reservations: EasyPass plans the pool as one node when
  // starving() holds); on the pool it reserves nothing.
  int guard_starved(const ClusterState& state, std::span<const std::uint32_t> behind,
                    EasyPlan& kill_plan) const;

  // The fair-start guard (BoundRule::fair): in the order of `behind`, gives each job not
  // seen before its promise, and reserves in `kill_plan` every job whose earliest start
  // there is past its promise (sticky, as the head's guard). Forgets jobs no longer in
  // `behind` or the head. Returns how many it reserved. On the pool it does nothing.
  int guard_fair(const ClusterState& state, std::span<const std::uint32_t> behind,
                 EasyPlan& kill_plan);

  // The current head's promise (for tests and reports).
  std::optional<Time> promise() const {
    return known_ ? std::optional<Time>(promise_) : std::nullopt;
  }

 private:
  BoundRule rule_;
  bool known_ = false;
  JobId head_ = 0;
  Time promise_ = 0;
  bool guarded_ = false;
  struct FairPromise {
    Time promise;
    bool guarded;
    std::uint64_t seen;  // pass of the last sighting: older entries are forgotten
  };
  std::unordered_map<JobId, FairPromise> fair_;
  std::uint64_t pass_ = 0;
};

}  // namespace easypp

#endif
