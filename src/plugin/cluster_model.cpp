#include "plugin/cluster_model.h"

#include <algorithm>
#include <stdexcept>

namespace easypp::plugin {

namespace {

std::string base_kind(const std::string& kind) { return kind.substr(0, kind.find(':')); }

// Adds `count` of `kind` to `r`: to the typed kind and to its name, where the machine
// plans them (Slurm counts a typed GRES under both).
void add_gres(Resources& r, const Machine& machine, const std::string& kind, std::int64_t count) {
  const int typed = machine.find_resource(kind);
  if (typed >= 0) r[static_cast<std::size_t>(typed)] += count;
  const std::string base = base_kind(kind);
  if (base == kind) return;
  const int name = machine.find_resource(base);
  if (name >= 0) r[static_cast<std::size_t>(name)] += count;
}

// A per-job count (--gpus=N) as an even share on each of the fewest nodes that can hold
// it (Slurm adds nodes until the total is met: cons_tres gres_sched_test): with nodes of
// at most K, on max(min_nodes, ceil(N / K)) nodes, ceil(N / nodes) each (at most one
// node's worth of a share more than Slurm takes, a careful plan). Where no node
// count within --nodes suffices, on min_nodes nodes as asked (Slurm cannot run it either).
// K is the largest count of a node the job may use: in one of its partitions, not
// excluded, with its features (a partition of 2-GPU nodes beside one of 8-GPU nodes).
void spread_per_job(JobRequest& r, const Machine& machine, const GresCount& g) {
  const int kind = machine.find_resource(g.kind);
  std::int64_t largest = 0;
  if (kind >= 0)
    for (std::size_t i = 0; i < machine.nodes().size(); ++i) {
      const Node& n = machine.nodes()[i];
      if (r.may_reach(machine, static_cast<NodeIndex>(i)) && r.features_on(n))
        largest = std::max(largest, n.capacity[static_cast<std::size_t>(kind)]);
    }
  int nodes = r.min_nodes;
  if (largest > 0) {
    const std::int64_t fewest = (g.count + largest - 1) / largest;
    if (fewest > nodes && (r.max_nodes == 0 || fewest <= r.max_nodes) && fewest <= (1 << 20))
      nodes = static_cast<int>(fewest);
  }
  r.min_nodes = nodes;
  r.tasks = std::max(r.tasks, nodes);  // a task on each node at least
  Resources each;
  add_gres(each, machine, g.kind, (g.count + nodes - 1) / nodes);
  for (std::size_t k = 0; k < kMaxResourceKinds; ++k) r.per_node[k] = std::max(r.per_node[k], each[k]);
}

NodeSet node_set(const std::vector<std::uint32_t>& nodes, std::size_t size) {
  NodeSet s;
  if (nodes.empty()) return s;
  s = NodeSet(size);
  for (std::uint32_t n : nodes)
    if (n < size) s.insert(n);
  return s;
}

// The resource kind standing for partition `partition`'s MaxCPUsPerNode (a name no GRES
// has: GRES names have no '@').
std::string cpu_cap_kind(const std::string& partition) { return "cpus@" + partition; }

// Licence counts by the machine's licence index; a licence it does not plan is skipped.
void add_licences(Resources& to, const Machine& machine, const std::vector<LicenceCount>& counts) {
  for (const LicenceCount& l : counts)
    if (const int k = machine.find_licence(l.name); k >= 0)
      to[static_cast<std::size_t>(k)] += std::max<std::int64_t>(0, l.count);
}

}  // namespace

JobRequest request_of(const RequestRecord& rec, const Machine& machine) {
  JobRequest r;
  r.min_nodes = std::max(1, rec.min_nodes);
  r.max_nodes = rec.max_nodes >= r.min_nodes ? rec.max_nodes : 0;
  const int cpt = std::max(1, rec.cpus_per_task);
  int tasks = std::max({rec.tasks, (rec.min_cpus + cpt - 1) / cpt, r.min_nodes});
  if (rec.cpus_per_node > 0)
    tasks = std::max(tasks, (r.min_nodes * rec.cpus_per_node + cpt - 1) / cpt);
  r.tasks = tasks;
  // Per node, as cons_tres tests each node: pn_min_cpus free on it, at most
  // --ntasks-per-node tasks, so at least tasks / ntasks_per_node nodes (job_test.c).
  r.min_cpus_per_node = rec.cpus_per_node > cpt ? rec.cpus_per_node : 0;
  if (rec.tasks_per_node > 0) {
    r.max_tasks_per_node = rec.tasks_per_node;
    r.min_nodes = std::max(r.min_nodes, (tasks + rec.tasks_per_node - 1) / rec.tasks_per_node);
    if (r.max_nodes > 0 && r.max_nodes < r.min_nodes) r.max_nodes = r.min_nodes;
  }
  r.per_task[kCpu] = cpt;
  r.threads_per_core = std::max(0, rec.threads_per_core);
  r.tasks_per_core = std::max(0, rec.tasks_per_core);
  r.exclusive = rec.exclusive;
  r.contiguous = rec.contiguous;
  if (rec.all_memory) {
    r.exclusive = true;  // every node's whole memory: nobody else fits beside it
  } else {
    r.per_task[kMemory] = rec.mem_per_cpu_mb * cpt;
    r.memory_per_cpu = rec.mem_per_cpu_mb;
    r.per_node[kMemory] = rec.mem_per_node_mb;
  }
  for (const GresCount& g : rec.gres_per_node) add_gres(r.per_node, machine, g.kind, g.count);
  for (const GresCount& g : rec.gres_per_task) add_gres(r.per_task, machine, g.kind, g.count);
  if (!rec.features_left) {
    r.features = rec.features;
    r.any_feature = rec.any_feature;
  }
  const std::size_t n_nodes = machine.nodes().size();
  r.required = node_set(rec.required, n_nodes);
  r.excluded = node_set(rec.excluded, n_nodes);
  for (const std::string& p : rec.partitions) {
    const int index = machine.find_partition(p);
    if (index >= 0) r.partitions.push_back(static_cast<std::size_t>(index));
    // Under a partition's MaxCPUsPerNode: each CPU counts against the cap too (against
    // every cap, for a job queued in several capped partitions: the stricter reading).
    if (machine.has_cpu_like())
      if (const int k = machine.find_resource(cpu_cap_kind(p)); k >= 0)
        r.per_task[static_cast<std::size_t>(k)] = cpt;
  }
  // A whole-node job never runs where its partition's cap is below the node's CPUs
  // (cons_tres refuses it there): only on nodes one of its partitions leaves uncapped.
  bool whole = r.exclusive;
  for (std::size_t p : r.partitions) whole = whole || machine.partitions()[p].exclusive;
  if (whole && machine.has_cpu_like()) {
    std::vector<int> caps;  // each partition's cap kind, -1: none
    for (std::size_t p : r.partitions)
      caps.push_back(machine.find_resource(cpu_cap_kind(machine.partitions()[p].name)));
    const std::vector<Node>& nodes = machine.nodes();
    for (NodeIndex n = 0; n < nodes.size(); ++n) {
      bool member = false, uncapped = false;
      for (std::size_t i = 0; i < r.partitions.size(); ++i) {
        if (!machine.partitions()[r.partitions[i]].nodes.contains(n)) continue;
        member = true;
        uncapped = uncapped || caps[i] < 0 ||
                   nodes[n].capacity[static_cast<std::size_t>(caps[i])] >= nodes[n].capacity[kCpu];
      }
      if (member && !uncapped) r.excluded.insert(n);
    }
  }
  for (const GresCount& g : rec.gres_per_job) spread_per_job(r, machine, g);  // on its nodes
  if (rec.cpus_per_gres > 0) {  // CPUs per GRES: so many on each node used, at least
    std::int64_t per_node = 0;
    for (const GresCount& g : rec.gres_per_node) per_node = std::max(per_node, g.count);
    for (const GresCount& g : rec.gres_per_job)
      per_node = std::max<std::int64_t>(per_node, (g.count + r.min_nodes - 1) / r.min_nodes);
    for (const GresCount& g : rec.gres_per_task)
      r.per_task[kCpu] = std::max<std::int64_t>(r.per_task[kCpu], g.count * rec.cpus_per_gres);
    r.min_cpus_per_node = static_cast<int>(std::max<std::int64_t>(
        r.min_cpus_per_node, std::min<std::int64_t>(per_node * rec.cpus_per_gres, 1 << 20)));
  }
  if (rec.mem_per_gres_mb > 0) {  // memory per GRES instead of the job's own (none)
    for (const GresCount& g : rec.gres_per_node) r.per_node[kMemory] += g.count * rec.mem_per_gres_mb;
    for (const GresCount& g : rec.gres_per_task) r.per_task[kMemory] += g.count * rec.mem_per_gres_mb;
    for (const GresCount& g : rec.gres_per_job)
      r.per_node[kMemory] += (g.count + r.min_nodes - 1) / r.min_nodes * rec.mem_per_gres_mb;
  }
  r.reservation = rec.reservation;
  r.other_reservations = rec.other_reservations;
  add_licences(r.licences, machine, rec.licences);
  return r;
}

ClusterModel build_cluster_model(const ClusterSnapshot& snap) {
  ClusterModel out;
  Machine& m = out.machine;
  const std::size_t n_nodes = snap.nodes.size();

  // GRES kinds: every name the nodes have, then the typed kinds jobs mention (a node's
  // types only matter when some job asks for one). Past the limit: left to Slurm.
  auto intern = [&](const std::string& kind) {
    if (m.find_resource(kind) >= 0) return;
    try {
      m.resource_index(kind);
    } catch (const std::invalid_argument&) {
      const std::string note = "GRES " + kind + " not planned (more than " +
                               std::to_string(kMaxResourceKinds - 2) + " kinds)";
      if (std::find(out.notes.begin(), out.notes.end(), note) == out.notes.end())
        out.notes.push_back(note);
    }
  };
  for (const NodeRecord& n : snap.nodes)
    for (const GresCount& g : n.gres)
      if (g.kind.find(':') == std::string::npos) intern(g.kind);
  for (const JobRecord& j : snap.waiting) {
    for (const auto* list : {&j.request.gres_per_node, &j.request.gres_per_task})
      for (const GresCount& g : *list) {
        intern(base_kind(g.kind));
        intern(g.kind);
      }
  }

  for (const NodeRecord& rec : snap.nodes) {
    Node node;
    node.name = rec.name;
    node.capacity[kCpu] = rec.cpus;
    node.cpu_unit = std::max(1, rec.cpu_unit);
    node.threads_per_core = std::max(node.cpu_unit, rec.threads_per_core);
    node.capacity[kMemory] = rec.memory_mb;
    for (const GresCount& g : rec.gres) {
      const int k = m.find_resource(g.kind);  // a node lists each kind once
      if (k >= 0) node.capacity[static_cast<std::size_t>(k)] = g.count;
    }
    node.features = rec.features;
    if (!rec.usable) node.windows.push_back(NodeWindow{0, kNever, {}});
    m.add_node(std::move(node));
  }
  for (const ReservationRecord& r : snap.reservations) {
    for (std::uint32_t n : r.nodes)
      if (n < n_nodes) m.nodes()[n].windows.push_back(NodeWindow{r.start, r.end, r.name});
  }
  for (const PartitionRecord& p : snap.partitions) {
    Partition part;
    part.name = p.name;
    part.nodes = node_set(p.nodes, n_nodes);
    part.exclusive = p.exclusive;
    part.max_nodes = p.max_nodes;
    m.add_partition(std::move(part));
  }
  // A partition's MaxCPUsPerNode: a resource of its own on each node (cpu_cap_kind), which
  // the partition's running jobs hold and its waiting jobs need beside their CPUs, as
  // cons_tres counts the partition's jobs on a node. On nodes outside the partition it is
  // every CPU (no cap). A cap no node of the partition reaches, or of a partition no job
  // waits in, needs none; past the limit of kinds it is left to select_nodes.
  for (const PartitionRecord& p : snap.partitions) {
    if (p.max_cpus_per_node <= 0) continue;
    const bool queued = std::any_of(snap.waiting.begin(), snap.waiting.end(), [&](const JobRecord& j) {
      const auto& in = j.request.partitions;
      return std::find(in.begin(), in.end(), p.name) != in.end();
    });
    if (!queued ||
        std::none_of(p.nodes.begin(), p.nodes.end(), [&](std::uint32_t n) {
          return n < n_nodes && snap.nodes[n].cpus > p.max_cpus_per_node;
        }))
      continue;
    std::size_t k = 0;
    try {
      k = m.resource_index(cpu_cap_kind(p.name));
      m.mark_cpu_like(k);
    } catch (const std::invalid_argument&) {
      out.notes.push_back("MaxCPUsPerNode of partition " + p.name + " not planned (more than " +
                          std::to_string(kMaxResourceKinds - 2) + " GRES kinds and caps)");
      continue;
    }
    if (const int index = m.find_partition(p.name); index >= 0)
      m.partitions()[static_cast<std::size_t>(index)].cpu_cap_kind = static_cast<int>(k);
    for (Node& node : m.nodes()) node.capacity[k] = node.capacity[kCpu];
    for (std::uint32_t n : p.nodes)
      if (n < n_nodes)
        m.nodes()[n].capacity[k] = std::min<std::int64_t>(m.nodes()[n].capacity[kCpu], p.max_cpus_per_node);
  }

  // Licences waiting jobs ask for, cluster-wide, held by running jobs until their planned
  // ends. Past the limit of kinds: left to select_nodes.
  for (const LicenceCount& l : snap.licences) {
    if (m.find_licence(l.name) >= 0) continue;
    if (m.licences().size() == kMaxResourceKinds) {
      out.notes.push_back("licence " + l.name + " not planned (more than " +
                          std::to_string(kMaxResourceKinds) + " kinds)");
      continue;
    }
    m.add_licence(Licence{l.name, std::max<std::int64_t>(0, l.count)});
  }
  // Advance reservations holding licences the plan counts, or whose jobs may use any node.
  for (const ReservationRecord& r : snap.reservations) {
    ReservationSpan span{r.name, r.start, r.end, r.any_nodes, {}};
    add_licences(span.licences, m, r.licences);
    if (span.any_nodes || !(span.licences == Resources{})) m.add_reservation_span(std::move(span));
  }

  for (const JobRecord& j : snap.running) {
    auto a = std::make_shared<Allocation>();
    add_licences(a->licences, m, j.licences);
    // Its partition's MaxCPUsPerNode, if planned: its CPUs count against it.
    const int cap = m.has_cpu_like() ? m.find_resource(cpu_cap_kind(j.partition)) : -1;
    for (const ShareRecord& s : j.shares) {
      if (s.node >= n_nodes) continue;
      NodeShare share;
      share.node = s.node;
      share.tasks = std::max(1, s.cpus);
      share.amount[kCpu] = s.cpus;
      share.amount[kMemory] = snap.nodes[s.node].memory_mb > 0 ? s.memory_mb : 0;
      for (const GresCount& g : s.gres) add_gres(share.amount, m, g.kind, g.count);
      if (cap >= 0) share.amount[static_cast<std::size_t>(cap)] = s.cpus;
      a->shares.push_back(share);
    }
    if (a->shares.empty()) continue;
    JobFacts f;
    f.id = j.id;
    f.user = j.user;
    f.submit = j.submit;
    f.priority = j.priority;
    f.procs = std::max(1, j.procs);
    f.limit = std::max<Time>(1, j.limit);
    f.start = j.start;
    f.restarts = j.restarts;
    f.requeueable = j.requeueable;
    f.releasing = j.completing;
    f.allocation = std::move(a);
    out.running.push_back(std::move(f));
  }

  for (std::size_t i = 0; i < snap.waiting.size(); ++i) {
    const JobRecord& j = snap.waiting[i];
    auto request = std::make_shared<JobRequest>(request_of(j.request, m));
    // Queued only in partitions the model does not know: nowhere to plan it.
    if (!j.request.partitions.empty() && request->partitions.empty()) continue;
    JobFacts f;
    f.id = j.id;
    f.user = j.user;
    f.submit = j.submit;
    f.priority = j.priority;
    f.procs = static_cast<int>(std::clamp<std::int64_t>(request->min_cpus(), 1, 1 << 30));
    f.limit = std::max<Time>(1, j.limit);
    f.restarts = j.restarts;
    f.requeueable = j.requeueable;
    f.reservable = j.reservable;
    f.request = std::move(request);
    out.waiting.push_back(std::move(f));
    out.waiting_source.push_back(i);
  }
  return out;
}

void apply_requeue_opt_in(ClusterSnapshot& snapshot, const std::set<std::string>& partitions) {
  for (JobRecord& r : snapshot.running)
    r.requeueable = r.requeueable && partitions.count(r.partition) > 0;
  for (JobRecord& r : snapshot.waiting) {
    bool all = !r.request.partitions.empty();
    for (const std::string& p : r.request.partitions) all = all && partitions.count(p) > 0;
    r.requeueable = r.requeueable && all;
  }
}

}  // namespace easypp::plugin
