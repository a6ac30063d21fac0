// The event-driven simulator: replays a workload through one policy. Events are
// arrivals, terminations and prediction expiries (corrections); after all events of one
// moment are applied, the policy plans once on the in-place ClusterState and the
// simulator carries out its Decision. The event loop only drives: what happens goes to
// one RunObserver (measure/run_observer.h), and simulate() records the papers' outcomes
// with measure/outcome_recorder.h.
#ifndef EASYPP_SIM_SIMULATOR_H
#define EASYPP_SIM_SIMULATOR_H

#include <cstdint>

#include "core/policy.h"
#include "measure/outcome.h"
#include "measure/run_observer.h"
#include "sim/workload.h"

namespace easypp::sim {

// How long a job runs. replay: exactly its recorded runtime, even past its estimate (the
// paper's "exact data": logs have jobs that outlived their limit). cap: killed at its
// estimate (kill time) when the recorded runtime is longer.
enum class RuntimeMode { replay, cap };

struct SimOptions {
  RuntimeMode runtime = RuntimeMode::replay;
  // Seeds predictors that draw random numbers (paper 003's quant/qual); others ignore it.
  std::uint64_t seed = 1;
  // Heel and toe (paper 000 section 6): each head's earliest start on real ends, for
  // JobOutcome's first_perfect_start and pushbacks (Table 10). About a tenth of a
  // simulation on SDSC-BLUE; callers that need neither (the sweep) turn it off (the
  // checked build's head invariant is the engine's own and runs regardless).
  bool heel_and_toe = true;
  // Shortcuts that change no start and no end (so no wait and no slowdown), only what
  // the observer hears of passes (SimOutcome's passes and first_reservation differ):
  //  - for a policy whose traits say a pass that can start nothing changes nothing
  //    (PolicyTraits::blocked_passes_idle), on a workload without a Machine, no pass runs
  //    at a moment where every waiting job needs more processors than are idle;
  //  - a pass is told what changed since the previous one when that was only arrivals
  //    and corrections (ClusterState::since_last_pass), and a policy may continue its
  //    previous pass (the EASY family's EasyPass::run_continued).
  // The sweep, which reports waits and slowdowns only, turns them on.
  bool fast_passes = false;
};

// True when this build checks the engine's invariants on every event (the library the
// unit tests link; see EASYPP_SIM_CHECKS in src/sim/Makefile.am).
bool invariants_checked();

// Runs the whole workload. Predictors that need the whole workload (paper 003's
// evaluation kinds) get it before the first arrival. Throws std::invalid_argument for a
// bad predictor spec of the policy or a workload such a predictor rejects, std::logic_error when the policy returns an impossible decision (starting a job
// that is not waiting, more processors than the machine) or an invariant fails.
measure::SimOutcome simulate(const Workload& workload, Policy& policy,
                             const SimOptions& options = {});

// The same run, told to `observer` (other measures plug in here); throws as simulate().
void drive(const Workload& workload, Policy& policy, measure::RunObserver& observer,
           const SimOptions& options = {});

}  // namespace easypp::sim

#endif
