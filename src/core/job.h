// The job model every policy sees. Slurm-independent: the simulator and the plugin both
// translate their own records into these.
#ifndef EASYPP_CORE_JOB_H
#define EASYPP_CORE_JOB_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace easypp {

using Time = std::int64_t;  // seconds (epoch or simulated)
using JobId = std::uint64_t;
using UserId = std::uint32_t;

struct JobRequest;  // core/job_request.h
struct Allocation;  // core/job_request.h
class Machine;      // core/machine.h

struct Job {
  JobId id = 0;
  UserId user = 0;
  Time submit = 0;
  // The driver's priority: larger is served first (Slurm's job priority; the simulator's
  // FCFS gives earlier submits larger values). Ties go to the smaller id. Policies that
  // compare running with waiting jobs (preemption, papers 002/004) use it.
  std::int64_t priority = 0;
  int procs = 1;
  // The user's estimate (time limit) as the scheduler sees it: the kill time, except in
  // the X2 family where the driver multiplies it by PolicyTraits::estimate_factor (and
  // still kills at the user's own limit). Predictions never change it.
  Time estimate = 0;
  // What the scheduler plans with (seconds of runtime). For EASY it equals the estimate.
  Time prediction = 0;
  // Upward corrections so far (a running job that outlived its prediction).
  int corrections = 0;
  // Earlier runs that were killed and requeued (papers 002, 004); the driver counts them
  // (simulator: its kill_requeue; Slurm: the job's restart count).
  int restarts = 0;
  // May a policy kill and requeue it (papers 002, 004)? The driver says: the simulator's
  // workload (every job by default), the plugin Slurm's rules (a batch job that Slurm
  // would requeue, in a partition the administrator opted in). A policy never chooses a
  // job that may not be requeued as a victim, and never gives it a run it might kill.
  bool requeueable = true;
  // A running job whose end is under way: it holds its resources only until Slurm has
  // cleaned up after it (completing, e.g. a victim killed by an earlier decision). The
  // kill policies plan its share as free and never kill for it again (the plugin says;
  // the simulator's ends and kills are instant).
  bool releasing = false;
  // May a policy reserve resources for it while it cannot start? The driver says: the
  // simulator always; the plugin not for a job whose QOS has Slurm's NoReserve flag (a
  // standby QOS: stock backfill starts such a job only where it fits now and plans the
  // jobs behind it as if it were not there). Policies with
  // PolicyTraits::honours_reservable never reserve for it.
  bool reservable = true;
  // Queue partition for partitioned policies (paper 001); 0 when the machine is one pool.
  int partition = 0;
  // What it asks of a Machine's nodes; null: `procs` CPUs anywhere (the papers' model,
  // and the only request a state without a Machine has).
  std::shared_ptr<const JobRequest> request;
};

struct RunningJob {
  Job job;
  Time start = 0;
  // What it holds on which nodes (states with a Machine); null otherwise.
  std::shared_ptr<const Allocation> allocation;
  // When the scheduler believes the processors come back.
  Time predicted_end() const { return start + job.prediction; }
  // When the job is killed at the latest (its own time limit).
  Time kill_time() const { return start + job.estimate; }
};

// A consistent snapshot of one scheduling domain (a machine, or one Slurm partition).
// `waiting` is in priority order: the driver decides it (FCFS by submit time in the
// simulator, Slurm's job priority in the plugin). Policies that reorder (SJF, SJBF) do so
// on their own copy.
struct ClusterState {
  Time now = 0;
  int procs = 0;  // processors in the domain, free or not
  // The nodes, when the domain is planned as nodes (running jobs then carry allocations);
  // null: one pool of `procs` processors. Not owned.
  const Machine* machine = nullptr;
  std::vector<RunningJob> running;
  std::vector<Job> waiting;
  // What changed since the policy's previous pass on this state, where the driver knows
  // (the simulator under SimOptions::fast_passes; the plugin never says). A policy may
  // then continue its previous pass instead of planning afresh.
  struct Changes {
    // The rest holds: that pass's starts were carried out and time moved on, and nothing
    // else changed (no end, kill or wake-up) but what follows.
    bool known = false;
    // The last `arrived` waiting jobs arrived.
    std::size_t arrived = 0;
    // Running jobs that reached their predicted end were corrected (paper 000 section
    // 3.2); their latest predicted end now. -1: none was.
    Time corrected_until = -1;
  };
  Changes since_last_pass;
  // Jobs that ended, with their real end times, in no particular order: at least those
  // that ended since the driver's previous pass (the simulator: exactly those, from its
  // end events; the plugin: every ended job slurmctld still keeps, with its end time). A
  // policy that learns from completions (mq-vd's delay) reads the end here rather than
  // inferring it from the pass that first misses the job, which would depend on when the
  // passes happen, and the two drivers pass at different times. A driver that did not see
  // an end leaves it out: the policy then infers it.
  struct Ended {
    JobId job = 0;
    Time end = 0;
  };
  std::vector<Ended> ended;
  // The running jobs' predicted ends (start + prediction), latest first (equal ends:
  // larger job id first; the ends coming soonest, which ends and corrections take
  // away, sit at the back), where the driver keeps them so across passes (the
  // simulator); valid only while
  // `ends_of` is this state's own `running` (a copy of the state, or a driver that does
  // not keep them, leaves it unusable: null or another vector). EasyPlan then finds the
  // head's start by walking them instead of selecting among all ends each pass.
  struct PredictedEnd {
    Time end = 0;
    JobId job = 0;
    int procs = 0;
  };
  std::vector<PredictedEnd> predicted_ends;
  const std::vector<RunningJob>* ends_of = nullptr;
  bool has_predicted_ends() const {
    return ends_of == &running && predicted_ends.size() == running.size();
  }
};

// Throws std::invalid_argument naming the job (id=..., procs=...) if a policy cannot plan
// it: fewer than one processor. Policies check every job they examine.
// Inline: every pass calls it for every job it examines; the throw is out of line.
[[noreturn, gnu::cold]] void not_plannable(const Job& job);
inline void require_plannable(const Job& job) {
  if (job.procs < 1) [[unlikely]] not_plannable(job);
}

// True when a is served before b by the driver's priority (ties: smaller id).
inline bool higher_priority(const Job& a, const Job& b) {
  return a.priority != b.priority ? a.priority > b.priority : a.id < b.id;
}

}  // namespace easypp

#endif
