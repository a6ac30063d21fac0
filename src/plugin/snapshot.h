// What the plugin reads out of slurmctld for one pass, in plain numbers. The Slurm glue
// (slurm_snapshot.cpp) fills these under slurmctld's locks; everything after works on
// them without Slurm, so the translation into the core's model is unit-tested.
#ifndef EASYPP_PLUGIN_SNAPSHOT_H
#define EASYPP_PLUGIN_SNAPSHOT_H

#include <cstdint>
#include <string>
#include <vector>

#include "core/job.h"

namespace easypp::plugin {

// A count of one generic resource: "gpu" (any type) or "gpu:a100" (that type).
struct GresCount {
  std::string kind;
  std::int64_t count = 0;
};

// A count of one licence (Slurm's Licenses=, local or from slurmdbd): a cluster's total,
// what a job holds or asks for.
struct LicenceCount {
  std::string name;
  std::int64_t count = 0;
};

// What a running job holds on one node (Slurm's job_resources and GRES allocation).
struct ShareRecord {
  std::uint32_t node = 0;  // index into ClusterSnapshot::nodes
  int cpus = 0;
  std::int64_t memory_mb = 0;
  std::vector<GresCount> gres;
};

// What a pending job asks for (its job_details and GRES request), in Slurm's own terms.
struct RequestRecord {
  int min_nodes = 1;
  int max_nodes = 0;  // 0: no maximum
  int tasks = 1;      // num_tasks
  int cpus_per_task = 1;
  int min_cpus = 1;      // the job's total minimum CPUs
  int cpus_per_node = 0;  // pn_min_cpus: at least this many CPUs on each node used
  int tasks_per_node = 0;  // --ntasks-per-node (0: not given)
  // mc_ptr's threads_per_core (--threads-per-core; --hint=nomultithread sets 1) and
  // ntasks_per_core (--ntasks-per-core, or 1 under CR_ONE_TASK_PER_CORE); 0: not given.
  int threads_per_core = 0;
  int tasks_per_core = 0;
  // Memory, only where the plan counts it (CR_*_Memory; otherwise all 0 and false).
  std::int64_t mem_per_node_mb = 0;  // --mem
  std::int64_t mem_per_cpu_mb = 0;   // --mem-per-cpu (0 when asked per node)
  bool all_memory = false;           // --mem=0 or no default: each node's whole memory
  // Memory per GRES (--mem-per-gpu, else DefMemPerGPU) of a job that set no memory of its
  // own: cons_tres then allocates that per GRES instead of the node default (job_test.c,
  // gres_select_util_job_mem_max: the largest of its GRES). 0: not so.
  std::int64_t mem_per_gres_mb = 0;
  // CPUs per GRES (--cpus-per-gpu, else DefCpuPerGPU): cons_tres needs that many CPUs per
  // GPU on each node it uses (min_gres_cpu, job_test.c). 0: none.
  int cpus_per_gres = 0;
  std::vector<GresCount> gres_per_node;
  std::vector<GresCount> gres_per_task;
  std::vector<GresCount> gres_per_job;  // --gpus=N: a total over the nodes it gets
  std::vector<std::string> features;  // a plain AND or OR list (anything else: features_left)
  bool any_feature = false;           // an OR list (a|b): any one on each node
  bool features_left = false;  // a feature expression the plan does not model (a mix of
                               // AND and OR, counts, brackets): select_nodes applies it,
                               // the plan ignores it
  std::vector<std::uint32_t> required;  // node indices
  std::vector<std::uint32_t> excluded;
  bool exclusive = false;  // --exclusive (whole nodes)
  bool contiguous = false;  // --contiguous
  std::vector<std::string> partitions;  // where it is queued, highest priority first
  std::string reservation;              // --reservation (the first, of several names)
  // The reservations it may run in instead (one of them): the further names of
  // --reservation=a,b, or the MAGNETIC ones a job that named none may use.
  std::vector<std::string> other_reservations;
  std::vector<LicenceCount> licences;  // --licenses (cluster-wide)
};

struct JobRecord {
  JobId id = 0;
  UserId user = 0;
  Time submit = 0;
  std::int64_t priority = 0;  // Slurm's job priority (larger first)
  Time start = 0;  // running jobs only
  // The user's time limit in seconds: the kill time is start + limit. Never changed by
  // the plan. A pending job with --time-min is planned on that minimum, as stock backfill
  // plans it; its start sets the limit it runs with (slurm_time_limit.h).
  Time limit = 0;
  // CPUs the job holds (running: the sum of its shares) or needs (waiting: min_cpus).
  int procs = 1;
  int restarts = 0;  // runs killed and requeued so far (Slurm's restart_cnt)
  // Slurm would requeue it (slurm_requeue.h); then apply_requeue_opt_in() keeps it only
  // where the administrator opted in (easypp_requeue_partitions).
  bool requeueable = false;
  // Running jobs: completing (ended or killed; Slurm is cleaning up after it).
  bool completing = false;
  // Waiting jobs: false when stock backfill would reserve for none of its queue records
  // (QueuedJob::no_reserve: QOS flag NoReserve, bf_min_prio_reserve, bf_min_age_reserve).
  bool reservable = true;
  // Running jobs: the partition it runs in.
  std::string partition;
  std::vector<ShareRecord> shares;  // running jobs: per node
  std::vector<LicenceCount> licences;  // running jobs: the licences they hold
  RequestRecord request;            // waiting jobs
};

// A node as the plan sees it.
struct NodeRecord {
  std::string name;
  int cpus = 0;                // effective CPUs (specialized cores left out)
  std::int64_t memory_mb = 0;  // RealMemory less MemSpecLimit; 0 when memory is not planned
  std::vector<GresCount> gres;
  std::vector<std::string> features;  // active features
  bool usable = true;                 // up, not drained, responding
  int cpu_unit = 1;  // CPUs Slurm allocates together (threads per core under CR_Core)
  int threads_per_core = 1;  // Slurm's tpc: threads per core it schedules (1: cores are CPUs)
};

struct PartitionRecord {
  std::string name;
  std::vector<std::uint32_t> nodes;
  bool exclusive = false;  // OverSubscribe=EXCLUSIVE
  // MaxCPUsPerNode: CPUs of a node the partition's jobs may hold together; 0: no cap.
  int max_cpus_per_node = 0;
  int max_nodes = 0;  // MaxNodes; 0: none
};

// An advance reservation: its nodes are kept for the jobs that name it during [start, end),
// and so are its licences (Licenses=), from every job that does not name it.
struct ReservationRecord {
  std::string name;
  Time start = 0;
  Time end = 0;
  std::vector<std::uint32_t> nodes;
  std::vector<LicenceCount> licences;
  bool any_nodes = false;  // Flags=ANY_NODES: its jobs may use any node
};

// The whole cluster for one pass: every node and partition, the jobs holding resources,
// and the queued jobs in Slurm's priority order across partitions (each job once).
struct ClusterSnapshot {
  Time now = 0;
  std::vector<NodeRecord> nodes;
  std::vector<PartitionRecord> partitions;
  std::vector<ReservationRecord> reservations;
  std::vector<JobRecord> running;
  std::vector<JobRecord> waiting;
  // The total of each licence a waiting job asks for, in queue order (as stock backfill
  // plans them under bf_licenses: the total less what running jobs hold until they end).
  std::vector<LicenceCount> licences;
};

// How a job that left the system ended: the predictor's epp_end_state values.
struct FinishedJob {
  JobRecord job;
  Time end = 0;
  int end_state = 0;
};

}  // namespace easypp::plugin

#endif
