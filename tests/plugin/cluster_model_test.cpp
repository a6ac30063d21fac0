// The plugin's cluster snapshot -> machine model translation (cluster_model.h) and the
// one-plan-per-pass planner on it (Planner::plan_cluster), on tiny hand-made clusters
// whose answers were worked out by hand (each test says how).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/policy.h"
#include "plugin/cluster_model.h"
#include "plugin/planner.h"

namespace easypp::plugin {
namespace {

constexpr Time kNow = 1'700'000'000;

NodeRecord node(const std::string& name, int cpus, std::int64_t mem = 0,
                std::vector<GresCount> gres = {}) {
  NodeRecord n;
  n.name = name;
  n.cpus = cpus;
  n.memory_mb = mem;
  n.gres = std::move(gres);
  return n;
}

JobRecord running(JobId id, std::vector<ShareRecord> shares, Time started_ago, Time limit) {
  JobRecord r;
  r.id = id;
  r.user = 1000;
  r.submit = kNow - started_ago - 10;
  r.start = kNow - started_ago;
  r.limit = limit;
  r.shares = std::move(shares);
  r.procs = 0;
  for (const ShareRecord& s : r.shares) r.procs += s.cpus;
  return r;
}

JobRecord waiting(JobId id, int tasks, Time limit, std::vector<std::string> partitions,
                  std::int64_t priority) {
  JobRecord r;
  r.id = id;
  r.user = 2000 + static_cast<UserId>(id);
  r.submit = kNow - 100;
  r.priority = priority;
  r.limit = limit;
  r.procs = tasks;
  r.request.tasks = tasks;
  r.request.min_cpus = tasks;
  r.request.partitions = std::move(partitions);
  return r;
}

PartitionRecord partition(const std::string& name, std::vector<std::uint32_t> nodes) {
  PartitionRecord p;
  p.name = name;
  p.nodes = std::move(nodes);
  return p;
}

Config config_with(const std::string& policy) {
  Config c;
  c.policy = policy;
  return c;
}

bool starts(const GroupPlan& g, JobId id) {
  return std::find(g.decision.start.begin(), g.decision.start.end(), id) != g.decision.start.end();
}

const Reservation* reservation_of(const GroupPlan& g, JobId id) {
  for (const Reservation& r : g.decision.reservations)
    if (r.job == id) return &r;
  return nullptr;
}

// Job `id` does not start now and is reserved at `start` with `node` as its first node.
void expect_reserved(const GroupPlan& g, JobId id, Time start, NodeIndex node) {
  EXPECT_FALSE(starts(g, id)) << "job " << id;
  const Reservation* r = reservation_of(g, id);
  ASSERT_NE(r, nullptr) << "job " << id;
  EXPECT_EQ(r->start, start) << "job " << id;
  ASSERT_TRUE(r->allocation) << "job " << id;
  EXPECT_EQ(r->allocation->shares.at(0).node, node) << "job " << id;
}

TEST(ClusterModel, RequestsInSlurmTerms) {
  ClusterSnapshot s;
  s.nodes = {node("n0", 16, 1000, {{"gpu", 4}, {"gpu:a100", 4}}), node("n1", 16, 2000)};
  s.nodes[1].usable = false;
  s.partitions = {partition("p", {0, 1})};
  s.reservations = {ReservationRecord{"r1", kNow + 10, kNow + 20, {1}, {}, false}};
  JobRecord j = waiting(1, 4, 60, {"p", "gone"}, 1);
  j.request.cpus_per_task = 2;
  j.request.min_cpus = 10;  // 10 CPUs at 2 per task: 5 tasks
  j.request.mem_per_cpu_mb = 100;
  j.request.gres_per_node = {{"gpu:a100", 2}};
  j.request.features = {"fast", "ib"};
  j.request.required = {0};
  j.request.excluded = {1, 7};  // 7 is no node: skipped
  JobRecord k = waiting(2, 1, 60, {"p"}, 1);
  k.request.all_memory = true;
  k.request.features = {"a", "b"};
  k.request.features_left = true;
  JobRecord lost = waiting(3, 1, 60, {"elsewhere"}, 1);
  s.waiting = {j, k, lost};
  s.running = {running(9, {{0, 3, 300, {{"gpu:a100", 1}}}, {5, 1, 1, {}}}, 10, 100)};

  const ClusterModel m = build_cluster_model(s);
  ASSERT_EQ(m.machine.nodes().size(), 2u);
  const int gpu = m.machine.find_resource("gpu");
  const int a100 = m.machine.find_resource("gpu:a100");
  ASSERT_GE(gpu, 0);
  ASSERT_GE(a100, 0);
  EXPECT_EQ(m.machine.nodes()[0].capacity[kCpu], 16);
  EXPECT_EQ(m.machine.nodes()[0].capacity[kMemory], 1000);
  EXPECT_EQ(m.machine.nodes()[0].capacity[gpu], 4);
  EXPECT_EQ(m.machine.nodes()[0].capacity[a100], 4);
  ASSERT_EQ(m.machine.nodes()[1].windows.size(), 2u) << "down for good, and reservation r1";
  EXPECT_TRUE(m.machine.nodes()[1].windows[0].reservation.empty());
  EXPECT_EQ(m.machine.nodes()[1].windows[0].to, kNever);
  EXPECT_EQ(m.machine.nodes()[1].windows[1].reservation, "r1");
  EXPECT_EQ(m.machine.nodes()[1].windows[1].from, kNow + 10);

  ASSERT_EQ(m.waiting.size(), 2u) << "job 3 is queued only in an unknown partition";
  EXPECT_EQ(m.waiting_source, (std::vector<std::size_t>{0, 1}));
  const JobRequest& r = *m.waiting[0].request;
  EXPECT_EQ(r.tasks, 5);
  EXPECT_EQ(r.per_task[kCpu], 2);
  EXPECT_EQ(r.per_task[kMemory], 200) << "100 MB per CPU x 2 CPUs per task";
  EXPECT_EQ(r.memory_per_cpu, 100) << "charged per CPU given (whole cores on hyperthreads)";
  EXPECT_EQ(r.per_node[gpu], 2) << "a typed GRES counts under its name too";
  EXPECT_EQ(r.per_node[a100], 2);
  EXPECT_EQ(r.features, (std::vector<std::string>{"fast", "ib"}));
  EXPECT_TRUE(r.required.contains(0));
  EXPECT_TRUE(r.excluded.contains(1));
  EXPECT_EQ(r.partitions, (std::vector<std::size_t>{0}));
  EXPECT_EQ(m.waiting[0].procs, 10);
  const JobRequest& q = *m.waiting[1].request;
  EXPECT_TRUE(q.exclusive) << "a node's whole memory: whole nodes";
  EXPECT_TRUE(q.features.empty()) << "an expression left to select_nodes";

  ASSERT_EQ(m.running.size(), 1u);
  const Allocation& a = *m.running[0].allocation;
  ASSERT_EQ(a.shares.size(), 1u) << "the share on unknown node 5 is skipped";
  EXPECT_EQ(a.shares[0].amount[kCpu], 3);
  EXPECT_EQ(a.shares[0].amount[kMemory], 300);
  EXPECT_EQ(a.shares[0].amount[gpu], 1);
  EXPECT_EQ(a.shares[0].amount[a100], 1);
}

TEST(ClusterModel, GresKindsPastTheLimitAreNoted) {
  ClusterSnapshot s;
  std::vector<GresCount> gres;
  for (int k = 0; k < 8; ++k) gres.push_back({"g" + std::to_string(k), 1});
  s.nodes = {node("n0", 4, 0, gres)};
  const ClusterModel m = build_cluster_model(s);
  EXPECT_EQ(m.machine.resource_kinds().size(), kMaxResourceKinds);
  EXPECT_EQ(m.notes.size(), 2u) << "g6 and g7 do not fit in 8 kinds with cpu and mem";
}

// The memory case: one node of 64 CPUs and 1000 MB (CR_CPU_Memory). A (8 CPUs,
// 900 MB) runs until its kill time now+590. H (32 CPUs, 950 MB) waits at the top: only
// 100 MB are free, so H is reserved at now+590 on n0. L (16 CPUs, 90 MB, 20 min) fits now
// in CPUs and memory, but at now+590 H takes 950 of the 1000 MB, leaving 50 < 90: L would
// delay H, so it stays pending. A 5-minute L ends before now+590 and is backfilled.
TEST(PlanCluster, MemoryBoundHeadKeepsItsReservation) {
  for (Time l_limit : {Time{1200}, Time{300}}) {
    ClusterSnapshot s;
    s.now = kNow;
    s.nodes = {node("n0", 64, 1000)};
    s.partitions = {partition("p", {0})};
    s.running = {running(1, {{0, 8, 900, {}}}, 10, 600)};
    JobRecord h = waiting(2, 32, 600, {"p"}, 100);
    h.request.mem_per_node_mb = 950;
    JobRecord l = waiting(3, 16, l_limit, {"p"}, 50);
    l.request.mem_per_node_mb = 90;
    s.waiting = {h, l};
    const ClusterModel m = build_cluster_model(s);
    Planner planner(config_with("easy"));
    const ClusterPlan plan = planner.plan_cluster(m, kNow);
    ASSERT_EQ(plan.groups.size(), 1u);
    const GroupPlan& g = plan.groups[0];
    expect_reserved(g, 2, kNow + 590, 0);
    EXPECT_EQ(starts(g, 3), l_limit == 300) << "L limit " << l_limit;
  }
}

// Two partitions on shared nodes: big = {n0, n1}, small = {n1}, 8 CPUs each. n0 is busy
// until now+600. H (16 CPUs, big, top priority) needs both nodes: reserved at now+600 on
// n0 and n1. L (8 CPUs, small, 20 min) fits on n1 now but would still hold it at now+600:
// one plan for the cluster sees H's reservation and keeps L pending (planned partition by
// partition, small would start it). S (8 CPUs, small, 5 min) ends first and starts.
TEST(PlanCluster, OverlappingPartitionsNeverDoubleBook) {
  for (Time l_limit : {Time{1200}, Time{300}}) {
    ClusterSnapshot s;
    s.now = kNow;
    s.nodes = {node("n0", 8), node("n1", 8)};
    s.partitions = {partition("big", {0, 1}), partition("small", {1})};
    s.running = {running(1, {{0, 8, 0, {}}}, 0, 600)};
    s.waiting = {waiting(2, 16, 600, {"big"}, 100), waiting(3, 8, l_limit, {"small"}, 50)};
    const ClusterModel m = build_cluster_model(s);
    Planner planner(config_with("easy"));
    const ClusterPlan plan = planner.plan_cluster(m, kNow);
    ASSERT_EQ(plan.groups.size(), 1u);
    const Reservation* r = reservation_of(plan.groups[0], 2);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->start, kNow + 600);
    EXPECT_EQ(r->allocation->shares.size(), 2u);
    EXPECT_EQ(starts(plan.groups[0], 3), l_limit == 300) << "L limit " << l_limit;
  }
}

// A job queued in several partitions runs in one of them (Slurm plans a record per
// partition), so its nodes all lie in one. n0..n3, 8 CPUs each; a = {n0, n1, n2}, b =
// {n2, n3} (linked by n2: one plan). R1 holds n0 until 600, R2 n2 until 1200. J (-p a,b,
// two whole nodes) has n1 and n3 idle now, but they are in different partitions: in a it
// fits at 600 (n0, n1), in b at 1200 (n2, n3), so it is reserved at 600 on n0 and n1.
// Before, it "started" on n1 + n3, which select_nodes refuses.
TEST(PlanCluster, JobInSeveralPartitionsRunsInOne) {
  ClusterSnapshot s;
  s.now = kNow;
  s.nodes = {node("n0", 8), node("n1", 8), node("n2", 8), node("n3", 8)};
  s.partitions = {partition("a", {0, 1, 2}), partition("b", {2, 3})};
  s.running = {running(1, {{0, 8, 0, {}}}, 0, 600), running(2, {{2, 8, 0, {}}}, 0, 1200)};
  JobRecord j = waiting(3, 2, 3000, {"a", "b"}, 100);
  j.request.min_nodes = 2;
  j.request.exclusive = true;
  s.waiting = {j};
  Planner planner(config_with("easy"));
  const ClusterPlan plan = planner.plan_cluster(build_cluster_model(s), kNow);
  ASSERT_EQ(plan.groups.size(), 1u);
  expect_reserved(plan.groups[0], 3, kNow + 600, 0);
  const Reservation* r = reservation_of(plan.groups[0], 3);
  ASSERT_NE(r, nullptr);
  ASSERT_EQ(r->allocation->shares.size(), 2u);
  EXPECT_EQ(r->allocation->shares[1].node, 1u);
}

// A job queued in a partition with MaxCPUsPerNode and one without, on the same 16-CPU node,
// runs in the one it is planned in and holds only that partition's cap: cpu (cap 12) and
// gpu (none) over n0; J (-p cpu,gpu, 16 tasks, one node) does not fit under cpu's cap but
// starts now in gpu. Before, it counted against cpu's cap in gpu too and never fit.
TEST(PlanCluster, JobInSeveralPartitionsHoldsOnlyItsPartitionsCap) {
  ClusterSnapshot s;
  s.now = kNow;
  s.nodes = {node("n0", 16)};
  PartitionRecord cpu = partition("cpu", {0});
  cpu.max_cpus_per_node = 12;
  s.partitions = {cpu, partition("gpu", {0})};
  JobRecord j = waiting(1, 16, 600, {"cpu", "gpu"}, 100);
  j.request.max_nodes = 1;
  s.waiting = {j};
  Planner planner(config_with("easy"));
  const ClusterPlan plan = planner.plan_cluster(build_cluster_model(s), kNow);
  ASSERT_TRUE(starts(plan.groups[0], 1));
  EXPECT_EQ(plan.groups[0].decision.start_allocations.at(0)->partition, 1) << "in gpu";
}

// The live case of t_live_multi_partition (partition_cap): three nodes of 4 CPUs in cap
// (MaxCPUsPerNode=2) and all. X (cap, 2 CPUs of n2) fills n2's cap; A holds n0 until 180,
// B n1 until 1800. H (6 CPUs, cap and all) fits in all at A's end (n0's 4 and n2's 2);
// in cap only when B ends. So it is reserved at 180 in all, on n0 and n2.
TEST(PlanCluster, JobInSeveralPartitionsIsReservedInTheUncappedOne) {
  ClusterSnapshot s;
  s.now = kNow;
  s.nodes = {node("n0", 4), node("n1", 4), node("n2", 4)};
  PartitionRecord cap = partition("cap", {0, 1, 2});
  cap.max_cpus_per_node = 2;
  s.partitions = {cap, partition("all", {0, 1, 2})};
  JobRecord x = running(1, {{2, 2, 0, {}}}, 0, 1800);
  x.partition = "cap";
  JobRecord a = running(2, {{0, 4, 0, {}}}, 0, 180);
  a.partition = "all";
  JobRecord b = running(3, {{1, 4, 0, {}}}, 0, 1800);
  b.partition = "all";
  s.running = {x, a, b};
  s.waiting = {waiting(4, 6, 300, {"cap", "all"}, 100)};
  Planner planner(config_with("easy"));
  const ClusterPlan plan = planner.plan_cluster(build_cluster_model(s), kNow);
  ASSERT_EQ(plan.groups.size(), 1u);
  expect_reserved(plan.groups[0], 4, kNow + 180, 0);
  const Reservation* r = reservation_of(plan.groups[0], 4);
  ASSERT_TRUE(r && r->allocation);
  EXPECT_EQ(r->allocation->partition, 1) << "in all";
}

// A partition's MaxNodes caps the nodes a job gets there (select_nodes). serial = {n0, n1}
// with MaxNodes=1, 8 CPUs each, 4 of each held (n0 until 600, n1 until 1200). J asks 8
// tasks: 4 + 4 now is two nodes, so it waits for one node of 8: n0 at 600. Without the
// cap (control) it starts now on both.
TEST(PlanCluster, PartitionMaxNodesCapsTheNodesAJobGets) {
  for (int max_nodes : {1, 0}) {
    ClusterSnapshot s;
    s.now = kNow;
    s.nodes = {node("n0", 8), node("n1", 8)};
    PartitionRecord serial = partition("serial", {0, 1});
    serial.max_nodes = max_nodes;
    s.partitions = {serial};
    s.running = {running(1, {{0, 4, 0, {}}}, 0, 600), running(2, {{1, 4, 0, {}}}, 0, 1200)};
    s.waiting = {waiting(3, 8, 3000, {"serial"}, 100)};
    Planner planner(config_with("easy"));
    const ClusterPlan plan = planner.plan_cluster(build_cluster_model(s), kNow);
    if (max_nodes == 1) {
      expect_reserved(plan.groups[0], 3, kNow + 600, 0);
      const Reservation* r = reservation_of(plan.groups[0], 3);
      ASSERT_TRUE(r && r->allocation);
      EXPECT_EQ(r->allocation->shares.size(), 1u);
    } else {
      EXPECT_TRUE(starts(plan.groups[0], 3));
    }
  }
}

// A job queued in partitions that share no node links them into one plan: A = {n0} (held
// until 600), B = {n1} idle; J (-p A,B, 8 CPUs) starts now on n1, planned in B (the
// allocation names the partition, so the start uses B's record). Before the link, J was
// planned in its first partition's plan only and reserved on n0 at 600.
TEST(PlanCluster, JobQueuedInDisjointPartitionsLinksThem) {
  ClusterSnapshot s;
  s.now = kNow;
  s.nodes = {node("n0", 8), node("n1", 8)};
  s.partitions = {partition("A", {0}), partition("B", {1})};
  s.running = {running(1, {{0, 8, 0, {}}}, 0, 600)};
  s.waiting = {waiting(2, 8, 3000, {"A", "B"}, 100)};
  Planner planner(config_with("easy"));
  const ClusterPlan plan = planner.plan_cluster(build_cluster_model(s), kNow);
  ASSERT_EQ(plan.groups.size(), 1u);
  ASSERT_TRUE(starts(plan.groups[0], 2));
  const Allocation& a = *plan.groups[0].decision.start_allocations.at(0);
  EXPECT_EQ(a.shares.at(0).node, 1u);
  EXPECT_EQ(a.partition, 1) << "planned in B";
}

// Plans of partition sets keep their policy's memory while the set stays, and a policy whose
// set merged into another is dropped, so it never comes back with stale memory. a = {n0},
// b = {n1} (4 CPUs each), timed-run with 10-s trials. At 0 X (b) starts on trial. At 5 jobs
// of a and b ask for the same licence: one plan for both (a new policy: X unknown to it,
// so committed). At 20 those are gone and Y (b, 4 CPUs) waits: b's plan is a new policy,
// X stays committed and is not killed. Before, b's policy of 0 came back at 20, still
// holding X's trial, and killed it (terminable since 10).
TEST(PlanCluster, MergedPartitionSetsDropTheirPoliciesMemory) {
  Config c = config_with("timed-run:base=fcfs:trial=10");
  c.requeue_partitions = {"a", "b"};
  Planner planner(c);
  auto snapshot = [](Time now) {
    ClusterSnapshot s;
    s.now = now;
    s.nodes = {node("n0", 4), node("n1", 4)};
    s.partitions = {partition("a", {0}), partition("b", {1})};
    s.licences = {{"lic", 2}};
    return s;
  };
  ClusterSnapshot s = snapshot(kNow);
  JobRecord x = waiting(1, 2, 600, {"b"}, 100);
  x.requeueable = true;
  s.waiting = {x};
  ClusterPlan plan = planner.plan_cluster(build_cluster_model(s), kNow);
  ASSERT_EQ(plan.groups.size(), 2u);
  ASSERT_TRUE(starts(plan.groups[1], 1)) << "X's trial";
  JobRecord xr = running(1, {{1, 2, 0, {}}}, 0, 600);
  xr.requeueable = true;
  xr.partition = "b";
  s = snapshot(kNow + 5);
  s.running = {xr};
  JobRecord la = waiting(2, 8, 600, {"a"}, 50), lb = waiting(3, 8, 600, {"b"}, 40);
  la.request.licences = lb.request.licences = {{"lic", 1}};
  s.waiting = {la, lb};
  plan = planner.plan_cluster(build_cluster_model(s), kNow + 5);
  ASSERT_EQ(plan.groups.size(), 1u) << "linked by the licence";
  s = snapshot(kNow + 20);
  s.running = {xr};
  JobRecord y = waiting(4, 4, 60, {"b"}, 30);
  y.requeueable = true;
  s.waiting = {y};
  plan = planner.plan_cluster(build_cluster_model(s), kNow + 20);
  ASSERT_EQ(plan.groups.size(), 2u);
  EXPECT_TRUE(plan.groups[1].decision.kill_requeue.empty()) << "X is committed in b's new plan";
}

// Partitions that share no node are separate machines, each with its own plan and so its
// own EASY reservation (stock backfill reserves in every partition). A = {n0}, B = {n1},
// 8 CPUs each. RA holds all of n0 until 600, RB 4 of n1's CPUs until 600. HA (A, 8 CPUs)
// and HB (B, 8 CPUs) wait for them; SB (B, 4 CPUs, 20 min) fits now on n1 but would delay
// HB to 1200: it stays pending. Before, one plan for both reserved only HA (EASY reserves
// the first blocked job) and backfilled SB.
TEST(PlanCluster, DisjointPartitionsEachReserveTheirHead) {
  ClusterSnapshot s;
  s.now = kNow;
  s.nodes = {node("n0", 8), node("n1", 8)};
  s.partitions = {partition("A", {0}), partition("B", {1})};
  s.running = {running(1, {{0, 8, 0, {}}}, 0, 600), running(2, {{1, 4, 0, {}}}, 0, 600)};
  s.waiting = {waiting(3, 8, 3000, {"A"}, 100), waiting(4, 8, 3000, {"B"}, 90),
               waiting(5, 4, 1200, {"B"}, 10)};
  Planner planner(config_with("easy"));
  const ClusterPlan plan = planner.plan_cluster(build_cluster_model(s), kNow);
  ASSERT_EQ(plan.groups.size(), 2u);
  EXPECT_EQ(plan.groups[0].policy, "easy");
  EXPECT_EQ(plan.groups[1].policy, "easy");
  expect_reserved(plan.groups[0], 3, kNow + 600, 0);
  expect_reserved(plan.groups[1], 4, kNow + 600, 1);
  EXPECT_FALSE(starts(plan.groups[1], 5));
}

// Licences (Licenses=lic:2), held by running jobs until their planned ends. R (4 of n0's 8
// CPUs) holds lic:1 until now+600 (its limit; no history). H (4 CPUs, lic:2) fits the idle
// CPUs but waits for R's licence: reserved at now+600. L (1 CPU, lic:1, 20 min) fits now
// (CPUs and one free licence) and beside H at now+600 in CPUs, but would hold its licence
// then, when H needs both: pending. The 5-minute L ends first and starts.
TEST(PlanCluster, LicenceBoundHeadKeepsItsLicences) {
  for (Time l_limit : {Time{1200}, Time{300}}) {
    ClusterSnapshot s;
    s.now = kNow;
    s.nodes = {node("n0", 8)};
    s.partitions = {partition("p", {0})};
    s.running = {running(1, {{0, 4, 0, {}}}, 0, 600)};
    s.running[0].licences = {{"lic", 1}};
    JobRecord h = waiting(2, 4, 600, {"p"}, 100);  // 4 CPUs are free: only lic waits
    h.request.licences = {{"lic", 2}};
    JobRecord l = waiting(3, 1, l_limit, {"p"}, 50);
    l.request.licences = {{"lic", 1}};
    s.waiting = {h, l};
    s.licences = {{"lic", 2}};
    const ClusterModel m = build_cluster_model(s);
    ASSERT_EQ(m.machine.licences().size(), 1u);
    EXPECT_EQ(m.machine.licences()[0].count, 2);
    EXPECT_EQ(m.running.at(0).allocation->licences[0], 1);
    EXPECT_EQ(m.waiting.at(0).request->licences[0], 2);
    Planner planner(config_with("easy"));
    const ClusterPlan plan = planner.plan_cluster(m, kNow);
    ASSERT_EQ(plan.groups.size(), 1u);
    expect_reserved(plan.groups[0], 2, kNow + 600, 0);
    EXPECT_EQ(starts(plan.groups[0], 3), l_limit == 300) << "L limit " << l_limit;
  }
}

// A completing job (ended or killed; Slurm cleans up after it) is releasing in the model:
// the kill policies plan its share as free and never kill for it again.
TEST(ClusterModel, CompletingJobsAreReleasing) {
  ClusterSnapshot s;
  s.now = kNow;
  s.nodes = {node("n0", 8)};
  s.partitions = {partition("p", {0})};
  s.running = {running(1, {{0, 4, 0, {}}}, 0, 600), running(2, {{0, 4, 0, {}}}, 0, 600)};
  s.running[1].completing = true;
  const ClusterModel m = build_cluster_model(s);
  ASSERT_EQ(m.running.size(), 2u);
  EXPECT_FALSE(m.running[0].releasing);
  EXPECT_TRUE(m.running[1].releasing);
}

// --ntasks-per-node and --mincpus are per node, as cons_tres tests each node (pn_min_cpus
// free, at most ntasks_per_node tasks; job_test.c): worked out by hand.
// A: two 64-CPU nodes with 63 and 1 CPUs free, job -N2 --ntasks-per-node=32 (64 tasks,
//    pn_min_cpus 32): n1 has fewer than 32 free, so it may not start now (the whole job's
//    64 CPUs are free, 63 + 1, which is all a total count sees); reserved when R1 on n1
//    ends (600).
// B: n0 (64 CPUs) idle, n1..n3 (16 each) busy until 600: -n64 --ntasks-per-node=16 needs
//    4 nodes of 16, so not now on n0 alone: reserved at 600.
TEST(PlanCluster, TasksPerNodeAndCpusPerNodeArePerNode) {
  {
    ClusterSnapshot s;
    s.now = kNow;
    s.nodes = {node("n0", 64), node("n1", 64)};
    s.partitions = {partition("p", {0, 1})};
    s.running = {running(1, {{0, 1, 0, {}}}, 0, 3000), running(2, {{1, 63, 0, {}}}, 0, 600)};
    JobRecord j = waiting(3, 64, 600, {"p"}, 100);
    j.request.min_nodes = 2;
    j.request.cpus_per_node = 32;
    j.request.tasks_per_node = 32;
    s.waiting = {j};
    const ClusterModel m = build_cluster_model(s);
    EXPECT_EQ(m.waiting.at(0).request->min_cpus_per_node, 32);
    EXPECT_EQ(m.waiting.at(0).request->max_tasks_per_node, 32);
    Planner planner(config_with("easy"));
    const ClusterPlan plan = planner.plan_cluster(m, kNow);
    expect_reserved(plan.groups[0], 3, kNow + 600, 0);
  }
  {
    ClusterSnapshot s;
    s.now = kNow;
    s.nodes = {node("n0", 64), node("n1", 16), node("n2", 16), node("n3", 16)};
    s.partitions = {partition("p", {0, 1, 2, 3})};
    s.running = {running(1, {{1, 16, 0, {}}, {2, 16, 0, {}}, {3, 16, 0, {}}}, 0, 600)};
    JobRecord j = waiting(3, 64, 600, {"p"}, 100);
    j.request.tasks_per_node = 16;
    s.waiting = {j};
    const ClusterModel m = build_cluster_model(s);
    EXPECT_EQ(m.waiting.at(0).request->min_nodes, 4);
    Planner planner(config_with("easy"));
    const ClusterPlan plan = planner.plan_cluster(m, kNow);
    expect_reserved(plan.groups[0], 3, kNow + 600, 0);
    const Reservation* r = reservation_of(plan.groups[0], 3);
    ASSERT_NE(r, nullptr);
    ASSERT_EQ(r->allocation->shares.size(), 4u);
    for (const NodeShare& sh : r->allocation->shares) EXPECT_EQ(sh.tasks, 16) << "node " << sh.node;
  }
}

// The kinds a plan may count are few: licences past them are left to select_nodes, noted
// once each.
TEST(ClusterModel, LicencesPastTheLimitAreNoted) {
  ClusterSnapshot s;
  s.now = kNow;
  s.nodes = {node("n0", 8)};
  s.partitions = {partition("p", {0})};
  JobRecord w = waiting(2, 1, 600, {"p"}, 100);
  for (std::size_t k = 0; k <= kMaxResourceKinds; ++k) {
    s.licences.push_back({"lic" + std::to_string(k), 1});
    w.request.licences.push_back({"lic" + std::to_string(k), 1});
  }
  s.waiting = {w};
  const ClusterModel m = build_cluster_model(s);
  EXPECT_EQ(m.machine.licences().size(), kMaxResourceKinds);
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_NE(m.notes[0].find("licence lic8 not planned"), std::string::npos) << m.notes[0];
  EXPECT_EQ(m.waiting.at(0).request->licences[kMaxResourceKinds - 1], 1);
}

// The cluster of the MaxCPUsPerNode cases: g1 (12 CPUs) in cpu (MaxCPUsPerNode=8) and
// gpu, c1 (8 CPUs) in cpu only; nothing running or waiting yet.
ClusterSnapshot gpu_node_shared_with_capped_cpu() {
  ClusterSnapshot s;
  s.now = kNow;
  s.nodes = {node("g1", 12), node("c1", 8)};
  s.partitions = {partition("cpu", {0, 1}), partition("gpu", {0})};
  s.partitions[0].max_cpus_per_node = 8;
  return s;
}

// MaxCPUsPerNode (a GPU node shared with a CPU partition capped at 8 of its 12 CPUs, as
// sites keep cores for GPU jobs; the cap holds on every node of the partition): g1 (12
// CPUs) is in cpu (cap 8) and gpu, c1 (8 CPUs) in cpu only. R (cpu, 8 CPUs on g1) runs until
// now+600, A (cpu, 8 CPUs on c1) until now+3600. W (cpu, 2 CPUs) cannot start on g1's 4 idle
// CPUs: R holds the partition's 8. It is reserved on g1 at now+600. G (gpu, 2 CPUs, 10 min)
// starts on g1 (W still fits there at now+600).
TEST(PlanCluster, PartitionCpuCapKeepsItsJobsOffTheRestOfANode) {
  ClusterSnapshot s = gpu_node_shared_with_capped_cpu();
  s.running = {running(1, {{0, 8, 0, {}}}, 0, 600), running(2, {{1, 8, 0, {}}}, 0, 3600)};
  s.running[0].partition = "cpu";
  s.running[1].partition = "cpu";
  s.waiting = {waiting(3, 2, 600, {"cpu"}, 100), waiting(4, 2, 600, {"gpu"}, 90)};
  const ClusterModel m = build_cluster_model(s);
  const int k = m.machine.find_resource("cpus@cpu");
  ASSERT_GE(k, 0);
  const auto cap = static_cast<std::size_t>(k);
  EXPECT_EQ(m.machine.nodes()[0].capacity[cap], 8);
  EXPECT_EQ(m.machine.nodes()[1].capacity[cap], 8);
  EXPECT_EQ(m.running.at(0).allocation->shares.at(0).amount[cap], 8);
  EXPECT_EQ(m.waiting.at(0).request->per_task[cap], 1);
  EXPECT_EQ(m.waiting.at(1).request->per_task[cap], 0) << "gpu: no cap";
  Planner planner(config_with("easy"));
  const ClusterPlan plan = planner.plan_cluster(m, kNow);
  ASSERT_EQ(plan.groups.size(), 1u);
  const GroupPlan& g = plan.groups[0];
  expect_reserved(g, 3, kNow + 600, 0);
  EXPECT_TRUE(starts(g, 4));
}

// The cap moves a head to where it can run: R (cpu, 4 CPUs on g1) until now+3600, B (gpu, 4
// CPUs on g1) until now+600, A (cpu, 8 CPUs on c1) until now+1200. H (cpu, 8 CPUs on one
// node) would fit g1's 8 free CPUs at now+600, but R holds 4 of the partition's 8 there:
// it is planned on c1 at now+1200.
TEST(PlanCluster, PartitionCpuCapPlansTheHeadWhereItCanRun) {
  ClusterSnapshot s = gpu_node_shared_with_capped_cpu();
  s.running = {running(1, {{0, 4, 0, {}}}, 0, 3600), running(2, {{0, 4, 0, {}}}, 0, 600),
               running(3, {{1, 8, 0, {}}}, 0, 1200)};
  s.running[0].partition = "cpu";
  s.running[1].partition = "gpu";
  s.running[2].partition = "cpu";
  s.waiting = {waiting(5, 8, 600, {"cpu"}, 100)};
  s.waiting[0].request.max_nodes = 1;
  const ClusterModel m = build_cluster_model(s);
  Planner planner(config_with("easy"));
  const ClusterPlan plan = planner.plan_cluster(m, kNow);
  expect_reserved(plan.groups.at(0), 5, kNow + 1200, 1);
}

// A whole-node job (--exclusive) never runs on a node its partition's cap keeps below the
// node's CPUs (cons_tres refuses it): g1 (12 CPUs, cap 8) is idle, c1 (8) busy until
// now+1200. X (cpu, --exclusive) is reserved on c1, not started on g1; queued in gpu too
// (uncapped on g1), it starts on g1.
TEST(PlanCluster, PartitionCpuCapKeepsWholeNodeJobsOffLargerNodes) {
  for (bool also_gpu : {false, true}) {
    ClusterSnapshot s = gpu_node_shared_with_capped_cpu();
    s.running = {running(1, {{1, 8, 0, {}}}, 0, 1200)};
    s.running[0].partition = "cpu";
    JobRecord x = waiting(2, 1, 600, also_gpu ? std::vector<std::string>{"cpu", "gpu"}
                                              : std::vector<std::string>{"cpu"}, 100);
    x.request.exclusive = true;
    s.waiting = {x};
    const ClusterModel m = build_cluster_model(s);
    Planner planner(config_with("easy"));
    const ClusterPlan plan = planner.plan_cluster(m, kNow);
    if (also_gpu)
      EXPECT_TRUE(starts(plan.groups.at(0), 2));
    else
      expect_reserved(plan.groups.at(0), 2, kNow + 1200, 1);
  }
}

// The cap counts whole cores, as the CPUs do (CR_Core, 2 threads per core): g1 (12 CPUs)
// in cpu (cap 8); R (cpu) holds 6. W1 and W2 (cpu, 1 CPU each) would fit the 2 CPUs left
// under the cap, but W1 takes a whole core (2 CPUs): W2 does not start now.
TEST(PlanCluster, PartitionCpuCapCountsWholeCores) {
  ClusterSnapshot s;
  s.now = kNow;
  s.nodes = {node("g1", 12)};
  s.nodes[0].cpu_unit = 2;
  s.partitions = {partition("cpu", {0})};
  s.partitions[0].max_cpus_per_node = 8;
  s.running = {running(1, {{0, 6, 0, {}}}, 0, 600)};
  s.running[0].partition = "cpu";
  s.waiting = {waiting(2, 1, 1200, {"cpu"}, 100), waiting(3, 1, 1200, {"cpu"}, 90)};
  const ClusterModel m = build_cluster_model(s);
  Planner planner(config_with("easy"));
  const ClusterPlan plan = planner.plan_cluster(m, kNow);
  const GroupPlan& g = plan.groups.at(0);
  EXPECT_TRUE(starts(g, 2));
  EXPECT_FALSE(starts(g, 3));
  ASSERT_EQ(g.decision.start_allocations.size(), 1u);
  const int k = m.machine.find_resource("cpus@cpu");
  ASSERT_GE(k, 0);
  EXPECT_EQ(g.decision.start_allocations[0]->shares.at(0).amount[static_cast<std::size_t>(k)], 2);
}

// One thread per core from the job record: n0 has 4 cores x 2 threads (CR_Core). R holds
// 2 cores until now+600; H (5 tasks = 3 cores) is reserved then. B (-n2
// --threads-per-core=1) and C (-n2 --ntasks-per-core=1) take a core per task, 2 each:
// either fits now but would leave H 2 cores at now+600, so both wait. (Read as 2 CPUs, one
// core, B was backfilled and H waited for its end.)
TEST(PlanCluster, OneThreadPerCoreRequestsAreCountedInCores) {
  ClusterSnapshot s;
  s.now = kNow;
  s.nodes = {node("n0", 8)};
  s.nodes[0].cpu_unit = 2;
  s.nodes[0].threads_per_core = 2;
  s.partitions = {partition("p", {0})};
  s.running = {running(1, {{0, 4, 0, {}}}, 0, 600)};
  s.running[0].partition = "p";
  JobRecord b = waiting(3, 2, 3600, {"p"}, 90);
  b.request.threads_per_core = 1;
  JobRecord c = waiting(4, 2, 3600, {"p"}, 80);
  c.request.tasks_per_core = 1;
  s.waiting = {waiting(2, 5, 1200, {"p"}, 100), b, c};
  const ClusterModel m = build_cluster_model(s);
  EXPECT_EQ(m.machine.nodes().at(0).threads_per_core, 2);
  EXPECT_EQ(request_of(b.request, m.machine).threads_per_core, 1);
  EXPECT_EQ(request_of(c.request, m.machine).tasks_per_core, 1);
  Planner planner(config_with("easy"));
  const ClusterPlan plan = planner.plan_cluster(m, kNow);
  const GroupPlan& g = plan.groups.at(0);
  expect_reserved(g, 2, kNow + 600, 0);
  EXPECT_FALSE(starts(g, 3)) << "B's 2 cores would delay the head";
  EXPECT_FALSE(starts(g, 4)) << "C's 2 cores would delay the head";
}

// A cap every node of its partition is within needs no resource kind of its own.
TEST(ClusterModel, PartitionCpuCapAboveEveryNodeIsNotPlanned) {
  ClusterSnapshot s;
  s.now = kNow;
  s.nodes = {node("n0", 8)};
  s.partitions = {partition("p", {0})};
  s.partitions[0].max_cpus_per_node = 8;
  s.waiting = {waiting(2, 1, 600, {"p"}, 100)};
  const ClusterModel m = build_cluster_model(s);
  EXPECT_LT(m.machine.find_resource("cpus@p"), 0);
  EXPECT_TRUE(m.notes.empty());
}

// A 4-GPU head behind 1-GPU jobs: n0 has 4 GPUs and 32 CPUs, one GPU is in use until
// now+600. H (1 CPU, 4 GPUs) is reserved at now+600. G (1 CPU, 1 GPU, 20 min) would hold
// a GPU past now+600: pending, although 3 GPUs and 31 CPUs are idle.
TEST(PlanCluster, GpuHeadIsNotStarvedByOneGpuJobs) {
  ClusterSnapshot s;
  s.now = kNow;
  s.nodes = {node("n0", 32, 0, {{"gpu", 4}})};
  s.partitions = {partition("p", {0})};
  s.running = {running(1, {{0, 1, 0, {{"gpu", 1}}}}, 0, 600)};
  JobRecord h = waiting(2, 1, 600, {"p"}, 100);
  h.request.gres_per_node = {{"gpu", 4}};
  JobRecord g = waiting(3, 1, 1200, {"p"}, 50);
  g.request.gres_per_node = {{"gpu", 1}};
  JobRecord cpu = waiting(4, 8, 1200, {"p"}, 40);  // no GPU: starts
  s.waiting = {h, g, cpu};
  const ClusterModel m = build_cluster_model(s);
  Planner planner(config_with("easy"));
  const ClusterPlan plan = planner.plan_cluster(m, kNow);
  const Reservation* r = reservation_of(plan.groups[0], 2);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->start, kNow + 600);
  EXPECT_FALSE(starts(plan.groups[0], 3));
  EXPECT_TRUE(starts(plan.groups[0], 4));
}

