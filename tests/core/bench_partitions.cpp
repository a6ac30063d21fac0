// One planning pass of jobs queued in several partitions (NodePlan plans each partition
// as a choice of its own): 64 nodes of 32 CPUs in two overlapping partitions (cpu: nodes
// 0-47, MaxNodes 8; gpu: nodes 32-63), 60 running jobs of one node each, 500 waiting jobs
// queued in both. easy++ places most of them now or not at all; conservative asks each
// one's earliest start as well.
#include <benchmark/benchmark.h>

#include <memory>

#include "bench_machine.h"

namespace easypp {
namespace {

constexpr int kNodes = 64;
constexpr int kCpus = 32;

struct Scenario {
  Machine machine;
  ClusterState state;
};

std::unique_ptr<Scenario> make_scenario(int nwaiting) {
  auto sc = std::make_unique<Scenario>();
  Machine& m = sc->machine;
  Resources capacity;
  capacity[kCpu] = kCpus;
  capacity[kMemory] = 128 * 1024;
  bench::add_nodes(m, kNodes, capacity);
  Partition cpu{.name = "cpu", .nodes = NodeSet(kNodes), .max_nodes = 8};
  Partition gpu{.name = "gpu", .nodes = NodeSet(kNodes)};
  for (NodeIndex n = 0; n < 48; ++n) cpu.nodes.insert(n);
  for (NodeIndex n = 32; n < kNodes; ++n) gpu.nodes.insert(n);
  m.add_partition(std::move(cpu));
  m.add_partition(std::move(gpu));
  bench::Uniform uniform;
  ClusterState& s = sc->state;
  s.now = 1'000'000;
  s.machine = &m;
  s.procs = kNodes * kCpus;
  JobId id = 1;
  for (NodeIndex n = 0; n < 60; ++n) {
    RunningJob r = bench::running(id++, s.now, 50, uniform);
    auto a = std::make_shared<Allocation>();
    Resources amount;
    amount[kCpu] = kCpus - uniform(0, 4);
    amount[kMemory] = uniform(1024, 64 * 1024);
    a->shares.push_back({n, static_cast<int>(amount[kCpu]), amount});
    r.job.procs = static_cast<int>(amount[kCpu]);
    r.allocation = std::move(a);
    s.running.push_back(r);
  }
  for (int i = 0; i < nwaiting; ++i) {
    JobRequest q;
    q.partitions = {0, 1};
    q.per_task[kCpu] = 1;
    if (uniform(0, 3) == 0) {  // whole-ish nodes
      q.min_nodes = static_cast<int>(uniform(1, 4));
      q.tasks = q.min_nodes * kCpus;
    } else {
      q.tasks = static_cast<int>(uniform(1, 64));
    }
    const int procs = static_cast<int>(q.min_cpus());
    s.waiting.push_back(bench::waiting(id++, s.now - 20'000 + i, procs, std::move(q), 50, uniform));
  }
  return sc;
}

void pass(benchmark::State& st, const char* policy_name) {
  const auto sc = make_scenario(500);
  const Decision d = bench::passes(st, policy_name, sc->state);
  st.counters["started"] = static_cast<double>(d.start.size());
  st.counters["reserved"] = static_cast<double>(d.reservations.size());
}

BENCHMARK_CAPTURE(pass, easy_plus_plus, "easy++")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(pass, conservative, "conservative")->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace easypp
