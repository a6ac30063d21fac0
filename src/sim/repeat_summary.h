// easypp-sim --repeat N: one policy run N times with seeds seed, seed+1, ... (paper 003's
// seeded error models), summarized as the mean and spread of its main metrics.
#ifndef EASYPP_SIM_REPEAT_SUMMARY_H
#define EASYPP_SIM_REPEAT_SUMMARY_H

#include <cstdint>
#include <string>
#include <vector>

#include "sim/report.h"

namespace easypp::sim {

struct Spread {
  double mean = 0;
  double sd = 0;  // sample standard deviation (n - 1); 0 for one run
  double min = 0;
  double max = 0;
};

struct RepeatSummary {
  std::string policy;
  std::string predictor;  // the first run's canonical spec
  int runs = 0;
  std::uint64_t first_seed = 0;
  Spread avg_bsld;
  Spread avg_wait_min;
  Spread avg_slowdown;
  Spread accuracy_pct;
  Spread utilization_pct;
};

// Over the finite values (a run that counted no job has NaN averages); all NaN when none.
Spread spread_of(const std::vector<double>& values);

// `runs` are the repeats of one policy, in seed order.
RepeatSummary summarize(const std::vector<RunReport>& runs, std::uint64_t first_seed);

// {"summary":"repeat","policy":...,"runs":N,"first_seed":S,"avg_bsld_mean":...,
//  "avg_bsld_sd":...,"avg_bsld_min":...,"avg_bsld_max":..., same for the other metrics}
std::string summary_json(const RepeatSummary& s);
// A block: policy, runs, mean +- sd (min-max) of bounded slowdown and wait.
std::string summary_table(const std::vector<RepeatSummary>& all);

}  // namespace easypp::sim

#endif
