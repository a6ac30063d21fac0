// Throughput of predict + learn pairs on one handle (one thread): the cost a scheduler
// pays per job. Target: >= 5 million pairs per second with the default spec.
#include <benchmark/benchmark.h>

#include <string>

#include "easypp/predictor.h"
#include "pair_workload.h"

namespace {

void predict_and_learn(benchmark::State& state, const char* spec) {
  char err[256];
  epp_predictor* p = epp_predictor_new(spec, err, sizeof err);
  if (p == nullptr) {
    state.SkipWithError(err);
    return;
  }
  const std::uint32_t users = static_cast<std::uint32_t>(state.range(0));
  std::uint64_t id = 1;
  std::int64_t sink = 0;
  for (auto _ : state) sink += easypp::test::predict_and_learn_pair(p, id++, users);
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(state.iterations());  // one item = one predict + one learn
  state.counters["records"] = static_cast<double>(epp_predictor_records(p));
  epp_predictor_free(p);
}

void BM_Default(benchmark::State& s) { predict_and_learn(s, ""); }
void BM_Window30Median(benchmark::State& s) { predict_and_learn(s, "history:window=30,metric=median"); }
void BM_Extended(benchmark::State& s) { predict_and_learn(s, "history:type=extended,window=5"); }
void BM_Last(benchmark::State& s) { predict_and_learn(s, "last"); }
// The online learned model (issue 16's target: >= 2 million pairs per second); every job
// is predicted first, so learn finds its pending features. BM_Default is the baseline.
void BM_Learned(benchmark::State& s) { predict_and_learn(s, "learned"); }
void BM_LearnedSeconds(benchmark::State& s) { predict_and_learn(s, "learned:target=seconds"); }
void BM_LearnedAbsolute(benchmark::State& s) { predict_and_learn(s, "learned:under=1,loss=absolute,weight=logarea"); }

BENCHMARK(BM_Default)->Arg(100)->Arg(10000);
BENCHMARK(BM_Window30Median)->Arg(100);
BENCHMARK(BM_Extended)->Arg(100);
BENCHMARK(BM_Last)->Arg(100);
BENCHMARK(BM_Learned)->Arg(100)->Arg(10000);
BENCHMARK(BM_LearnedSeconds)->Arg(100);
BENCHMARK(BM_LearnedAbsolute)->Arg(100)->Arg(10000);

}  // namespace

BENCHMARK_MAIN();