// --cpus-per-gpu (or DefCpuPerGPU): cons_tres needs that many CPUs per GPU on each node
// (min_gres_cpu). n0: 8 CPUs, 4 GPUs; a CPU job holds 7 CPUs until 600. G asks 4 GPUs
// and 2 CPUs per GPU: 8 CPUs, so not now beside it (1 CPU free), but at 600; without
// CPUs per GPU it starts now.
TEST(PlanCluster, CpusPerGpuArePlannedPerNode) {
  for (int cpus_per_gpu : {2, 0}) {
    ClusterSnapshot s;
    s.now = kNow;
    s.nodes = {node("n0", 8, 0, {{"gpu", 4}})};
    s.partitions = {partition("p", {0})};
    s.running = {running(1, {{0, 7, 0, {}}}, 0, 600)};
    JobRecord g = waiting(2, 1, 600, {"p"}, 100);
    g.request.gres_per_node = {{"gpu", 4}};
    g.request.cpus_per_gres = cpus_per_gpu;
    s.waiting = {g};
    Planner planner(config_with("easy"));
    const ClusterPlan plan = planner.plan_cluster(build_cluster_model(s), kNow);
    if (cpus_per_gpu > 0)
      expect_reserved(plan.groups[0], 2, kNow + 600, 0);
    else
      EXPECT_TRUE(starts(plan.groups[0], 2));
  }
}

