// The machine a policy plans: nodes with CPUs, memory and generic resources, windows when
// a node is not usable (down, drained, an advance reservation), partitions as node sets
// that may overlap, and cluster-wide counted resources (licences).
//
// A ClusterState without a Machine is the papers' machine: one pool of `procs`
// processors. Machine::single_node(N) is the same machine as nodes, and plans the same.
#ifndef EASYPP_CORE_MACHINE_H
#define EASYPP_CORE_MACHINE_H

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "core/job.h"
#include "core/resources.h"

namespace easypp {

using NodeIndex = std::uint32_t;

// A set of node indices (a partition, a job's required or excluded nodes).
class NodeSet {
 public:
  NodeSet() = default;
  explicit NodeSet(std::size_t size) : words_((size + 63) / 64, 0), size_(size) {}
  static NodeSet all(std::size_t size);

  std::size_t size() const { return size_; }  // the universe, not the members
  bool empty() const;
  bool contains(NodeIndex n) const {
    return n < size_ && (words_[n / 64] >> (n % 64) & 1u) != 0;
  }
  void insert(NodeIndex n);
  std::size_t count() const;
  bool intersects(const NodeSet& o) const;

 private:
  std::vector<std::uint64_t> words_;
  std::size_t size_ = 0;
};

// A time a node may not be used, except by the jobs it is for.
struct NodeWindow {
  Time from = 0;
  Time to = std::numeric_limits<Time>::max();  // kNever: until further notice
  // Empty: nobody (down, drained). Otherwise an advance reservation's name: jobs that
  // name it (JobRequest::reservation) may use the node inside the window, no one else.
  std::string reservation;
};

struct Node {
  std::string name;
  Resources capacity;  // what jobs may use (CPUs, memory less what the OS keeps, GRES)
  // CPUs allocated together: a job's CPUs on the node are rounded up to a multiple (the
  // threads of a core, where Slurm allocates whole cores: CR_Core on hyperthreads).
  int cpu_unit = 1;
  // Hardware threads of each core as Slurm schedules them (its node tpc; 1 where a core
  // is one CPU). A job using fewer threads of a core (JobRequest::threads_per_core) still
  // takes whole cores. Under whole cores it equals cpu_unit.
  int threads_per_core = 1;
  std::vector<std::string> features;
  std::vector<NodeWindow> windows;
};

struct Partition {
  std::string name;
  NodeSet nodes;
  bool exclusive = false;  // OverSubscribe=EXCLUSIVE: every job takes whole nodes
  int max_nodes = 0;       // MaxNodes: a job runs on at most this many of them; 0: no cap
  // The resource kind standing for its cap on CPUs per node (MaxCPUsPerNode), which its
  // jobs hold beside their CPUs; -1: none planned.
  int cpu_cap_kind = -1;
};

struct Licence {
  std::string name;
  std::int64_t count = 0;
};

// What an advance reservation is beyond the windows on its nodes: its time, whether its
// jobs may run on any node (Slurm's ANY_NODES, which a reservation of licences only must
// have), and the licences it holds. Slurm's licence test (license_job_test) keeps all of
// them from every job outside it whose time up to its limit overlaps the reservation,
// whatever the reservation's own jobs use; a job inside it counts only the others.
struct ReservationSpan {
  std::string name;
  Time from = 0;
  Time to = std::numeric_limits<Time>::max();
  bool any_nodes = false;
  Resources licences;  // indexed by Machine::licences()
};

class Machine {
 public:
  // One node of `cpus` CPUs and nothing else: the papers' machine as nodes.
  static Machine single_node(int cpus);

  // The index of a resource kind ("cpu", "mem", "gpu", "gpu:a100", ...), added if new.
  // Throws std::invalid_argument past kMaxResourceKinds kinds.
  std::size_t resource_index(std::string_view kind);
  // -1 when the machine has no such kind.
  int find_resource(std::string_view kind) const;
  const std::vector<std::string>& resource_kinds() const { return kinds_; }
  // A kind counted in CPUs (a partition's cap on them, as Slurm's MaxCPUsPerNode): a
  // share's amount of it is its CPUs rounded up to the node's cpu_unit, like the CPUs.
  void mark_cpu_like(std::size_t kind) { cpu_like_ |= std::uint32_t{1} << kind; }
  bool cpu_like(std::size_t kind) const { return kind == 0 || (cpu_like_ >> kind & 1u) != 0; }
  bool has_cpu_like() const { return cpu_like_ != 0; }

  NodeIndex add_node(Node node);
  std::size_t add_partition(Partition partition);
  std::size_t add_licence(Licence licence);
  // Only reservations that hold licences or may use any node need a span.
  void add_reservation_span(ReservationSpan span) { spans_.push_back(std::move(span)); }

  const std::vector<Node>& nodes() const { return nodes_; }
  std::vector<Node>& nodes() { return nodes_; }
  const std::vector<Partition>& partitions() const { return partitions_; }
  std::vector<Partition>& partitions() { return partitions_; }
  const std::vector<Licence>& licences() const { return licences_; }
  const std::vector<ReservationSpan>& reservation_spans() const { return spans_; }
  int find_partition(std::string_view name) const;
  int find_node(std::string_view name) const;
  int find_licence(std::string_view name) const;

  // Sum of every node's CPUs (a ClusterState's `procs` for metrics).
  std::int64_t total_cpus() const;

 private:
  std::vector<std::string> kinds_{"cpu", "mem"};
  std::uint32_t cpu_like_ = 0;  // a bit per kind besides kCpu (mark_cpu_like)
  std::vector<Node> nodes_;
  std::vector<Partition> partitions_;
  std::vector<Licence> licences_;
  std::vector<ReservationSpan> spans_;
};

}  // namespace easypp

#endif
