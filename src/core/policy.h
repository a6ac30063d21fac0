// The policy interface: a pure function of a snapshot (plus the policy's own memory of
// earlier passes where a paper needs it), returning decisions. No simulator or Slurm
// globals, so the same decision comes out of simulation and slurmctld on the same state.
#ifndef EASYPP_CORE_POLICY_H
#define EASYPP_CORE_POLICY_H

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/decision.h"
#include "core/job.h"

namespace easypp {

// How a driver must prepare jobs for a policy (which predictions, which corrections).
struct PolicyTraits {
  // Predictor spec string (libeasypp-predictor); "estimate" for plain EASY.
  std::string predictor = "estimate";
  // Correct predictions of running jobs that outlive them (paper 000 section 3.2).
  bool correct_predictions = false;
  // Multiply user estimates (X2 family: 2). Applied by the driver to the estimate the
  // scheduler sees; the kill time the user gave is what the driver enforces.
  double estimate_factor = 1.0;
  // Multiply predictions (X2+ / X2++: doubled predictions); the result is still capped
  // at the (scaled) estimate. Applied by Predictions::predict().
  double prediction_factor = 1.0;
  // The policy kills running jobs when it needs their processors (papers 002, 004), so a
  // running job may outlive a reservation by design: drivers must not treat that as a
  // broken reservation.
  bool kills = false;
  // A pass on a state without a Machine starts only jobs whose processors fit the idle
  // ones, kills nothing, asks for no wake-up and leaves the policy's memory as it was
  // whenever no waiting job fits them: such a pass changes nothing but the reservations
  // it reports, so a driver that needs no reservations may skip it (the simulator's
  // SimOptions::skip_blocked_passes). Set by the policy itself (the EASY family without
  // a bound on the head, whose memory a pass updates).
  bool blocked_passes_idle = false;
  // The policy never reserves for a job that may not be reserved (Job::reservable): the
  // EASY family and conservative backfilling. The papers' other policies (multiple
  // queues, PV-EASY, timed runs) reserve every job alike.
  bool honours_reservable = false;
  // The policy never backfills (fcfs, timed-run with base=fcfs): the queue waits at the
  // first job that does not fit, one that may not be reserved too, as Slurm's FIFO
  // scheduler waits.
  bool never_backfills = false;
};

class Policy {
 public:
  virtual ~Policy() = default;
  virtual std::string_view name() const = 0;
  virtual const PolicyTraits& traits() const = 0;
  // Plan one scheduling pass. Must not keep references into `state`. Policies reuse
  // scratch buffers across passes: one object per thread (or per partition).
  virtual Decision plan(const ClusterState& state) = 0;
  // The same pass, written into `out` (whatever it held before is replaced). A policy may
  // reuse `out`'s buffers; the simulator keeps one Decision across its passes. The
  // default assigns plan(state).
  virtual void plan_into(const ClusterState& state, Decision& out) { out = plan(state); }
};

struct PolicyOptions {
  // Overrides the policy's default predictor when non-empty (easypp-sim --predictor).
  // Everything else a policy takes is a key of its spec (NAME:key=value,...).
  std::string predictor;
};

// One key a policy family reads from its spec: "depth" with values "N".
struct PolicyKey {
  std::string key;
  std::string values;
};
// A family of make_policy() and the keys it reads.
struct PolicyFamily {
  std::string name;
  std::vector<PolicyKey> keys;
  // NAME, or NAME[:key=values,...] (e.g. "timed-run[:base=fcfs|easy,trial=SECONDS]").
  std::string usage() const;
};

// Builds a policy from its spec, NAME or NAME:key=value[,...] (policy_params.h). Throws
// std::invalid_argument naming a bad name (listing the valid ones) or a bad key=value.
// Keys: every EASY-family name below (fcfs .. easy++-safe) takes depth=N, the
// reservations per pass (default 1 = EASY; e.g. easy++:depth=4), and the bound on the
// head (head_bound.h; all off by default): bound=off|SECONDS, guard=slipped|always|tight,
// age=off|SECONDS, lxfw=off|N (e.g. easy++:bound=0:guard=always); timed-run takes
// base=fcfs|easy and trial=SECONDS (default easy and 90); mq, mq-vd and mq-vd0 take
// limits=L1/L2/... (policy_families() lists them all). The names (paper 000; "+" =
// system predictions with correction,
// "++" = "+" with shortest-job-backfilled-first):
//   fcfs          no backfilling
//   easy          EASY on user estimates, FCFS backfill order
//   easy-pcor     easy + prediction correction
//   easy+         history predictions + correction
//   easy-sjbf     easy with shortest-first backfill order (reservation still FCFS)
//   easy++        easy+ with SJBF;  perfect++: clairvoyant predictions with SJBF
//   conservative  a reservation for every waiting job
//   x2, x2+, x2++ EASY on doubled estimates; doubled predictions + correction; + SJBF
//   sjf, sjf+     shortest first for starting and for the reservation (estimates;
//                 predictions + correction)
//   easy++-dbook  easy++, reporting the estimate-based reservation (section 4)
//   easy++-safe   easy++ order, but a backfill's estimate must end by the reservation
//                 (or fit the extra processors)
//   lxf-w, lxf-w+ EASY with LXF&W(w) backfill order (paper 003: largest expansion factor
//                 + 0.02 x wait hours first); on estimates; on predictions + correction
//   pv-easy       preemptive venture EASY (paper 002): shadow-load preemption and venture
//                 backfilling; Last Model predictions (--predictor overrides)
//   timed-run     trial runs of trial=SECONDS (90) before the base=fcfs|easy scheduler
//                 commits (paper 004)
//   mq            multiple-queue backfilling (paper 001, multi_queue.h): four queues by
//                 estimate, each with a processor partition moved by borrowing; estimates
//   mq-vd, mq-vd0 mq with the variable delay of extra-long jobs (delta_1 = s_1 as
//                 printed; delta_1 = 0);  mq-1q: one queue (Fig. 3, same starts as easy);
//                 other queue limits as mq:limits=L1/L2/... (seconds), e.g.
//                 mq:limits=60/3600; the older spelling mq:60:3600 is an alias
// options.predictor replaces the predictor of the prediction-based policies (easy+,
// easy++, x2+, x2++, sjf+, easy++-dbook, easy++-safe); for the others, whose name fixes
// their predictions, it is an error.
//
// Later policies plug in here too: other orders (paper 003) as JobOrder classes,
// kill-and-requeue policies (papers 002, 004) through Decision.kill_requeue; partitions
// (paper 001) are the policy's own memory (MultiQueuePolicy::partition_sizes()).
std::unique_ptr<Policy> make_policy(std::string_view spec, const PolicyOptions& options = {});
// Every name make_policy() accepts (what drivers match a spec's name against).
std::vector<std::string> policy_names();
// Every family with the keys it reads, in policy_names() order (easypp-sim
// --list-policies, error messages).
std::vector<PolicyFamily> policy_families();
// Whether options.predictor applies to the policy this spec names (its predictions are its
// free parameter: the + and ++ variants, pv-easy, timed-run), so a tool running several
// policies with one --predictor can leave the others on their own predictions.
bool policy_takes_predictor(std::string_view spec);

}  // namespace easypp

#endif