// --gpus=3 (per job) on nodes of 2 GPUs: Slurm adds nodes until the total is met (2 + 1
// on two nodes). The plan takes two nodes, 2 GPUs each (ceil(3 / 2)), and starts it on
// the idle pair; before, it asked 3 on one node and never started. --gpus=5 does not fit
// the two nodes at all; with -N1 (max_nodes 1) --gpus=3 cannot be met either.
TEST(PlanCluster, GpusPerJobSpreadOverTheFewestNodes) {
  ClusterSnapshot s;
  s.now = kNow;
  s.nodes = {node("n0", 4, 0, {{"gpu", 2}}), node("n1", 4, 0, {{"gpu", 2}})};
  s.partitions = {partition("p", {0, 1})};
  JobRecord j = waiting(1, 2, 600, {"p"}, 100);
  j.request.gres_per_job = {{"gpu", 3}};
  s.waiting = {j};
  const ClusterModel m = build_cluster_model(s);
  const JobRequest& r = *m.waiting.at(0).request;
  EXPECT_EQ(r.min_nodes, 2);
  EXPECT_EQ(r.per_node[static_cast<std::size_t>(m.machine.find_resource("gpu"))], 2);
  Planner planner(config_with("easy"));
  const ClusterPlan plan = planner.plan_cluster(m, kNow);
  ASSERT_TRUE(starts(plan.groups[0], 1));
  EXPECT_EQ(plan.groups[0].decision.start_allocations.at(0)->shares.size(), 2u);
  JobRecord one_node = j;
  one_node.request.max_nodes = 1;
  const JobRequest limited = request_of(one_node.request, m.machine);
  EXPECT_EQ(limited.min_nodes, 1);
  EXPECT_EQ(limited.per_node[static_cast<std::size_t>(m.machine.find_resource("gpu"))], 3);
}

