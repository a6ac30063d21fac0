// Golden cases of EASY on nodes: hand-made machines whose correct decision is worked out
// in the comments, checking the head's start and nodes exactly and what may backfill.
// Then a property: on Machine::single_node(N) with CPU-only requests every EASY-family
// policy decides exactly as on one pool of N processors, and so do mq (pivots reserved on
// nodes, partitions as capacity shares) and the preemptive ones (pv-easy, timed-run),
// kills included.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <tuple>

#include "core/easy_family.h"
#include "core/job_request.h"
#include "core/machine.h"
#include "core/node_plan.h"
#include "core/policy.h"
#include "snapshot.h"

namespace easypp {
namespace {

Node node(const std::string& name, std::int64_t cpus, std::int64_t mem = 0) {
  Node n;
  n.name = name;
  n.capacity[kCpu] = cpus;
  n.capacity[kMemory] = mem;
  return n;
}

// A running job holding `amount` on each listed node, planned to end at `end`.
RunningJob holding(JobId id, Time end, std::vector<std::pair<NodeIndex, Resources>> shares,
                   Time now = 0) {
  RunningJob r = test::running(id, 1, now, end - now);
  auto a = std::make_shared<Allocation>();
  for (auto& [n, amount] : shares) a->shares.push_back({n, 1, amount});
  r.allocation = std::move(a);
  return r;
}

Resources res(std::int64_t cpus, std::int64_t mem = 0, std::size_t kind = 0,
              std::int64_t other = 0) {
  Resources r;
  r[kCpu] = cpus;
  r[kMemory] = mem;
  if (kind > kMemory) r[kind] = other;
  return r;
}

Job asking(JobId id, JobRequest request, Time prediction, Time estimate = 0) {
  Job j = test::waiting(id, static_cast<int>(request.min_cpus()), prediction, estimate);
  j.request = std::make_shared<const JobRequest>(std::move(request));
  return j;
}

std::vector<NodeIndex> nodes_of(const Allocation& a) {
  std::vector<NodeIndex> out;
  for (const NodeShare& s : a.shares) out.push_back(s.node);
  return out;
}

const Allocation& started_on(const Decision& d, JobId id) {
  auto it = std::find(d.start.begin(), d.start.end(), id);
  EXPECT_NE(it, d.start.end()) << "job " << id << " did not start";
  return *d.start_allocations.at(static_cast<std::size_t>(it - d.start.begin()));
}

Decision plan(const char* policy, const ClusterState& state) {
  return make_policy(policy)->plan(state);
}

// One node n0 of `cpus` CPUs and `mem` MB, in units of `cpu_unit` CPUs (whole cores) of
// `threads_per_core` threads, and a state of it where nothing runs or waits yet. Not
// copyable: the state points at the machine.
struct OneNode {
  Machine m;
  ClusterState s;
  OneNode(std::int64_t cpus, std::int64_t mem, int cpu_unit, int threads_per_core) {
    Node n = node("n0", cpus, mem);
    n.cpu_unit = cpu_unit;
    n.threads_per_core = threads_per_core;
    m.add_node(n);
    s.machine = &m;
    s.procs = static_cast<int>(cpus);
  }
  OneNode(const OneNode&) = delete;
  OneNode& operator=(const OneNode&) = delete;
  // The node plan of the state as it is.
  NodePlan node_plan() const {
    NodePlan plan;
    plan.reset(s, RunningEnd::predicted);
    return plan;
  }
};

// Issue 13's node: one node, 64 CPUs, 1000 MB; A (8 CPUs, 900 MB) runs until 600. The
// requests: wide (32 CPUs, 950 MB) and small (16 CPUs, 90 MB). Not copyable: the state
// points at the machine.
struct MemoryNode {
  Machine m;
  ClusterState s;
  JobRequest wide;
  JobRequest small;
  MemoryNode() {
    m.add_node(node("n0", 64, 1000));
    s.machine = &m;
    s.procs = 64;
    s.running.push_back(holding(1, 600, {{0, res(8, 900)}}));
    wide.tasks = 32;
    wide.per_task = res(1, 0);
    wide.per_node = res(0, 950);
    small.tasks = 16;
    small.per_task = res(1, 0);
    small.per_node = res(0, 90);
  }
  MemoryNode(const MemoryNode&) = delete;
  MemoryNode& operator=(const MemoryNode&) = delete;
};

// Issue 13's case, on that node. H (wide) waits first: only 100 MB are free, so H is the
// head, reserved at 600 on node0. L (small, 3600 s) fits the idle node now (56 CPUs, 100
// MB), but at 600 the node has 64 CPUs and 1000 MB free, H takes 32 and 950, leaving 32
// CPUs and 50 MB: L's 90 MB do not fit, so L would delay H and must wait. (On CPUs alone,
// 32 >= 16 would have let it start: the promise broken by memory.) S (small, 300 s) ends
// at 300 < 600 and starts.
TEST(NodeEasy, MemoryBoundHeadKeepsItsReservation) {
  MemoryNode n;
  ClusterState& s = n.s;
  s.waiting.push_back(asking(2, n.wide, 600));
  s.waiting.push_back(asking(3, n.small, 3600));
  s.waiting.push_back(asking(4, n.small, 300));
  for (const char* policy : {"easy", "easy++"}) {
    const Decision d = plan(policy, s);
    ASSERT_EQ(d.reservations.size(), 1u) << policy;
    EXPECT_EQ(d.reservations[0].job, 2u);
    EXPECT_EQ(d.reservations[0].start, 600);
    EXPECT_EQ(nodes_of(*d.reservations[0].allocation), std::vector<NodeIndex>{0});
    EXPECT_FALSE(test::starts(d, 3)) << policy << ": L would take the head's memory";
    EXPECT_TRUE(test::backfills(d, 4)) << policy << ": S ends before the head starts";
  }
}

// Slurm's QOS flag NoReserve (Job::reservable false), on the same node. H (wide) does not
// fit now, but may not be reserved: L (small, 3600 s), which would have delayed H at 600,
// fits now and starts. With G, as wide as H but reservable, queued between them: G is the
// head, reserved at 600 (A's end frees the node's memory), and L, whose 90 MB do not fit
// beside G's 950 MB there, waits again: the next reservable job becomes the head.
// Conservative and depth 2 alike.
TEST(NodeEasy, NoReserveJobIsNeverTheHead) {
  MemoryNode n;
  ClusterState& s = n.s;
  Job h = asking(2, n.wide, 600);
  h.reservable = false;
  s.waiting.push_back(h);
  s.waiting.push_back(asking(3, n.small, 3600));
  for (const char* policy : {"easy", "easy++", "conservative", "easy++:depth=2"}) {
    const Decision d = plan(policy, s);
    EXPECT_TRUE(d.reservations.empty()) << policy;
    EXPECT_TRUE(test::starts(d, 3)) << policy << ": no reservation for H to delay";
  }
  s.waiting.insert(s.waiting.begin() + 1, asking(4, n.wide, 600));
  for (const char* policy : {"easy", "easy++", "conservative", "easy++:depth=2"}) {
    const Decision d = plan(policy, s);
    ASSERT_FALSE(d.reservations.empty()) << policy;  // conservative and depth 2 also reserve L
    EXPECT_EQ(d.reservations[0].job, 4u) << policy << ": the next job is the head";
    for (const Reservation& r : d.reservations) EXPECT_NE(r.job, 2u) << policy;
    EXPECT_EQ(d.reservations[0].start, 600);
    EXPECT_FALSE(test::starts(d, 3)) << policy << ": L would delay G";
  }
}

// Hyperthreads under CR_Core: one node of 3 cores x 2 threads (6 CPUs, unit 2). R holds
// 4 CPUs (2 cores) until 120. H asks 5 tasks: 3 cores, so it waits for R (reserved at
// 120). B asks 1 task (3600 s): Slurm gives it a whole core, 2 CPUs, so at 120 only 4
// CPUs are free and H could not start: B must wait. (Counted as 1 CPU, B left 5 free at
// 120 and was backfilled: the review's live case, where the head waited for B's end.) C
// asks 2 tasks for 60 s: one core, ends before 120, backfilled.
TEST(NodeEasy, WholeCoresOnHyperthreadsKeepTheHeadsReservation) {
  OneNode n0(6, 0, 2, 1);
  ClusterState& s = n0.s;
  s.running.push_back(holding(1, 120, {{0, res(4)}}));
  s.waiting.push_back(asking(2, JobRequest::cpus(5), 600));
  s.waiting.push_back(asking(3, JobRequest::cpus(1), 3600));
  s.waiting.push_back(asking(4, JobRequest::cpus(2), 60));
  for (const char* policy : {"easy", "easy++"}) {
    const Decision d = plan(policy, s);
    ASSERT_EQ(d.reservations.size(), 1u) << policy;
    EXPECT_EQ(d.reservations[0].job, 2u);
    EXPECT_EQ(d.reservations[0].start, 120);
    EXPECT_FALSE(test::starts(d, 3)) << policy << ": B's core would delay the head";
    EXPECT_TRUE(test::backfills(d, 4)) << policy;
    EXPECT_EQ(started_on(d, 4).shares.at(0).amount[kCpu], 2) << policy;
  }
  // One task alone still takes its whole core.
  NodePlan plan;
  ClusterState idle = s;
  idle.running.clear();
  plan.reset(idle, RunningEnd::predicted);
  std::optional<Allocation> one = plan.place_now(JobRequest::cpus(1), 60, 60);
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(one->shares.at(0).amount[kCpu], 2);
}

// --mem-per-cpu on hyperthreads: Slurm charges it on every CPU allocated, and a task gets
// a whole core. One node of 3 cores x 2 threads (6 CPUs, unit 2), 600 MB; R holds a core
// and 400 MB until 120. B (1 task, 150 MB per CPU) gets 2 CPUs, so 300 MB: 200 are free,
// so B waits, reserved at 120 (counted per task CPU, 150 MB, it started and Slurm would
// have refused it or, elsewhere, the plan would have given its memory twice). C (2 tasks,
// 50 MB per CPU) is one core and 100 MB: it starts now.
TEST(NodeEasy, MemoryPerCpuIsChargedOnWholeCores) {
  OneNode n0(6, 600, 2, 1);
  ClusterState& s = n0.s;
  s.running.push_back(holding(1, 120, {{0, res(2, 400)}}));
  JobRequest b = JobRequest::cpus(1);
  b.per_task[kMemory] = 150;
  b.memory_per_cpu = 150;
  JobRequest c = JobRequest::cpus(2);
  c.per_task[kMemory] = 50;
  c.memory_per_cpu = 50;
  s.waiting.push_back(asking(2, b, 3600, 3600));
  s.waiting.push_back(asking(3, c, 60, 60));
  for (const char* policy : {"easy", "easy++"}) {
    const Decision d = plan(policy, s);
    EXPECT_FALSE(test::starts(d, 2)) << policy << ": 300 MB on its whole core, 200 free";
    ASSERT_EQ(d.reservations.size(), 1u) << policy;
    EXPECT_EQ(d.reservations[0].job, 2u);
    EXPECT_EQ(d.reservations[0].start, 120);
    EXPECT_EQ(d.reservations[0].allocation->shares.at(0).amount[kMemory], 300) << policy;
    EXPECT_EQ(started_on(d, 3).shares.at(0).amount[kMemory], 100) << policy;
  }
}

// One thread per core (--threads-per-core=1, --hint=nomultithread; --ntasks-per-core=1)
// on a node of 3 cores x 2 threads: each task takes a core of its own (cons_tres'
// common_cpus_per_core gives 1 usable CPU per core), so -n2 holds 2 cores, under whole
// cores (CR_Core) all 4 of their CPUs; -n4 never fits, although 4 CPUs are fewer than 6.
// --mem-per-cpu is charged on the threads asked with --threads-per-core (2 x 100 MB), on
// every CPU of the cores with --ntasks-per-core alone (4 x 100 MB), as
// job_resources_get_node_cpu_cnt counts them; with both options and one CPU per task it is
// planned on every CPU too, as cons_tres tests its fit there (can_job_run_on_node: cores x
// threads per core), though it is charged 2 x 100 MB once started (seen live:
// t_live_hyperthread_head). With --ntasks-per-core=1 a task of 3 CPUs
// takes 2 cores of its own (dist_tasks.c), so -n2 -c3 needs 4 cores, where without it 6
// CPUs are 3 cores. Without whole cores (CR_CPU) the node offers such a job 1 CPU per
// core and Slurm counts only the CPUs used: -n2 holds 2, -n4 never fits.
TEST(NodeEasy, OneThreadPerCoreTakesACorePerTask) {
  for (const bool whole_cores : {true, false}) {
    const OneNode n0(6, 600, whole_cores ? 2 : 1, 2);
    const NodePlan plan = n0.node_plan();
    JobRequest one_thread = JobRequest::cpus(2);
    one_thread.threads_per_core = 1;
    one_thread.per_task[kMemory] = 100;
    one_thread.memory_per_cpu = 100;
    JobRequest one_task = one_thread;
    one_task.threads_per_core = 0;
    one_task.tasks_per_core = 1;
    JobRequest both = one_thread;
    both.tasks_per_core = 1;
    for (const JobRequest& r : {one_thread, one_task, both}) {
      const bool tasks = r.tasks_per_core == 1;
      const std::optional<Allocation> a = plan.place_now(r, 60, 60);
      ASSERT_TRUE(a.has_value()) << whole_cores << tasks;
      EXPECT_EQ(a->shares.at(0).amount[kCpu], whole_cores ? 4 : 2) << whole_cores << tasks;
      EXPECT_EQ(a->shares.at(0).amount[kMemory], whole_cores && tasks ? 400 : 200)
          << whole_cores << tasks;
      JobRequest four = r;
      four.tasks = 4;
      EXPECT_FALSE(plan.ever_fits(four)) << whole_cores << tasks << ": 3 cores";
    }
    EXPECT_TRUE(plan.ever_fits(JobRequest::cpus(4)));
    JobRequest wide = JobRequest::cpus(2);
    wide.per_task[kCpu] = 3;
    EXPECT_TRUE(plan.ever_fits(wide)) << whole_cores;
    wide.tasks_per_core = 1;
    EXPECT_FALSE(plan.ever_fits(wide)) << whole_cores << ": 2 cores per task";
  }
}

// Edges of one thread per core, as cons_tres decides them (a review's findings). A node of
// 8 cores x 2 threads (CR_Core) whose partition caps its jobs at 4 CPUs (MaxCPUsPerNode=4,
// a CPU-like kind): -n4 --hint=nomultithread takes 4 cores, holds their 8 CPUs, but is
// admitted by the 4 threads it uses (cons_tres counts the job's own CPUs as cores x threads
// used against the cap), so it fits. --threads-per-core=2 on a node scheduled as 1 thread
// per core (slurm.conf CPUs = cores: tpc 1) never fits there (_allocate_sc skips the node).
// -n1 -c3 --ntasks-per-core=1 --mincpus=8 needs 4 cores (8 usable CPUs at 2 per core), not
// the 2 its one task of 3 CPUs would take.
TEST(NodeEasy, OneThreadPerCoreEdges) {
  Machine m;
  const std::size_t cap = m.resource_index("cap:p");
  m.mark_cpu_like(cap);
  Node n = node("n0", 16);
  n.cpu_unit = 2;
  n.threads_per_core = 2;
  n.capacity[cap] = 4;
  m.add_node(n);
  Node flat = node("n1", 8);  // CPUs = cores: scheduled as one thread per core
  m.add_node(flat);
  ClusterState s;
  s.machine = &m;
  s.procs = 24;
  NodePlan plan;
  plan.reset(s, RunningEnd::predicted);
  JobRequest capped = JobRequest::cpus(4);
  capped.threads_per_core = 1;
  capped.per_task[cap] = 1;
  capped.max_nodes = 1;
  capped.required = NodeSet(2);
  capped.required.insert(0);
  const std::optional<Allocation> a = plan.place_now(capped, 60, 60);
  ASSERT_TRUE(a.has_value()) << "4 threads used against a cap of 4";
  EXPECT_EQ(a->shares.at(0).amount[kCpu], 8);
  EXPECT_EQ(a->shares.at(0).amount[cap], 4);

  JobRequest two_threads = JobRequest::cpus(2);
  two_threads.threads_per_core = 2;
  two_threads.excluded = NodeSet(2);
  two_threads.excluded.insert(0);
  EXPECT_FALSE(plan.ever_fits(two_threads)) << "n1 has 1 thread per core";

  JobRequest wide = JobRequest::cpus(1);
  wide.per_task[kCpu] = 3;
  wide.tasks_per_core = 1;
  wide.min_cpus_per_node = 8;
  wide.excluded = NodeSet(2);
  wide.excluded.insert(1);
  const std::optional<Allocation> w = plan.place_now(wide, 60, 60);
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->shares.at(0).amount[kCpu], 8) << "4 cores of 2 threads";
}

// The head with --threads-per-core=1 on 3 cores x 2 threads (CR_Core): R holds 2 cores
// until 120, 1 core is idle. H (-n2, one thread per core) needs 2 cores: it waits for R,
// reserved at 120 on 4 CPUs. (Counted as 2 CPUs, one core, it was started now, which
// select_nodes refuses.) B (-n1, 3600 s, one core) fits beside H's 2 cores at 120 on the
// third: backfilled.
TEST(NodeEasy, OneThreadPerCoreHeadWaitsForTheCoresItNeeds) {
  OneNode n0(6, 0, 2, 2);
  ClusterState& s = n0.s;
  s.running.push_back(holding(1, 120, {{0, res(4)}}));
  JobRequest h = JobRequest::cpus(2);
  h.threads_per_core = 1;
  s.waiting.push_back(asking(2, h, 600, 600));
  s.waiting.push_back(asking(3, JobRequest::cpus(1), 3600, 3600));
  for (const char* policy : {"easy", "easy++"}) {
    const Decision d = plan(policy, s);
    EXPECT_FALSE(test::starts(d, 2)) << policy << ": 1 core idle, H needs 2";
    ASSERT_EQ(d.reservations.size(), 1u) << policy;
    EXPECT_EQ(d.reservations[0].job, 2u);
    EXPECT_EQ(d.reservations[0].start, 120) << policy;
    EXPECT_EQ(d.reservations[0].allocation->shares.at(0).amount[kCpu], 4) << policy;
    EXPECT_TRUE(test::backfills(d, 3)) << policy;
  }
}

// A backfill with one thread per core against the head (CR_Core, 4 cores x 2 threads):
// R holds 2 cores until 120; H (5 tasks = 3 cores) is reserved at 120. B (-n2
// --threads-per-core=1, 3600 s) takes 2 cores: it fits now, but at 120 would leave H 2
// cores, so it waits. (Counted as 2 CPUs, one core, B left H 3 cores and was backfilled:
// H then waited for B's end, while stock backfill keeps it.) C, the same with
// --ntasks-per-core=1, waits too. D (-n1 --threads-per-core=1, 60 s) ends before 120:
// backfilled on one core.
TEST(NodeEasy, OneThreadPerCoreBackfillKeepsTheHeadsReservation) {
  OneNode n0(8, 0, 2, 2);
  ClusterState& s = n0.s;
  s.running.push_back(holding(1, 120, {{0, res(4)}}));
  s.waiting.push_back(asking(2, JobRequest::cpus(5), 600, 600));
  JobRequest b = JobRequest::cpus(2);
  b.threads_per_core = 1;
  JobRequest c = JobRequest::cpus(2);
  c.tasks_per_core = 1;
  JobRequest d1 = JobRequest::cpus(1);
  d1.threads_per_core = 1;
  s.waiting.push_back(asking(3, b, 3600, 3600));
  s.waiting.push_back(asking(4, c, 3600, 3600));
  s.waiting.push_back(asking(5, d1, 60, 60));
  for (const char* policy : {"easy", "easy++"}) {
    const Decision d = plan(policy, s);
    ASSERT_EQ(d.reservations.size(), 1u) << policy;
    EXPECT_EQ(d.reservations[0].job, 2u);
    EXPECT_EQ(d.reservations[0].start, 120) << policy;
    EXPECT_FALSE(test::starts(d, 3)) << policy << ": B's 2 cores would delay the head";
    EXPECT_FALSE(test::starts(d, 4)) << policy << ": C's 2 cores would delay the head";
    EXPECT_TRUE(test::backfills(d, 5)) << policy;
    EXPECT_EQ(started_on(d, 5).shares.at(0).amount[kCpu], 2) << policy;
  }
}

// --contiguous: nodes of consecutive indices. Four nodes of 4 CPUs; n1 holds B (1 CPU)
// until 3600, n3 holds A (1 CPU) until 180. H (2 whole nodes, contiguous) cannot have n0
// and n2 (not adjacent): its pairs are n0-n1 and n1-n2 at 3600, n2-n3 at 180, so it is
// reserved at 180 on n2 and n3. L (1 CPU, 3600 s) is backfilled on n0, not on n2. (First
// fit gave H n0 and n2 now: Slurm refused that start every pass and L took n2 or n3.)
TEST(NodeEasy, ContiguousHeadIsReservedOnAdjacentNodes) {
  Machine m;
  for (const char* name : {"n0", "n1", "n2", "n3"}) m.add_node(node(name, 4));
  ClusterState s;
  s.machine = &m;
  s.procs = 16;
  s.running.push_back(holding(1, 3600, {{1, res(1)}}));
  s.running.push_back(holding(2, 180, {{3, res(1)}}));
  JobRequest pair = JobRequest::cpus(2);
  pair.min_nodes = 2;
  pair.max_nodes = 2;
  pair.exclusive = true;
  pair.contiguous = true;
  s.waiting.push_back(asking(10, pair, 300, 300));
  s.waiting.push_back(asking(11, JobRequest::cpus(1), 3600, 3600));
  for (const char* policy : {"easy", "easy++"}) {
    const Decision d = plan(policy, s);
    EXPECT_FALSE(test::starts(d, 10)) << policy;
    ASSERT_EQ(d.reservations.size(), 1u) << policy;
    EXPECT_EQ(d.reservations[0].start, 180) << policy;
    EXPECT_EQ(nodes_of(*d.reservations[0].allocation), (std::vector<NodeIndex>{2, 3})) << policy;
    EXPECT_EQ(nodes_of(started_on(d, 11)), std::vector<NodeIndex>{0}) << policy;
  }
}

// A node limit: two nodes of 4 CPUs, R holds 1 CPU of n0 until 600. J asks 4 tasks on
// exactly one node (-N1 -n4): n0 has 3, n1 has 4, so J starts now on n1. First fit alone
// took n0's 3 CPUs, could not add n1 (one node at most) and reserved J at 600 on n0.
TEST(NodeEasy, NodeLimitTakesTheNodeThatFits) {
  Machine m;
  m.add_node(node("n0", 4));
  m.add_node(node("n1", 4));
  ClusterState s;
  s.machine = &m;
  s.procs = 8;
  s.running.push_back(holding(1, 600, {{0, res(1)}}));
  JobRequest j;
  j.min_nodes = j.max_nodes = 1;
  j.tasks = 4;
  j.per_task = res(1);
  s.waiting.push_back(asking(2, j, 60));
  const Decision d = plan("easy", s);
  EXPECT_TRUE(d.reservations.empty());
  EXPECT_EQ(nodes_of(started_on(d, 2)), std::vector<NodeIndex>{1});
}

// A feature OR list (Slurm's --constraint="x|y"): each node needs one of them. Three
// nodes of 4 CPUs: n0 has x, n1 has y, n2 neither. R1 holds n0 until 1200, R2 2 CPUs of
// n1 until 600. H (4 CPUs on one node, x|y) cannot start: n2 has neither feature, so
// its earliest start is n1 at 600 (n0 at 1200). L (2 CPUs, 3600 s, on n1) fits n1's 2
// idle CPUs but would hold them at 600: it waits. M (4 CPUs, 3600 s, no feature) starts
// on n2. (Were the list read as AND, no node would have both and H could never start;
// were it ignored, H would start on n2 now.) A list of names no node has plans nowhere;
// one known name among unknown ones is enough.
TEST(NodeEasy, FeatureOrListTakesAnyNodeWithOneOfThem) {
  Machine m;
  Node n0 = node("n0", 4), n1 = node("n1", 4), n2 = node("n2", 4);
  n0.features = {"x"};
  n1.features = {"y"};
  m.add_node(n0);
  m.add_node(n1);
  m.add_node(n2);
  ClusterState s;
  s.machine = &m;
  s.procs = 12;
  s.running.push_back(holding(1, 1200, {{0, res(4)}}));
  s.running.push_back(holding(2, 600, {{1, res(2)}}));
  JobRequest either = JobRequest::cpus(4);
  either.max_nodes = 1;
  either.features = {"x", "y"};
  either.any_feature = true;
  JobRequest on_n1 = JobRequest::cpus(2);
  on_n1.required = NodeSet(3);
  on_n1.required.insert(1);
  s.waiting.push_back(asking(10, either, 600));
  s.waiting.push_back(asking(11, on_n1, 3600));
  s.waiting.push_back(asking(12, JobRequest::cpus(4), 3600));
  const Decision d = plan("easy", s);
  ASSERT_EQ(d.reservations.size(), 1u);
  EXPECT_EQ(d.reservations[0].job, 10u);
  EXPECT_EQ(d.reservations[0].start, 600);
  ASSERT_TRUE(d.reservations[0].allocation);
  EXPECT_EQ(nodes_of(*d.reservations[0].allocation), std::vector<NodeIndex>{1});
  EXPECT_EQ(d.start, std::vector<JobId>{12});
  EXPECT_EQ(nodes_of(started_on(d, 12)), std::vector<NodeIndex>{2});

  ClusterState empty;
  empty.machine = &m;
  empty.procs = 12;
  NodePlan idle;
  idle.reset(empty, RunningEnd::predicted);
  JobRequest unknown = JobRequest::cpus(1);
  unknown.features = {"p", "q"};
  unknown.any_feature = true;
  EXPECT_FALSE(idle.ever_fits(unknown));
  EXPECT_EQ(idle.earliest_start(unknown, 10, 10).start, kNever);
  unknown.features = {"p", "y"};
  const NodePlan::Slot slot = idle.earliest_start(unknown, 10, 10);
  EXPECT_EQ(slot.start, 0);
  EXPECT_EQ(nodes_of(slot.allocation), std::vector<NodeIndex>{1});
}

// Two nodes of 32 CPUs and 4 GPUs. R1 holds 1 GPU on node0 until 1000, R2 1 GPU on node1
// until 2000. The head needs 4 GPUs on one node: node0 at 1000. B1 (1 GPU, 5000 s) fits
// now on either node; on node0 it would still hold its GPU at 1000, so it must go to
// node1 (3 GPUs free there, no reservation). B2 (3 GPUs, 5000 s): node1 has 2 left after
// B1 and node0's 3 are promised from 1000: it waits. B3 (3 GPUs, 500 s) ends at 500 <
// 1000 and takes node0's GPUs now.
TEST(NodeEasy, GpuHeadBehindOneGpuJobs) {
  Machine m;
  const std::size_t gpu = m.resource_index("gpu");
  Node n0 = node("n0", 32);
  n0.capacity[gpu] = 4;
  Node n1 = n0;
  n1.name = "n1";
  m.add_node(n0);
  m.add_node(n1);
  ClusterState s;
  s.machine = &m;
  s.procs = 64;
  s.running.push_back(holding(1, 1000, {{0, res(1, 0, gpu, 1)}}));
  s.running.push_back(holding(2, 2000, {{1, res(1, 0, gpu, 1)}}));
  JobRequest four;
  four.tasks = 1;
  four.per_task = res(1, 0, gpu, 4);
  JobRequest one = four;
  one.per_task = res(1, 0, gpu, 1);
  JobRequest three = four;
  three.per_task = res(1, 0, gpu, 3);
  s.waiting.push_back(asking(10, four, 3000));
  s.waiting.push_back(asking(11, one, 5000));
  s.waiting.push_back(asking(12, three, 5000));
  s.waiting.push_back(asking(13, three, 500));
  const Decision d = plan("easy", s);
  ASSERT_EQ(d.reservations.size(), 1u);
  EXPECT_EQ(d.reservations[0].job, 10u);
  EXPECT_EQ(d.reservations[0].start, 1000);
  EXPECT_EQ(nodes_of(*d.reservations[0].allocation), std::vector<NodeIndex>{0});
  EXPECT_EQ(nodes_of(started_on(d, 11)), std::vector<NodeIndex>{1});
  EXPECT_FALSE(test::starts(d, 12));
  EXPECT_EQ(nodes_of(started_on(d, 13)), std::vector<NodeIndex>{0});
}

// Four nodes of 8 CPUs, each running one 1-CPU job, ending at 100, 200, 300, 400. The
// head asks for 2 whole nodes (exclusive) for 1000 s: nodes 0 and 1 are empty at 200,
// so it is reserved there at 200. A long 1-CPU job (5000 s) fits now on any node, but
// nodes 0 and 1 must be whole at 200: it starts on node2, the first node outside the
// reservation. A second one goes to node2 as well (6 CPUs left there).
TEST(NodeEasy, TwoNodeExclusiveHeadBehindLongOneCpuJobs) {
  Machine m;
  for (int i = 0; i < 4; ++i) m.add_node(node("n" + std::to_string(i), 8));
  ClusterState s;
  s.machine = &m;
  s.procs = 32;
  for (NodeIndex n = 0; n < 4; ++n)
    s.running.push_back(holding(n + 1, 100 * (n + 1), {{n, res(1)}}));
  JobRequest whole;
  whole.min_nodes = whole.max_nodes = 2;
  whole.tasks = 2;
  whole.per_task = res(1);
  whole.exclusive = true;
  s.waiting.push_back(asking(10, whole, 1000));
  s.waiting.push_back(asking(11, JobRequest::cpus(1), 5000));
  s.waiting.push_back(asking(12, JobRequest::cpus(1), 5000));
  const Decision d = plan("easy", s);
  ASSERT_EQ(d.reservations.size(), 1u);
  EXPECT_EQ(d.reservations[0].start, 200);
  EXPECT_EQ(nodes_of(*d.reservations[0].allocation), (std::vector<NodeIndex>{0, 1}));
  EXPECT_EQ(d.reservations[0].allocation->shares[0].amount[kCpu], 8) << "whole node";
  EXPECT_EQ(nodes_of(started_on(d, 11)), std::vector<NodeIndex>{2});
  EXPECT_EQ(nodes_of(started_on(d, 12)), std::vector<NodeIndex>{2});
}

// Three nodes of 8 CPUs; partition A = {0, 1}, B = {1, 2}: node1 is shared. Node0 runs
// an 8-CPU job until 1000, node2 one until 500. A's head asks for 16 CPUs in A: nodes 0
// and 1 at 1000. B's job (8 CPUs, 3000 s) could take idle node1 now, which would still
// hold it at 1000: it waits. B's short job (8 CPUs, 800 s) ends before 1000 and starts
// on node1.
TEST(NodeEasy, OverlappingPartitionsNeverDoubleBook) {
  Machine m;
  for (int i = 0; i < 3; ++i) m.add_node(node("n" + std::to_string(i), 8));
  Partition a{"A", NodeSet(3)};
  a.nodes.insert(0);
  a.nodes.insert(1);
  Partition b{"B", NodeSet(3)};
  b.nodes.insert(1);
  b.nodes.insert(2);
  const std::size_t pa = m.add_partition(a);
  const std::size_t pb = m.add_partition(b);
  ClusterState s;
  s.machine = &m;
  s.procs = 24;
  s.running.push_back(holding(1, 1000, {{0, res(8)}}));
  s.running.push_back(holding(2, 500, {{2, res(8)}}));
  JobRequest in_a = JobRequest::cpus(16);
  in_a.partitions = {pa};
  JobRequest in_b = JobRequest::cpus(8);
  in_b.partitions = {pb};
  s.waiting.push_back(asking(10, in_a, 600));
  s.waiting.push_back(asking(11, in_b, 3000));
  s.waiting.push_back(asking(12, in_b, 800));
  const Decision d = plan("easy++", s);
  ASSERT_EQ(d.reservations.size(), 1u);
  EXPECT_EQ(d.reservations[0].start, 1000);
  EXPECT_EQ(nodes_of(*d.reservations[0].allocation), (std::vector<NodeIndex>{0, 1}));
  EXPECT_FALSE(test::starts(d, 11)) << "B's long job would take A's promised node";
  EXPECT_EQ(nodes_of(started_on(d, 12)), std::vector<NodeIndex>{1});
}

// Two nodes of 8 CPUs; node0 runs an 8-CPU job until 5000; node1 is in advance
// reservation "maint" during [1000, 2000). J (8 CPUs, predicted 500 s, limit 3000 s)
// could run now on node1 by its prediction, but may run to its limit and so overlap the
// reservation: not now. Its earliest start is 2000 on node1 (5000 on node0). J2 (limit
// 900) ends before 1000 and starts now on node1. M, in reservation maint, runs on node1
// from 1000.
TEST(NodeEasy, AdvanceReservationIsAWindowKeptToTheKillTime) {
  Machine m;
  m.add_node(node("n0", 8));
  Node n1 = node("n1", 8);
  n1.windows.push_back({1000, 2000, "maint"});
  m.add_node(n1);
  ClusterState s;
  s.machine = &m;
  s.procs = 16;
  s.running.push_back(holding(1, 5000, {{0, res(8)}}));
  JobRequest eight = JobRequest::cpus(8);
  JobRequest in_maint = eight;
  in_maint.reservation = "maint";
  s.waiting.push_back(asking(10, eight, 500, 3000));
  s.waiting.push_back(asking(11, eight, 500, 900));
  {
    const Decision d = plan("easy", s);
    ASSERT_EQ(d.reservations.size(), 1u);
    EXPECT_EQ(d.reservations[0].job, 10u);
    EXPECT_EQ(d.reservations[0].start, 2000);
    EXPECT_EQ(nodes_of(*d.reservations[0].allocation), std::vector<NodeIndex>{1});
    EXPECT_EQ(nodes_of(started_on(d, 11)), std::vector<NodeIndex>{1});
  }
  s.waiting = {asking(20, in_maint, 500, 900)};
  const Decision d = plan("easy", s);
  ASSERT_EQ(d.reservations.size(), 1u);
  EXPECT_EQ(d.reservations[0].start, 1000);
  EXPECT_EQ(nodes_of(*d.reservations[0].allocation), std::vector<NodeIndex>{1});
}

// A job that named two reservations (--reservation=r1,r2) runs in either, never across
// them. Three nodes of 4 CPUs: n0 in r1, n1 in r2, both for [0, 10000); n2 in none. A
// 4-CPU job in r1 runs on n0 until 3000. J (4 CPUs, r1 or r2) starts now on n1 (in r2);
// K (8 CPUs on 2 nodes, r1 or r2) fits in neither alone, not even once r1 is free: each
// reservation has one node, and n0 + n1 would span both, so it never starts. L (4 CPUs,
// r1 only) is reserved at 3000 on n0. Before, the names "r1,r2" as one matched no node.
TEST(NodeEasy, JobOfTwoReservationsRunsInOneOfThem) {
  Machine m;
  for (const char* name : {"n0", "n1", "n2"}) m.add_node(node(name, 4));
  m.nodes()[0].windows.push_back({0, 10000, "r1"});
  m.nodes()[1].windows.push_back({0, 10000, "r2"});
  ClusterState s;
  s.machine = &m;
  s.procs = 12;
  s.running.push_back(holding(1, 3000, {{0, res(4)}}));
  JobRequest both = JobRequest::cpus(4);
  both.reservation = "r1";
  both.other_reservations = {"r2"};
  JobRequest wide = JobRequest::cpus(8);
  wide.reservation = "r1";
  wide.other_reservations = {"r2"};
  JobRequest r1_only = JobRequest::cpus(4);
  r1_only.reservation = "r1";
  s.waiting.push_back(asking(10, both, 500, 900));
  {
    const Decision d = plan("easy", s);
    EXPECT_EQ(nodes_of(started_on(d, 10)), std::vector<NodeIndex>{1}) << "in r2, not on n2";
  }
  s.waiting = {asking(11, wide, 500, 900), asking(12, r1_only, 500, 900)};
  const Decision d = plan("easy", s);
  EXPECT_FALSE(test::starts(d, 11));
  ASSERT_EQ(d.reservations.size(), 1u) << "K never fits: no reservation; L is the head";
  EXPECT_EQ(d.reservations[0].job, 12u);
  EXPECT_EQ(d.reservations[0].start, 3000);
  EXPECT_EQ(nodes_of(*d.reservations[0].allocation), std::vector<NodeIndex>{0});
}

// A MAGNETIC reservation draws jobs that named none: such a job may run in it or outside
// every reservation, not across both. Two nodes of 4 CPUs: n0 in magnetic reservation g
// for [0, 10000), n1 in none and busy until 2000. J (4 CPUs, may use g) starts now on
// n0. With n0 busy in g until 5000 too, K (8 CPUs on 2 nodes, may use g) is the head:
// from 5000 n0 (in g) and n1 (outside) are free, but that would span both; its start is
// 10000, when g ends, on both nodes. P (4 CPUs, no use of g) cannot start now.
TEST(NodeEasy, MagneticReservationTakesJobsThatNamedNone) {
  Machine m;
  m.add_node(node("n0", 4));
  m.add_node(node("n1", 4));
  m.nodes()[0].windows.push_back({0, 10000, "g"});
  ClusterState s;
  s.machine = &m;
  s.procs = 8;
  s.running.push_back(holding(1, 2000, {{1, res(4)}}));
  JobRequest drawn = JobRequest::cpus(4);
  drawn.other_reservations = {"g"};
  s.waiting.push_back(asking(10, drawn, 500, 900));
  {
    const Decision d = plan("easy", s);
    EXPECT_EQ(nodes_of(started_on(d, 10)), std::vector<NodeIndex>{0});
  }
  s.running.push_back(holding(2, 5000, {{0, res(4)}}));
  JobRequest wide = JobRequest::cpus(8);
  wide.other_reservations = {"g"};
  s.waiting = {asking(11, wide, 500, 900), asking(12, JobRequest::cpus(4), 500, 900)};
  const Decision d = plan("easy", s);
  EXPECT_FALSE(test::starts(d, 11));
  EXPECT_FALSE(test::starts(d, 12));
  ASSERT_EQ(d.reservations.size(), 1u);
  EXPECT_EQ(d.reservations[0].job, 11u);
  EXPECT_EQ(d.reservations[0].start, 10000) << "not 5000, across g and outside it";
  EXPECT_EQ(nodes_of(*d.reservations[0].allocation), (std::vector<NodeIndex>{0, 1}));
}

// Two nodes of 4 CPUs; node0 runs a 1-CPU job until 1000. J asks 4 tasks on one node
// (--nodes=1): node0 has room for 3 only, so J starts on node1, and the head is the next
// such job, reserved at 1000 on node0 (node1 is J's).
TEST(NodeEasy, OneNodeJobSkipsANodeWithoutRoomForAllItsTasks) {
  Machine m;
  m.add_node(node("n0", 4));
  m.add_node(node("n1", 4));
  ClusterState s;
  s.machine = &m;
  s.procs = 8;
  s.running.push_back(holding(1, 1000, {{0, res(1)}}));
  JobRequest one_node = JobRequest::cpus(4);
  one_node.max_nodes = 1;
  s.waiting.push_back(asking(10, one_node, 5000));
  s.waiting.push_back(asking(11, one_node, 100));
  const Decision d = plan("easy", s);
  EXPECT_EQ(nodes_of(started_on(d, 10)), std::vector<NodeIndex>{1});
  ASSERT_EQ(d.reservations.size(), 1u);
  EXPECT_EQ(d.reservations[0].job, 11u);
  EXPECT_EQ(d.reservations[0].start, 1000);
  EXPECT_EQ(nodes_of(*d.reservations[0].allocation), std::vector<NodeIndex>{0});
}

// A drained node (a window for nobody, open-ended) is never planned: a job that only it
// could hold is skipped, not made the head.
TEST(NodeEasy, DrainedNodeIsNeverPlanned) {
  Machine m;
  m.add_node(node("n0", 8));
  Node big = node("n1", 64);
  big.windows.push_back({0, kNever, ""});
  m.add_node(big);
  ClusterState s;
  s.machine = &m;
  s.procs = 72;
  s.waiting.push_back(asking(1, JobRequest::cpus(32), 100));
  s.waiting.push_back(asking(2, JobRequest::cpus(8), 100));
  const Decision d = plan("easy", s);
  EXPECT_TRUE(d.reservations.empty());
  EXPECT_EQ(nodes_of(started_on(d, 2)), std::vector<NodeIndex>{0});
}

// Licences are counted cluster-wide: 2 "matlab", both held until 100 by a running job.
// The head (1 CPU, 1 licence) is reserved at 100 although CPUs are idle; a CPU-only
// long job backfills.
TEST(NodeEasy, LicencesDelayTheHead) {
  Machine m;
  m.add_node(node("n0", 8));
  m.add_licence({"matlab", 2});
  ClusterState s;
  s.machine = &m;
  s.procs = 8;
  RunningJob r = holding(1, 100, {{0, res(1)}});
  auto a = std::make_shared<Allocation>(*r.allocation);
  a->licences[0] = 2;
  r.allocation = a;
  s.running.push_back(r);
  JobRequest lic = JobRequest::cpus(1);
  lic.licences[0] = 1;
  s.waiting.push_back(asking(10, lic, 50));
  s.waiting.push_back(asking(11, JobRequest::cpus(4), 5000));
  const Decision d = plan("easy", s);
  ASSERT_EQ(d.reservations.size(), 1u);
  EXPECT_EQ(d.reservations[0].start, 100);
  EXPECT_TRUE(test::backfills(d, 11));
}

// Reservation depth (EASY has 1) on a pool of 16 CPUs, 8 of them busy until 100. H1 asks
// 12 CPUs for 100 s: reserved at 100, leaving 4 extra. H2 asks 16 for 100 s. B asks 4
// CPUs for 500 s. Depth 1: B fits the 8 idle CPUs and the 4 extra at 100, so it starts,
// and H2 (unprotected) could then start only at 500. Depth 2: H2 is reserved at 200
// (after H1); B would hold 4 CPUs during [200, 300) when H2 needs all 16: it waits.
TEST(NodeEasy, ReservationDepthProtectsTheSecondJob) {
  ClusterState s;
  s.procs = 16;
  s.running.push_back(test::running(1, 8, 0, 100));
  s.waiting.push_back(test::waiting(10, 12, 100));
  s.waiting.push_back(test::waiting(11, 16, 100));
  s.waiting.push_back(test::waiting(12, 4, 500));
  EasyPass pass;
  QueueOrder order;
  EasyRules one{&order, &order, BackfillFit::prediction, 1};
  EasyRules two{&order, &order, BackfillFit::prediction, 2};
  Decision d1;
  pass.run(s, one, d1);
  ASSERT_EQ(d1.reservations.size(), 1u);
  EXPECT_EQ(d1.reservations[0].start, 100);
  EXPECT_TRUE(test::backfills(d1, 12));
  Decision d2;
  pass.run(s, two, d2);
  ASSERT_EQ(d2.reservations.size(), 2u);
  EXPECT_EQ(d2.reservations[0].start, 100);
  EXPECT_EQ(d2.reservations[1].job, 11u);
  EXPECT_EQ(d2.reservations[1].start, 200);
  EXPECT_FALSE(test::starts(d2, 12));
}

// PV-EASY's shadow-load preemption (paper 002 section 4) on three nodes of 4 CPUs at
// t=0. Priorities: R1 100 holds node0 (4 CPUs), R2 30 and R3 20 hold 2 and 1 CPUs of
// node1, R4 10 holds 1 CPU of node2. H (priority 50) asks 4 tasks on one node with
// feature "big" (nodes 0 and 1 only): node1 has 1 idle CPU, so it does not fit. Its
// shadow load, lowest priority first, is R4, R3, R2; killing R4 and R3 leaves node1 3
// CPUs, killing R2 too leaves 4: the prefix is {R4, R3, R2}. R4 holds nothing on node1
// (where H goes), so it is spared: R3 and R2 are killed and H starts on node1. (On a
// pool of 12 processors 4 are idle and H would simply start.)
TEST(NodeEasy, PvEasyKillsOnlyShadowJobsOnTheHeadsNodes) {
  Machine m;
  for (int i = 0; i < 3; ++i) {
    Node n = node("n" + std::to_string(i), 4);
    if (i < 2) n.features = {"big"};
    m.add_node(n);
  }
  ClusterState s;
  s.machine = &m;
  s.procs = 12;
  auto with_priority = [](RunningJob r, std::int64_t p) {
    r.job.priority = p;
    return r;
  };
  s.running.push_back(with_priority(holding(1, 1000, {{0, res(4)}}), 100));
  s.running.push_back(with_priority(holding(2, 1000, {{1, res(2)}}), 30));
  s.running.push_back(with_priority(holding(3, 1000, {{1, res(1)}}), 20));
  s.running.push_back(with_priority(holding(4, 1000, {{2, res(1)}}), 10));
  JobRequest big = JobRequest::cpus(4);
  big.max_nodes = 1;
  big.features = {"big"};
  Job h = asking(10, big, 100);
  h.priority = 50;
  s.waiting.push_back(h);
  const Decision d = plan("pv-easy", s);
  EXPECT_EQ(d.kill_requeue, (std::vector<JobId>{3, 2}));
  ASSERT_EQ(d.start, std::vector<JobId>{10});
  EXPECT_EQ(nodes_of(started_on(d, 10)), std::vector<NodeIndex>{1});
  EXPECT_TRUE(d.reservations.empty());
}

// PV-EASY's venture backfilling on two nodes of 4 CPUs at t=0: R1 (priority 100) holds
// node0 until 100, node1 is idle. H (priority 50) asks 8 CPUs: no shadow load (R1 is
// above it), so it is reserved at 100 on nodes 0 and 1 (the sunny load's plan). B1
// (2 CPUs, 50 s) ends by 100 and starts first (step 3); B2 (2 CPUs, 500 s) does not end
// by 100 but starts in step 4 on the CPUs still idle; B3 (1 CPU, 500 s) finds none left.
TEST(NodeEasy, PvEasyVentureBackfillsOnNodes) {
  Machine m;
  m.add_node(node("n0", 4));
  m.add_node(node("n1", 4));
  ClusterState s;
  s.machine = &m;
  s.procs = 8;
  RunningJob r1 = holding(1, 100, {{0, res(4)}});
  r1.job.priority = 100;
  s.running.push_back(r1);
  std::int64_t priority = 50;
  for (auto [id, cpus, prediction] :
       std::vector<std::tuple<JobId, int, Time>>{{10, 8, 100}, {11, 2, 500}, {12, 2, 50},
                                                  {13, 1, 500}}) {
    Job j = asking(id, JobRequest::cpus(cpus), prediction);
    j.priority = priority--;
    s.waiting.push_back(j);
  }
  const Decision d = plan("pv-easy", s);
  ASSERT_EQ(d.reservations.size(), 1u);
  EXPECT_EQ(d.reservations[0].start, 100);
  EXPECT_EQ(nodes_of(*d.reservations[0].allocation), (std::vector<NodeIndex>{0, 1}));
  EXPECT_EQ(d.start, (std::vector<JobId>{12, 11}));
  EXPECT_EQ(d.backfilled, (std::vector<JobId>{12, 11}));
  EXPECT_EQ(nodes_of(started_on(d, 11)), std::vector<NodeIndex>{1});
  EXPECT_TRUE(d.kill_requeue.empty());
}

// mq (paper 001, queues by estimate: <= 100, <= 1000, <= 10000 s, longer) on two nodes of
// 4 CPUs at t=0. R (4 processors, estimate 1000: queue 1) holds 2 CPUs on each node until
// 1000. P (queue 1's pivot, 4 CPUs on one node, 500 s) is reserved at 1000 on node0, the
// first node that has them. B (queue 2's pivot, 2 CPUs on one node, 5000 s) fits node1
// now without touching P's claim: its reservation is now, so it starts there (partition
// 2 has its 2 processors). On a pool of 8 it could not: from 1000 P takes the 4 that R
// frees, so B (running past 1000) would leave P short and waits until 1500. S (queue 2's
// next, 2 CPUs on one node, 3000 s) becomes queue 2's pivot: node0 is P's until 1500,
// node1 has B's other 2 CPUs free from 1000, so S is reserved at 1000 on node1.
TEST(NodeEasy, MultiQueuePivotsAreReservedOnNodes) {
  Machine m;
  m.add_node(node("n0", 4));
  m.add_node(node("n1", 4));
  ClusterState s;
  s.machine = &m;
  s.procs = 8;
  RunningJob r = holding(1, 1000, {{0, res(2)}, {1, res(2)}});
  r.job.procs = 4;
  s.running.push_back(r);
  JobRequest one_node = JobRequest::cpus(4);
  one_node.max_nodes = 1;
  JobRequest two_on_one = JobRequest::cpus(2);
  two_on_one.max_nodes = 1;
  s.waiting.push_back(asking(10, one_node, 500, 500));
  s.waiting.push_back(asking(11, two_on_one, 5000, 5000));
  s.waiting.push_back(asking(12, two_on_one, 3000, 3000));
  const Decision d = plan("mq", s);
  ASSERT_EQ(d.start, std::vector<JobId>{11});
  EXPECT_TRUE(d.backfilled.empty()) << "B started as its queue's pivot";
  EXPECT_EQ(nodes_of(started_on(d, 11)), std::vector<NodeIndex>{1});
  ASSERT_EQ(d.reservations.size(), 2u);
  EXPECT_EQ(d.reservations[0].job, 10u);
  EXPECT_EQ(d.reservations[0].start, 1000);
  EXPECT_EQ(nodes_of(*d.reservations[0].allocation), std::vector<NodeIndex>{0});
  EXPECT_EQ(d.reservations[1].job, 12u);
  EXPECT_EQ(d.reservations[1].start, 1000);
  EXPECT_EQ(nodes_of(*d.reservations[1].allocation), std::vector<NodeIndex>{1});
}

// --- one node of N CPUs plans as one pool of N processors ----------------------------

ClusterState random_pool(std::mt19937_64& rng) {
  auto uniform = [&rng](Time lo, Time hi) { return std::uniform_int_distribution<Time>(lo, hi)(rng); };
  ClusterState s;
  s.now = 1000;
  s.procs = static_cast<int>(uniform(1, 64));
  JobId id = 1;
  int busy = 0;
  for (int i = 0, n = static_cast<int>(uniform(0, 8)); i < n && busy < s.procs; ++i) {
    const int procs = static_cast<int>(uniform(1, s.procs - busy));
    const Time start = s.now - uniform(0, 500);
    // Some predictions already expired (they count as ending now in the plan).
    const Time end = uniform(0, 3) > 0 ? s.now + uniform(1, 500) : s.now - uniform(0, 100);
    const Time prediction = std::max<Time>(end - start, 1);
    s.running.push_back(test::running(id++, procs, start, prediction, prediction + uniform(0, 300)));
    busy += procs;
  }
  for (int i = 0, n = static_cast<int>(uniform(0, 12)); i < n; ++i) {
    const int procs = uniform(0, 19) == 0 ? s.procs + 1 : static_cast<int>(uniform(1, s.procs));
    const Time prediction = uniform(1, 600);
    s.waiting.push_back(test::waiting(id++, procs, prediction, prediction + uniform(0, 600)));
  }
  return s;
}

ClusterState as_single_node(const ClusterState& pool, const Machine& m) {
  ClusterState s = pool;
  s.machine = &m;
  for (RunningJob& r : s.running) {
    auto a = std::make_shared<Allocation>();
    a->shares.push_back({0, r.job.procs, res(r.job.procs)});
    r.allocation = std::move(a);
  }
  return s;
}

TEST(NodeEasy, SingleNodePlansAsThePool) {
  std::mt19937_64 rng(20261122);
  const char* policies[] = {"fcfs", "easy", "easy+", "easy-sjbf", "easy++", "easy++-safe",
                            "sjf", "easy++-dbook", "easy++:depth=3", "conservative",
                            "mq", "mq-vd", "mq-1q", "mq:60:3600",
                            "easy++:bound=0:guard=always", "easy++:bound=60",
                            "easy++:bound=0:age=30"};
  for (int round = 0; round < 400; ++round) {
    const ClusterState pool = random_pool(rng);
    const Machine m = Machine::single_node(pool.procs);
    const ClusterState nodes = as_single_node(pool, m);
    for (const char* name : policies) {
      const Decision a = make_policy(name)->plan(pool);
      const Decision b = make_policy(name)->plan(nodes);
      ASSERT_EQ(a.start, b.start) << name << " round " << round;
      ASSERT_EQ(a.backfilled, b.backfilled) << name << " round " << round;
      ASSERT_EQ(a.examined, b.examined) << name << " round " << round;
      ASSERT_EQ(a.reservations.size(), b.reservations.size()) << name << " round " << round;
      for (std::size_t i = 0; i < a.reservations.size(); ++i) {
        EXPECT_EQ(a.reservations[i].job, b.reservations[i].job) << name;
        EXPECT_EQ(a.reservations[i].start, b.reservations[i].start) << name << " round " << round;
      }
      EXPECT_EQ(b.start_allocations.size(), b.start.size());
    }
  }
}

// The preemptive policies on one node equal the pool: random priorities for the running
// jobs (so some are shadow load below a waiting job and pv-easy kills), the queue in
// priority order. Timed-run is planned twice with one object, 100 s apart, so jobs it
// started for a trial are on trial or past it (terminable) in the second pass.
TEST(NodeEasy, PreemptivePoliciesOnOneNodePlanAsThePool) {
  std::mt19937_64 rng(20261125);
  auto uniform = [&rng](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  int kills = 0;
  for (int round = 0; round < 300; ++round) {
    ClusterState pool = random_pool(rng);
    for (RunningJob& r : pool.running) r.job.priority = uniform(0, 2000);
    for (std::size_t k = 0; k < pool.waiting.size(); ++k)
      pool.waiting[k].priority = 1000 - 50 * static_cast<std::int64_t>(k);
    const Machine m = Machine::single_node(pool.procs);
    for (const char* name : {"pv-easy", "timed-run", "timed-run:base=fcfs,trial=60"}) {
      auto on_pool = make_policy(name);
      auto on_node = make_policy(name);
      ClusterState p = pool;
      for (int pass = 0; pass < 2; ++pass) {
        const ClusterState n = as_single_node(p, m);
        const Decision a = on_pool->plan(p);
        const Decision b = on_node->plan(n);
        ASSERT_EQ(a.start, b.start) << name << " round " << round << " pass " << pass;
        ASSERT_EQ(a.backfilled, b.backfilled) << name << " round " << round;
        ASSERT_EQ(a.kill_requeue, b.kill_requeue) << name << " round " << round;
        ASSERT_EQ(a.examined, b.examined) << name << " round " << round;
        ASSERT_EQ(a.wake_at, b.wake_at) << name << " round " << round;
        ASSERT_EQ(a.reservations.size(), b.reservations.size()) << name << " round " << round;
        for (std::size_t i = 0; i < a.reservations.size(); ++i) {
          EXPECT_EQ(a.reservations[i].job, b.reservations[i].job) << name;
          EXPECT_EQ(a.reservations[i].start, b.reservations[i].start) << name << " round " << round;
        }
        EXPECT_EQ(b.start_allocations.size(), b.start.size());
        kills += static_cast<int>(a.kill_requeue.size());
        // Carry the decision out on the pool and move on 100 s.
        std::vector<Job> still;
        for (const JobId id : a.kill_requeue) {
          auto it = std::find_if(p.running.begin(), p.running.end(),
                                 [id](const RunningJob& r) { return r.job.id == id; });
          Job j = it->job;
          ++j.restarts;
          p.running.erase(it);
          p.waiting.insert(p.waiting.begin(), j);  // order rebuilt below
        }
        for (const Job& w : p.waiting) {
          if (test::starts(a, w.id)) {
            p.running.push_back({w, p.now, nullptr});
          } else {
            still.push_back(w);
          }
        }
        std::sort(still.begin(), still.end(), higher_priority);
        p.waiting = std::move(still);
        p.now += 100;
        std::erase_if(p.running, [&](const RunningJob& r) { return r.start + r.job.prediction + 50 < p.now; });
      }
    }
  }
  EXPECT_GT(kills, 0) << "no state made a policy kill: the property checked too little";
}

// Depth 1 through the node plan (the pool converted to one node) equals the pool's own pass.
TEST(NodeEasy, DepthOneOnNodesEqualsPoolPass) {
  std::mt19937_64 rng(7);
  QueueOrder order;
  ShortestFirst shortest;
  for (int round = 0; round < 300; ++round) {
    const ClusterState pool = random_pool(rng);
    const Machine m = Machine::single_node(pool.procs);
    const ClusterState nodes = as_single_node(pool, m);
    EasyPass a;
    EasyPass b;
    EasyRules rules{&order, &shortest, BackfillFit::prediction, 1};
    Decision da;
    Decision db;
    a.run(pool, rules, da);
    b.run(nodes, rules, db);
    ASSERT_EQ(da.start, db.start) << round;
    ASSERT_EQ(da.reservations.size(), db.reservations.size()) << round;
    if (!da.reservations.empty()) {
      ASSERT_EQ(da.reservations[0].start, db.reservations[0].start);
    }
  }
}

}  // namespace
}  // namespace easypp
