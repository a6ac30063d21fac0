// The cluster snapshot (snapshot.h, Slurm's records in plain numbers) as the core's
// machine model: nodes with CPUs, memory and GRES, windows for unusable nodes and advance
// reservations, partitions as node sets; running jobs with their per-node allocations;
// waiting jobs with their requests. Slurm-free, so every rule here is unit-tested.
//
// Translation rules (what Slurm's terms become):
// - tasks = max(num_tasks, ceil(min_cpus / cpus_per_task), min_nodes,
//   ceil(min_nodes x pn_min_cpus / cpus_per_task)), each task cpus_per_task CPUs;
// - --mem-per-cpu: per task, x cpus_per_task; --mem: per node; --mem=0 (a node's whole
//   memory): planned as whole nodes;
// - GRES per node / per task as asked; a typed request ("gpu:a100") takes from both the
//   type and the name ("gpu"), as Slurm counts them; at most kMaxResourceKinds - 2 GRES
//   kinds are planned (the rest is left to select_nodes and listed in `notes`);
// - features: a plain AND list (every one on each node) or OR list (one of them on each
//   node); any other expression is not planned (select_nodes applies it);
// - a down, drained or non-responding node has a window for good; an advance reservation
//   has a window on each of its nodes for the jobs that name it, and a span if its jobs
//   may use any node (ANY_NODES) or it holds licences;
// - licences: the cluster's total of each a waiting job asks for (at most
//   kMaxResourceKinds; the rest is left to select_nodes and listed in `notes`), held by
//   running jobs until their planned ends, as stock backfill plans them under bf_licenses,
//   and by advance reservations from the jobs outside them, as Slurm's licence test does.
#ifndef EASYPP_PLUGIN_CLUSTER_MODEL_H
#define EASYPP_PLUGIN_CLUSTER_MODEL_H

#include <set>
#include <string>
#include <vector>

#include "core/job_ledger.h"
#include "core/job_request.h"
#include "core/machine.h"
#include "core/profile.h"
#include "plugin/snapshot.h"

namespace easypp::plugin {

struct ClusterModel {
  Machine machine;
  std::vector<JobFacts> running;  // jobs holding resources on known nodes
  // The snapshot's waiting jobs that can be planned (same order); a job queued only in
  // partitions the snapshot does not list is left out.
  std::vector<JobFacts> waiting;
  // Index of each waiting job in ClusterSnapshot::waiting.
  std::vector<std::size_t> waiting_source;
  // What the model leaves to Slurm, one line each (GRES kinds beyond the limit).
  std::vector<std::string> notes;
};

// A job may be killed and requeued by a policy only in a partition the administrator
// opted in (easypp_requeue_partitions): a running job's requeueable flag stays only if it
// runs in one of `partitions`, a waiting job's only if every partition it is queued in is
// one (timed-run gives a trial run only to a job it may kill wherever it starts).
void apply_requeue_opt_in(ClusterSnapshot& snapshot, const std::set<std::string>& partitions);

// Never throws for odd data (unknown node indices are skipped); std::bad_alloc only.
ClusterModel build_cluster_model(const ClusterSnapshot& snapshot);

// The request of one waiting job on `machine` (partitions, GRES kinds and nodes as
// `machine` indexes them); exposed for tests.
JobRequest request_of(const RequestRecord& record, const Machine& machine);

}  // namespace easypp::plugin

#endif
