// Measures of the kill-and-requeue papers, from a simulation's outcome; usable with every
// policy (a policy that never kills has zero preemptions and wasted load).
//
// Paper 002 (PV-EASY): the strict-fairness checker (Table 1) and the reservation-violation
// checker (Table 2); MBS/MWBS overall and for blocked jobs, big (more than 1/4 of the
// machine) or small (Figs. 2, 3); backfilled vs blocked jobs (Table 4); total and wasted
// load (Table 5); preempted jobs, mean killed times and run-time waste (Table 6).
// Paper 004 (timed runs): average and maximum wait of all, failing, short and failed
// short jobs (Figs. 4, 6, 8, 9).
//
// Priority is submission order (the simulator's FCFS queue order, job index). The
// outcome records no nodes, so on a Machine the checkers and loads count a pool of its
// CPUs, each job holding its own processors (doc/easypp-sim.1, "Metrics on nodes").
// Definitions, one line each, are in doc/easypp-sim.1 (section KILL AND REQUEUE).
#ifndef EASYPP_MEASURE_PREEMPT_METRICS_H
#define EASYPP_MEASURE_PREEMPT_METRICS_H

#include <cstdint>

#include "measure/outcome.h"

namespace easypp::measure {

// Strict fairness (paper 002 section 3.1): a waiting job is delayed by lower-priority
// jobs from the first moment it is the highest-priority waiting job and the processors
// not held by higher-priority jobs would let it start, until it starts.
struct FairnessCheck {
  std::int64_t blocked = 0;  // jobs whose final start was regular (not a backfill) and late
  std::int64_t delayed = 0;  // jobs delayed by lower-priority jobs (any waiting period)
  double delay_mean_min = 0;  // over delayed jobs
  double delay_max_hours = 0;
};

// Reservation violations (paper 002 Table 2): a job that got a reservation, started after
// it, and at some moment from the reservation until its start was the highest-priority
// waiting job with enough processors not held by higher-priority jobs (so lower-priority
// jobs, not its predecessors, broke the reservation: the paper's "benign" case is left
// out). DTR = start - first reservation; SI = DTR / max(runtime, 10 s).
struct ReservationCheck {
  std::int64_t violations = 0;
  double mean_parallelism = 0;
  double dtr_mean_min = 0;
  double dtr_max_hours = 0;
  double si_mean = 0;
  double si_max = 0;
};

struct WaitStats {
  std::int64_t count = 0;
  double avg_s = 0;
  double max_s = 0;
};

struct PreemptMetrics {
  FairnessCheck fairness;
  ReservationCheck reservation;
  // Bounded slowdown (wait + max(rt, 10)) / max(rt, 10), and weighted by processors.
  double mbs = 0;
  double mwbs = 0;
  std::int64_t backfilled = 0;
  std::int64_t blocked_big = 0;
  std::int64_t blocked_small = 0;
  double mbs_blocked_big = 0;
  double mwbs_blocked_big = 0;
  double mbs_blocked_small = 0;
  double mwbs_blocked_small = 0;
  // Of procs x (last end - first submit), percent.
  double total_load_pct = 0;
  double wasted_load_pct = 0;
  // Jobs killed at least once; mean kills among them; mean of (time in killed runs) /
  // runtime among them, percent.
  std::int64_t preempted_jobs = 0;
  double preempted_pct = 0;
  double mkt = 0;
  double rtw_pct = 0;
  // Waits (start of the final run - submit). Failing: SWF status 0 (failed); unknown and
  // cancelled are not failing. Short: runtime <= the trial length.
  WaitStats wait_all;
  WaitStats wait_failed;
  WaitStats wait_short;
  WaitStats wait_short_failed;
};

PreemptMetrics compute_preempt_metrics(const SimOutcome& outcome, Time trial_length);

// The two checkers alone (compute_preempt_metrics calls them).
void check_fairness(const SimOutcome& outcome, FairnessCheck& fairness,
                    ReservationCheck& reservation);

}  // namespace easypp::measure

#endif