// The fewest nodes are counted on the nodes the job may use: partition "small" has two
// 2-GPU nodes, "big" one 4-GPU node. J (--gpus=4, in small) needs both small nodes, 2 each,
// and starts on them; counted on the 4-GPU node (before) it asked 4 of one small node and
// never started.
TEST(PlanCluster, GpusPerJobCountedOnTheJobsOwnPartitions) {
  ClusterSnapshot s;
  s.now = kNow;
  s.nodes = {node("n0", 4, 0, {{"gpu", 2}}), node("n1", 4, 0, {{"gpu", 2}}),
             node("n2", 4, 0, {{"gpu", 4}})};
  s.partitions = {partition("small", {0, 1}), partition("big", {2})};
  JobRecord j = waiting(1, 2, 600, {"small"}, 100);
  j.request.gres_per_job = {{"gpu", 4}};
  s.waiting = {j};
  const ClusterModel m = build_cluster_model(s);
  const JobRequest& r = *m.waiting.at(0).request;
  EXPECT_EQ(r.min_nodes, 2);
  EXPECT_EQ(r.per_node[static_cast<std::size_t>(m.machine.find_resource("gpu"))], 2);
  Planner planner(config_with("easy"));
  const ClusterPlan plan = planner.plan_cluster(m, kNow);
  bool started = false;
  for (const auto& group : plan.groups) started = started || starts(group, 1);
  EXPECT_TRUE(started);
  JobRecord in_big = j;
  in_big.request.partitions = {"big"};
  const JobRequest big = request_of(in_big.request, m.machine);
  EXPECT_EQ(big.min_nodes, 1);
  EXPECT_EQ(big.per_node[static_cast<std::size_t>(m.machine.find_resource("gpu"))], 4);
}

