// One planning pass on a big machine of nodes (issue 13's target): 2,000 nodes of 64 CPUs,
// 256 GiB and 4 GPUs, 1,000 running jobs of 2 nodes each, 10,000 waiting jobs with mixed
// requests (CPU-only tasks, memory per node, GPUs per node, whole-node multi-node jobs).
// easy++ must stay <= 20 ms per pass. The same jobs as a pool of 128,000 processors
// (each job's CPUs only) are measured in the same run: the ratio is the cost of nodes.
// Two states: nearly full (a CPU or two idle on some nodes) and 10 % of nodes idle.
#include <benchmark/benchmark.h>

#include <memory>

#include "bench_machine.h"

namespace easypp {
namespace {

constexpr int kNodes = 2000;
constexpr int kCpus = 64;
constexpr std::int64_t kMem = 256 * 1024;

struct Scenario {
  Machine machine;
  ClusterState nodes;  // planned on the machine
  ClusterState pool;   // the same jobs as processor counts
};

std::unique_ptr<Scenario> make_scenario(bool idle_tenth, int nwaiting = 10'000) {
  auto sc = std::make_unique<Scenario>();
  Machine& m = sc->machine;
  const std::size_t gpu = m.resource_index("gpu");
  Resources capacity;
  capacity[kCpu] = kCpus;
  capacity[kMemory] = kMem;
  capacity[gpu] = 4;
  bench::add_nodes(m, kNodes, capacity);
  bench::Uniform uniform;
  ClusterState& s = sc->nodes;
  s.now = 1'000'000;
  s.machine = &m;
  s.procs = kNodes * kCpus;
  JobId id = 1;
  for (int i = 0; i < kNodes / 2; ++i) {
    if (idle_tenth && i % 10 == 0) continue;  // its two nodes stay idle
    RunningJob r = bench::running(id++, s.now, 500, uniform);
    auto a = std::make_shared<Allocation>();
    int cpus = 0;
    for (NodeIndex n : {static_cast<NodeIndex>(2 * i), static_cast<NodeIndex>(2 * i + 1)}) {
      Resources amount;
      amount[kCpu] = kCpus - (uniform(0, 3) == 0 ? uniform(1, 2) : 0);
      amount[kMemory] = uniform(kMem / 8, kMem);
      amount[gpu] = uniform(0, 4);
      cpus += static_cast<int>(amount[kCpu]);
      a->shares.push_back({n, static_cast<int>(amount[kCpu]), amount});
    }
    r.job.procs = cpus;
    r.allocation = std::move(a);
    s.running.push_back(r);
  }
  for (int i = 0; i < nwaiting; ++i) {
    JobRequest q;
    const auto kind = uniform(0, 9);
    if (kind < 6) {  // CPU-only tasks anywhere
      q.tasks = static_cast<int>(uniform(1, 256));
      q.per_task[kCpu] = 1;
    } else if (kind < 8) {  // memory per node, 1-4 nodes
      q.min_nodes = q.max_nodes = static_cast<int>(uniform(1, 4));
      q.tasks = q.min_nodes * static_cast<int>(uniform(1, 32));
      q.per_task[kCpu] = 1;
      q.per_node[kMemory] = uniform(1024, kMem / 2);
    } else if (kind < 9) {  // GPUs per node
      q.min_nodes = q.max_nodes = static_cast<int>(uniform(1, 4));
      q.tasks = q.min_nodes;
      q.per_task[kCpu] = static_cast<int>(uniform(1, 16));
      q.per_node[gpu] = uniform(1, 4);
    } else {  // whole nodes
      q.min_nodes = q.max_nodes = static_cast<int>(uniform(2, 16));
      q.tasks = q.min_nodes;
      q.per_task[kCpu] = 1;
      q.exclusive = true;
    }
    const int procs = static_cast<int>(q.exclusive ? q.min_nodes * kCpus : q.min_cpus());
    s.waiting.push_back(
        bench::waiting(id++, s.now - 20'000 + i, procs, std::move(q), 500, uniform));
  }
  sc->pool = s;
  sc->pool.machine = nullptr;
  for (RunningJob& r : sc->pool.running) r.allocation.reset();
  for (Job& j : sc->pool.waiting) j.request.reset();
  return sc;
}

void pass(benchmark::State& st, const char* policy_name, bool idle_tenth, bool on_nodes) {
  const auto sc = make_scenario(idle_tenth);
  const ClusterState& s = on_nodes ? sc->nodes : sc->pool;
  const Decision d = bench::passes(st, policy_name, s);
  st.counters["started"] = static_cast<double>(d.start.size());
  st.counters["examined"] = d.examined;
  st.counters["head_start_s"] =
      d.reservations.empty() ? -1.0 : static_cast<double>(d.reservations[0].start - s.now);
}

BENCHMARK_CAPTURE(pass, easy_plus_plus_full_nodes, "easy++", false, true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(pass, easy_plus_plus_full_pool, "easy++", false, false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(pass, easy_plus_plus_idle_tenth_nodes, "easy++", true, true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(pass, easy_plus_plus_idle_tenth_pool, "easy++", true, false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(pass, easy_full_nodes, "easy", false, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(pass, easy_full_pool, "easy", false, false)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace easypp
