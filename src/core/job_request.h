// What a job asks of a Machine (Slurm's request, in plain numbers), and what a running
// job holds. A Job without a request asks for `procs` CPUs anywhere: the papers' model.
#ifndef EASYPP_CORE_JOB_REQUEST_H
#define EASYPP_CORE_JOB_REQUEST_H

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/machine.h"
#include "core/resources.h"

namespace easypp {

struct JobRequest {
  int min_nodes = 1;
  int max_nodes = 0;  // 0: as many as it takes
  int tasks = 1;      // at least min_nodes (one task per node at least)
  // Per task: CPUs (cpus_per_task), memory when asked per CPU (mem per CPU x CPUs per
  // task), generic resources asked per task. Indexed by the Machine's resource kinds.
  Resources per_task;
  // Per node used: memory when asked per node, generic resources asked per node.
  Resources per_node;
  // Memory asked per CPU (Slurm's --mem-per-cpu), 0: none. per_task holds it for the
  // task's CPUs; a share is charged it on every CPU it is given, so where CPUs come in
  // whole cores (Node::cpu_unit) a share's memory rounds up with its CPUs, as Slurm's
  // cons_tres charges it on the job's allocated CPUs.
  std::int64_t memory_per_cpu = 0;
  // Slurm's pn_min_cpus (--mincpus, --ntasks-per-node x --cpus-per-task): a node is used
  // only with at least this many CPUs free for the job, and its share holds that many at
  // least, as cons_tres allocates them. 0: none.
  int min_cpus_per_node = 0;
  int max_tasks_per_node = 0;  // --ntasks-per-node: at most this many tasks on a node (0: any)
  // Threads it uses of each core (--threads-per-core, --hint=nomultithread: 1), and tasks
  // that may share a core (--ntasks-per-core); 0: any. On a node of more threads per core
  // (Node::threads_per_core) its tasks then spread over more cores: Slurm's usable CPUs
  // per core are the least of the node's threads, these threads and these tasks times
  // their CPUs (cons_tres, common_cpus_per_core), and under whole cores the job holds
  // every thread of those cores.
  int threads_per_core = 0;
  int tasks_per_core = 0;
  bool exclusive = false;             // whole nodes
  bool contiguous = false;            // --contiguous: nodes of consecutive indices
  std::vector<std::string> features;  // every one required on each node, unless:
  bool any_feature = false;           // each node needs one of `features` (Slurm's a|b)
  NodeSet required;                   // empty: none
  NodeSet excluded;                   // empty: none
  // Partitions (Machine indices) the job may run in; empty: any node of the machine.
  std::vector<std::size_t> partitions;
  Resources licences;       // indexed by Machine::licences()
  std::string reservation;  // advance reservation it runs in; empty: none
  // Reservations it may run in instead, in one of them (Slurm queues a record for each
  // and starts the job in one): the further names of --reservation=a,b, or, for a job
  // that named none, the MAGNETIC reservations it may use besides running outside them.
  std::vector<std::string> other_reservations;

  // The simplest request: `tasks` tasks of one CPU each, on as many nodes as it takes
  // (an SWF job of that many processors).
  static JobRequest cpus(int tasks) {
    JobRequest r;
    r.tasks = tasks;
    r.per_task[kCpu] = 1;
    return r;
  }
  // Whether it may use node `n` of `machine` at all: the node is in one of its partitions
  // and not excluded. (Features are a test of their own: NodePlan matches them as masks.)
  bool may_reach(const Machine& machine, NodeIndex n) const {
    if (!excluded.empty() && excluded.contains(n)) return false;
    if (partitions.empty()) return true;
    return std::any_of(partitions.begin(), partitions.end(), [&](std::size_t p) {
      return p < machine.partitions().size() && machine.partitions()[p].nodes.contains(n);
    });
  }
  // Whether `node` has every feature it names (any one of them, with any_feature).
  bool features_on(const Node& node) const {
    const auto has = [&](const std::string& f) {
      return std::find(node.features.begin(), node.features.end(), f) != node.features.end();
    };
    if (any_feature && !features.empty())
      return std::any_of(features.begin(), features.end(), has);
    return std::all_of(features.begin(), features.end(), has);
  }
  // CPUs it needs at the least (a quick test against a machine's idle CPUs).
  std::int64_t min_cpus() const {
    return per_task[kCpu] * std::max(tasks, min_nodes) + per_node[kCpu] * std::max(1, min_nodes);
  }
};

// What one node gives a job (started or reserved).
struct NodeShare {
  NodeIndex node = 0;
  int tasks = 0;
  Resources amount;
};

struct Allocation {
  std::vector<NodeShare> shares;
  Resources licences;
  // The partition (Machine index) it was planned in, for a job queued in several (the job
  // must start in that one: another may refuse the same nodes); -1: not chosen.
  int partition = -1;
};

}  // namespace easypp

#endif