// An advance reservation "maint" on n1 during [now+100, now+1000); n0 is busy until
// now+3000. J (8 CPUs, 10 min) cannot start on n1 now (it would run into maint): its
// earliest start is maint's end, now+1000. R names maint: it plans inside it, at now+100.
TEST(PlanCluster, AdvanceReservationsAreWindows) {
  for (bool in_reservation : {false, true}) {
    ClusterSnapshot s;
    s.now = kNow;
    s.nodes = {node("n0", 8), node("n1", 8)};
    s.partitions = {partition("p", {0, 1})};
    s.reservations = {ReservationRecord{"maint", kNow + 100, kNow + 1000, {1}, {}, false}};
    s.running = {running(1, {{0, 8, 0, {}}}, 0, 3000)};
    JobRecord j = waiting(2, 8, 600, {"p"}, 100);
    if (in_reservation) j.request.reservation = "maint";
    s.waiting = {j};
    const ClusterModel m = build_cluster_model(s);
    Planner planner(config_with("easy"));
    const ClusterPlan plan = planner.plan_cluster(m, kNow);
    EXPECT_FALSE(starts(plan.groups[0], 2));
    const Reservation* r = reservation_of(plan.groups[0], 2);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->start, in_reservation ? kNow + 100 : kNow + 1000);
    EXPECT_EQ(r->allocation->shares.at(0).node, 1u);
  }
}

