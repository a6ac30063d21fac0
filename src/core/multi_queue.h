// Self-adapting multiple-queue aggressive backfilling (paper 001 section 3.2, Fig. 4).
//
// Jobs go to queue q by the estimate the scheduler sees (default limits 100, 1000,
// 10000 s: four queues). Each queue owns a partition of the processors, first split
// evenly. Jobs are considered one at a time in arrival order across all queues:
//  - the first job of each queue is its pivot; pivots get reservations in their arrival
//    order on the whole machine (own partition first, then other partitions' processors),
//    so a pivot never waits for a later one and a job that needs the whole machine gets
//    all of it when its turn comes;
//  - a pivot starts when its reservation is now;
//  - any other job starts on its partition's idle processors if no reservation planned on
//    that partition is delayed (Fig. 4 6a/6b), or else borrows idle processors of other
//    partitions if no pivot at all is delayed (6c); borrowed processors move to its
//    partition, which is how the boundaries follow the workload.
// One queue is the single-queue aggressive backfilling of Fig. 3 (EASY).
//
// With variable delay (section 4.2) jobs of the last queue may not start before their
// submit time plus the delay D in force when the policy first saw them; D follows the
// short queue's slowdown (VariableDelay). A delayed job is not in its queue until then.
//
// On a Machine's nodes the machine's plan is a NodePlan: pivots are reserved on specific
// nodes, and any other job starts only where it delays none of them in any resource. The
// queues' partitions stay what the paper makes them, capacity shares: counts of the
// machine's processors (a job's processors), moved between queues by borrowing, not node
// sets. On Machine::single_node(N) it decides as on a pool of N processors.
//
// Memory across passes: partition sizes, and for variable delay each waiting job's
// release time plus the running jobs last seen (to observe completions). A partition move
// is committed only once a later snapshot shows the job that caused it running, so
// planning the same snapshot twice gives the same decision.
#ifndef EASYPP_CORE_MULTI_QUEUE_H
#define EASYPP_CORE_MULTI_QUEUE_H

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/job_request.h"
#include "core/node_plan.h"
#include "core/policy.h"
#include "core/policy_params.h"
#include "core/profile.h"
#include "core/variable_delay.h"

namespace easypp {

struct MultiQueueConfig {
  std::string name = "mq";
  PolicyTraits traits{};
  // Upper estimate limit of every queue but the last, strictly increasing, in seconds:
  // queue q takes limits[q-1] < estimate <= limits[q]. Empty: one queue (Fig. 3).
  std::vector<Time> limits{100, 1000, 10000};
  // Variable delay for the last queue's jobs (section 4.2); off when empty.
  std::optional<VariableDelayConfig> delay{};
};

class MultiQueuePolicy final : public Policy {
 public:
  // Throws std::invalid_argument naming a bad limit (not > 0 or not increasing).
  explicit MultiQueuePolicy(MultiQueueConfig config);
  std::string_view name() const override { return config_.name; }
  const PolicyTraits& traits() const override { return config_.traits; }
  Decision plan(const ClusterState& state) override;

  int queues() const { return static_cast<int>(config_.limits.size()) + 1; }
  // Queue (0-based) of a job: by the estimate the scheduler sees.
  int queue_of(const Job& job) const;
  // Partition sizes as last committed (processors per queue; sum = the machine). Empty
  // before the first pass. What a driver would map onto live partitions.
  const std::vector<int>& partition_sizes() const { return sizes_; }
  // Current variable delay D in seconds (0 when off).
  double current_delay() const { return delay_ ? delay_->delay() : 0.0; }

 private:
  struct Move {  // processors lent to `to` when job `job` started (committed once running)
    JobId job;
    int from;
    int to;
    int procs;
  };
  struct Pivot {
    std::uint32_t position;  // in state.waiting
    Time time;               // reservation
    std::shared_ptr<const Allocation> allocation;  // its nodes (on a Machine)
  };

  void commit_partitions(const ClusterState& state);
  // Feeds the delay the jobs of the last pass no longer running, at their real ends
  // (ClusterState::ended), so the delay does not depend on when passes happen.
  void observe_completions(const ClusterState& state);
  // A new run of the same object: D back to D_1, the partitions to the even split.
  void forget_the_last_run();
  bool released(const Job& job, Time now);
  // Rebuilds the plans from running jobs and this pass's starts, then reserves the pivots.
  void replan(const ClusterState& state);
  // Splits `procs` over partitions (queue q first, then the others in index order), at
  // most `available[r]` from partition r. Returns false if they do not add up.
  bool split(int q, int procs, const std::vector<int>& available, std::vector<int>& share) const;
  void start(const ClusterState& state, std::uint32_t position, int q, Time duration,
             const std::vector<int>& share, bool backfilled, Decision& decision,
             std::shared_ptr<const Allocation> allocation = nullptr);
  const JobRequest& request_of(const Job& job);

  MultiQueueConfig config_;
  std::optional<VariableDelay> delay_;
  std::vector<int> sizes_;
  std::vector<Move> pending_moves_;
  std::unordered_map<JobId, Time> release_;  // last-queue jobs under variable delay
  struct Seen {
    Time submit;
    Time start;
    Time prediction;
    int queue;
    bool planned = false;  // started by the last pass, not yet seen running
  };
  // Running jobs of the last pass's snapshot and the jobs it started (a short job may
  // start and end between two passes, never seen running: its end still counts).
  std::unordered_map<JobId, Seen> last_running_;
  std::vector<std::pair<JobId, Seen>> started_this_pass_;
  Time last_now_ = 0;  // a run starting earlier is a new run (easypp-sim --repeat)

  // Per-pass scratch.
  std::vector<int> queue_of_waiting_;
  std::vector<char> started_;
  std::vector<std::uint32_t> started_positions_;
  std::vector<int> working_sizes_;
  std::vector<std::optional<Pivot>> pivots_;
  AvailabilityProfile machine_;
  std::vector<AvailabilityProfile> partitions_;
  std::vector<std::vector<AvailabilityProfile::Busy>> busy_;
  std::vector<AvailabilityProfile::Busy> machine_busy_;
  std::vector<int> available_;
  std::vector<int> share_;
  // On nodes: the machine's plan, this pass's starts (to rebuild it), and per queue where
  // its pivot can start now (null: not now).
  NodePlan nodes_;
  struct NodeStart {
    std::shared_ptr<const Allocation> allocation;
    Time duration;
  };
  std::vector<NodeStart> node_starts_;
  std::vector<std::shared_ptr<const Allocation>> pivot_now_;
  JobRequest cpu_request_;  // for jobs without a request
};

// The registry's configurations: four queues (paper limits) or one, with or without the
// variable delay (D_1 = 2500 s, batches of 100, threshold 0.25).
enum class DelayRule {
  none,
  paper,       // delta_1 = s_1, as printed (mq-vd)
  first_zero,  // delta_1 = 0: the first batch only sets the reference (mq-vd0)
};
// mq, mq-vd and mq-vd0 read the key limits=L1/L2/... (seconds, increasing; "limits=60/3600"
// makes three queues), or the same as positional items, mq:60:3600 (the older spelling,
// kept as an alias; the policy is then named as written). mq-vd and mq-vd0 also take
// delay=D_1 (seconds, the initial variable delay; paper: 2500), e.g. "mq-vd:delay=60".
// The policy is named by its spec with the keys given (mq-vd:delay=60). Throws std::invalid_argument naming a bad limit.
std::unique_ptr<Policy> make_multi_queue(PolicyTraits traits, DelayRule delay, bool four_queues,
                                         PolicyParams& params);

}  // namespace easypp

#endif
