// What a policy returns: the driver carries these out (simulator: directly; plugin:
// through Slurm's select_nodes).
#ifndef EASYPP_CORE_DECISION_H
#define EASYPP_CORE_DECISION_H

#include <memory>
#include <optional>
#include <vector>

#include "core/job.h"

namespace easypp {

struct Reservation {
  JobId job = 0;
  Time start = 0;  // planned start (on predictions; on kill times for double booking)
  // The nodes it is planned on (states with a Machine); null otherwise.
  std::shared_ptr<const Allocation> allocation;
};

struct Decision {
  // Jobs to start now, in the order the policy chose them.
  std::vector<JobId> start;
  // With a Machine: where each job of `start` runs (same order); empty otherwise.
  std::vector<std::shared_ptr<const Allocation>> start_allocations;
  // Which of `start` were backfilled (started ahead of a blocked higher-priority job).
  std::vector<JobId> backfilled;
  // Planned start times of waiting jobs that do not start now (at least the first blocked
  // job's reservation; conservative policies give one per job). Drivers show these as
  // start estimates (squeue --start) and metrics use them for predictability.
  // reservations[0] is always the head: the first blocked job in the policy's reservation
  // order.
  std::vector<Reservation> reservations;
  // The policy's own plan when it reports a different one (double booking, paper 000
  // section 4: `reservations` then holds the estimate-based ones shown to users, this the
  // prediction-based ones the policy planned with). Empty for other policies.
  std::vector<Reservation> planned_reservations;
  // Running jobs to kill and requeue (restart from the beginning later): papers 002, 004.
  std::vector<JobId> kill_requeue;
  // Plan again at this time even if nothing else happens (a trial run ends, paper 004; a
  // delayed job is released, paper 001). The simulator adds a wake-up event; the plugin's
  // thread runs a pass then (plugin/agent.h).
  std::optional<Time> wake_at;
  // How many waiting jobs the pass examined (sdiag's "depth"): every job it looked at
  // before stopping (a pass stops early once no processor is idle).
  int examined = 0;

  // Back to a fresh Decision's contents, keeping the vectors' buffers (a driver that
  // plans many passes reuses one Decision: Policy::plan_into).
  void clear() {
    start.clear();
    start_allocations.clear();
    backfilled.clear();
    reservations.clear();
    planned_reservations.clear();
    kill_requeue.clear();
    wake_at.reset();
    examined = 0;
  }
};

}  // namespace easypp

#endif