// An advance reservation of licences only (Slurm requires ANY_NODES for one without
// nodes): "class" holds both lic from kNow+300 to kNow+900. Worked out by hand, as Slurm's
// licence test counts it (job_test_lic_resv: every reservation overlapping the job's
// time up to its limit keeps all its licences from jobs outside it):
// - J outside it (1 CPU, lic:1, 600 s) may not run into it: [t, t+600) must miss
//   [300, 900), so its earliest start is 900; with a 200-s limit it starts now;
// - J inside it runs on any node, from the reservation's start: 300.
TEST(PlanCluster, ReservationLicencesAreKeptFromJobsOutsideIt) {
  for (bool inside : {false, true}) {
    for (Time limit : {Time{600}, Time{200}}) {
      ClusterSnapshot s;
      s.now = kNow;
      s.nodes = {node("n0", 8)};
      s.partitions = {partition("p", {0})};
      s.reservations = {ReservationRecord{"class", kNow + 300, kNow + 900, {}, {{"lic", 2}}, true}};
      JobRecord j = waiting(2, 1, limit, {"p"}, 100);
      j.request.licences = {{"lic", 1}};
      if (inside) j.request.reservation = "class";
      s.waiting = {j};
      s.licences = {{"lic", 2}};
      const ClusterModel m = build_cluster_model(s);
      ASSERT_EQ(m.machine.reservation_spans().size(), 1u);
      EXPECT_EQ(m.machine.reservation_spans()[0].licences[0], 2);
      Planner planner(config_with("easy"));
      const ClusterPlan plan = planner.plan_cluster(m, kNow);
      const std::string what = std::string(inside ? "inside" : "outside") + ", limit " +
                               std::to_string(limit);
      if (inside) {
        expect_reserved(plan.groups[0], 2, kNow + 300, 0);
      } else if (limit == 600) {
        expect_reserved(plan.groups[0], 2, kNow + 900, 0);
      } else {
        EXPECT_TRUE(starts(plan.groups[0], 2)) << what;
      }
    }
  }
}

