// Availability profile: how many processors are free at each future moment, as a step
// function from `now`. Built from running jobs' ends (predicted ends or kill times), then
// extended in place with jobs started now and with planned (reserved) jobs.
//
// Two numbers differ at `now`: idle_now() is what is really idle (a job may start only on
// those), while the planning profile at `now` also counts processors of running jobs whose
// end is already past (paper 000 section 3.2: an expired prediction counts as "ending now").
#ifndef EASYPP_CORE_PROFILE_H
#define EASYPP_CORE_PROFILE_H

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "core/job.h"

namespace easypp {

// "Never": a request the machine can never satisfy (more processors than it has).
inline constexpr Time kNever = std::numeric_limits<Time>::max();

// Which end of a running job the profile plans with.
enum class RunningEnd {
  predicted,  // start + prediction (what the scheduler believes)
  kill_time,  // start + estimate (what the user contract guarantees)
};

class AvailabilityProfile {
 public:
  struct Step {
    Time time;  // from this moment on (until the next step) ...
    int free;   // ... this many processors are free in the plan
  };
  struct Busy {
    Time end;  // planned end; <= now means "ending now"
    int procs;
  };

  // Rebuilds the profile for `total` processors at `now`, busy as listed (sorted in
  // place; the caller's scratch buffer). Cost O(B log B); reuses this object's storage.
  void reset(Time now, int total, std::span<Busy> busy);
  // Same, from a snapshot's running jobs.
  void reset(const ClusterState& state, RunningEnd end);

  Time now() const { return steps_.front().time; }
  int total() const { return total_; }
  // Processors really idle now.
  int idle_now() const { return idle_now_; }
  // Free processors in the plan at time t (t < now reads as now).
  int free_at(Time t) const;
  // Earliest start >= now at which `procs` stay free for `duration` in the plan; kNever
  // if procs > total. Ignores idle_now(): a reservation may be "now" when expired
  // predictions make the plan optimistic.
  Time earliest_start(int procs, Time duration) const;
  // EASY's two numbers for a blocked job (the head): its shadow time (reservation
  // start) and the extra processors, those free at the shadow time beyond its need.
  struct Shadow {
    Time time;
    int extra;
  };
  Shadow shadow(int procs, Time duration) const;
  // Could a job start now: really idle processors, and the plan keeps them free for
  // `duration` (so no reservation already placed is delayed).
  bool fits_now(int procs, Time duration) const;

  // Plans `procs` busy during [start, start + duration) (the part before now is ignored).
  // O(steps). Durations below one second count as one (a job always occupies its
  // processors for a moment).
  void reserve(Time start, Time duration, int procs);
  // Starts a job now: takes really idle processors and reserves them from now.
  void start_now(int procs, Time duration);

  std::span<const Step> steps() const { return steps_; }

 private:
  // Index of the step beginning exactly at t (t >= now), inserting one if needed.
  std::size_t breakpoint(Time t);
  std::size_t step_index(Time t) const;

  // Per processor count, the first moment that many were free. The plan only loses
  // capacity between resets (reserve, start_now), so that moment only moves later and is
  // a valid place to start the next scan: conservative's many queries skip the full
  // prefix. Stamped with the reset generation instead of cleared, so reset stays O(B).
  struct Hint {
    std::uint64_t generation = 0;
    Time time = 0;
  };
  mutable std::vector<Hint> hints_;
  std::uint64_t generation_ = 0;

  std::vector<Step> steps_{Step{0, 0}};
  std::vector<Busy> scratch_;
  int total_ = 0;
  int idle_now_ = 0;
};

}  // namespace easypp

#endif