// The same reservation behind a head already reserved (conservative: the plan is no
// longer monotone, so the general search decides). n0 has 16 CPUs, R holds 8 until 1200,
// head H (16 CPUs, 600 s) is reserved at [1200, 1800). J (1 CPU, lic:1, 600 s) outside
// "class": 900 would run into H, so 1800; inside it: 300 (8 CPUs free until 1200).
TEST(PlanCluster, ReservationLicencesBehindAReservedHead) {
  for (bool inside : {false, true}) {
    ClusterSnapshot s;
    s.now = kNow;
    s.nodes = {node("n0", 16)};
    s.partitions = {partition("p", {0})};
    s.reservations = {ReservationRecord{"class", kNow + 300, kNow + 900, {}, {{"lic", 2}}, true}};
    s.running = {running(1, {{0, 8, 0, {}}}, 0, 1200)};
    JobRecord j = waiting(3, 1, 600, {"p"}, 50);
    j.request.licences = {{"lic", 1}};
    if (inside) j.request.reservation = "class";
    s.waiting = {waiting(2, 16, 600, {"p"}, 100), j};
    s.licences = {{"lic", 2}};
    Planner planner(config_with("conservative"));
    const ClusterPlan plan = planner.plan_cluster(build_cluster_model(s), kNow);
    expect_reserved(plan.groups[0], 2, kNow + 1200, 0);
    expect_reserved(plan.groups[0], 3, inside ? kNow + 300 : kNow + 1800, 0);
  }
}

// Partition policies: a partition with its own policy planned alone when it shares no
// node (solo), with the global policy when it does (shared overlaps main).
TEST(PlanCluster, PartitionPoliciesOnlyForDisjointPartitions) {
  Config c = config_with("easy++");
  c.partition_policy = {{"solo", "easy"}, {"shared", "conservative"}};
  ClusterSnapshot s;
  s.now = kNow;
  s.nodes = {node("n0", 8), node("n1", 8), node("n2", 8)};
  s.partitions = {partition("main", {0, 1}), partition("shared", {1}), partition("solo", {2})};
  s.waiting = {waiting(1, 8, 60, {"solo"}, 10), waiting(2, 8, 60, {"shared"}, 5),
               waiting(3, 4, 60, {"main", "solo"}, 1)};
  const ClusterModel m = build_cluster_model(s);
  Planner planner(c);
  const ClusterPlan plan = planner.plan_cluster(m, kNow);
  ASSERT_EQ(plan.groups.size(), 2u);
  EXPECT_EQ(plan.groups[0].policy, "easy++");
  EXPECT_EQ(plan.groups[0].partitions, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(plan.groups[1].policy, "easy");
  EXPECT_EQ(plan.groups[1].partitions, (std::vector<std::size_t>{2}));
  ASSERT_EQ(plan.notes.size(), 1u);
  EXPECT_NE(plan.notes[0].find("shared"), std::string::npos);
  EXPECT_TRUE(starts(plan.groups[1], 1));
  EXPECT_TRUE(starts(plan.groups[0], 2));
  EXPECT_TRUE(starts(plan.groups[0], 3)) << "planned in its first partition's group";
  ASSERT_EQ(plan.groups[0].decision.start_allocations.size(), 2u);
  EXPECT_NE(plan.groups[0].decision.start_allocations[1]->shares.at(0).node, 2u)
      << "never on solo's node from the main group";
}

// Licences are the cluster's: a partition with its own policy whose waiting jobs ask for a
// licence jobs of another partition ask for too is planned with the global policy, so no
// group takes a licence another group's reservation needs; when only it asks, alone.
TEST(PlanCluster, PartitionsAskingTheSameLicenceArePlannedTogether) {
  Config c = config_with("easy++");
  c.partition_policy = {{"solo", "easy"}};
  for (bool main_asks : {true, false}) {
    ClusterSnapshot s;
    s.now = kNow;
    s.nodes = {node("n0", 8), node("n1", 8)};
    s.partitions = {partition("main", {0}), partition("solo", {1})};
    s.licences = {{"lic", 2}};
    JobRecord a = waiting(1, 8, 60, {"solo"}, 10);
    a.request.licences = {{"lic", 1}};
    JobRecord b = waiting(2, 8, 60, {"main"}, 5);
    if (main_asks) b.request.licences = {{"lic", 1}};
    s.waiting = {a, b};
    const ClusterModel m = build_cluster_model(s);
    Planner planner(c);
    const ClusterPlan plan = planner.plan_cluster(m, kNow);
    if (main_asks) {
      ASSERT_EQ(plan.groups.size(), 1u);
      EXPECT_EQ(plan.groups[0].partitions, (std::vector<std::size_t>{0, 1}));
      ASSERT_EQ(plan.notes.size(), 1u);
      EXPECT_NE(plan.notes[0].find("licences"), std::string::npos) << plan.notes[0];
    } else {
      ASSERT_EQ(plan.groups.size(), 2u);
      EXPECT_EQ(plan.groups[1].policy, "easy");
      EXPECT_TRUE(plan.notes.empty());
    }
  }
}

// Timed passes (issue 18): the plan carries the earliest wake-up any group's policy asked
// for. Two disjoint partitions under mq-vd (paper 001's variable delay; D_1 cut from the
// paper's 2500 s by delay=): main with D_1 = 300 s, solo with D_1 = 150 s. Each holds one
// extra-long job (limit 20000 s > the last queue limit, 10000 s) submitted 100 s ago on an
// idle node: main's is released at now-100+300 = now+200, solo's at now-100+150 = now+50.
// Neither starts now; the plan asks to plan again at now+50, the earlier of the two.
TEST(PlanCluster, EarliestWakeUpOfTheGroups) {
  Config c = config_with("mq-vd:delay=300");
  c.partition_policy = {{"solo", "mq-vd:delay=150"}};
  ClusterSnapshot s;
  s.now = kNow;
  s.nodes = {node("n0", 8), node("n1", 8)};
  s.partitions = {partition("main", {0}), partition("solo", {1})};
  s.waiting = {waiting(1, 8, 20000, {"main"}, 10), waiting(2, 8, 20000, {"solo"}, 5)};
  const ClusterModel m = build_cluster_model(s);
  Planner planner(c);
  const ClusterPlan plan = planner.plan_cluster(m, kNow);
  ASSERT_EQ(plan.groups.size(), 2u);
  EXPECT_EQ(plan.groups[0].decision.wake_at, kNow + 200);
  EXPECT_EQ(plan.groups[1].decision.wake_at, kNow + 50);
  EXPECT_EQ(plan.wake_at, kNow + 50);
  EXPECT_FALSE(starts(plan.groups[0], 1));
  EXPECT_FALSE(starts(plan.groups[1], 2));
  // At solo's release its job starts; main's still waits, and is what the plan asks for.
  const ClusterPlan later = planner.plan_cluster(m, kNow + 50);
  EXPECT_TRUE(starts(later.groups[1], 2));
  EXPECT_EQ(later.wake_at, kNow + 200);
}

// Every core policy plans a Machine's nodes (mq included, issue 13): the plugin plans
// every partition on nodes and has no per-partition CPU-count plan to fall back to. A
// pool-only policy would refuse a state with a Machine (std::invalid_argument).
TEST(PlanCluster, EveryPolicyPlansOnNodes) {
  const Machine machine = Machine::single_node(4);
  for (const std::string& name : policy_names()) {
    ClusterState state;
    state.now = kNow;
    state.procs = 4;
    state.machine = &machine;
    EXPECT_NO_THROW(make_policy(name)->plan(state)) << name;
  }
}

// Only jobs Slurm would requeue, in partitions the administrator opted in, reach the
// policy as requeueable: a running job by the partition it runs in, a waiting one only if
// every partition it is queued in opted in. The flag and restart count reach JobFacts.
TEST(RequeueOptIn, KeepsTheFlagOnlyInOptedInPartitions) {
  ClusterSnapshot snap;
  snap.nodes.push_back(NodeRecord{"n1", 8, 0, {}, {}, true});
  snap.partitions.push_back(PartitionRecord{"p", {0}, false});
  snap.partitions.push_back(PartitionRecord{"q", {0}, false});
  auto running = [](JobId id, const char* part, bool slurm_would) {
    JobRecord r;
    r.id = id;
    r.requeueable = slurm_would;
    r.partition = part;
    r.restarts = 2;
    r.shares.push_back(ShareRecord{0, 1, 0, {}});
    return r;
  };
  snap.running = {running(1, "p", true), running(2, "q", true), running(3, "p", false)};
  JobRecord w;
  w.id = 4;
  w.requeueable = true;
  w.request.partitions = {"p", "q"};
  snap.waiting.push_back(w);
  w.id = 5;
  w.request.partitions = {"p"};
  snap.waiting.push_back(w);
  apply_requeue_opt_in(snap, {"p"});
  const ClusterModel m = build_cluster_model(snap);
  ASSERT_EQ(m.running.size(), 3u);
  EXPECT_TRUE(m.running[0].requeueable);
  EXPECT_FALSE(m.running[1].requeueable) << "q did not opt in";
  EXPECT_FALSE(m.running[2].requeueable) << "Slurm would not requeue it (--no-requeue)";
  EXPECT_EQ(m.running[0].restarts, 2);
  ASSERT_EQ(m.waiting.size(), 2u);
  EXPECT_FALSE(m.waiting[0].requeueable) << "queued in q too";
  EXPECT_TRUE(m.waiting[1].requeueable);
}

}  // namespace
}  // namespace easypp::plugin
