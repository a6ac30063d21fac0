// Paper 000 section 7's ranking: each (trace, metric) pair is a testcase; configuration
// c's degradation under testcase t is 100 * P_c / P_b - 100, with P_b the best (lowest)
// value any ranked configuration reaches under t; configurations are ranked by the mean of
// their degradations, rank 1 the lowest.
#ifndef EASYPP_SWEEP_RANKING_H
#define EASYPP_SWEEP_RANKING_H

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "sweep/config_space.h"
#include "sweep/results_file.h"

namespace easypp::sweep {

struct Testcase {
  std::string trace;
  std::string metric;  // "wait" (average wait, minutes) or "bsld" (average bounded slowdown)
  double best = 0;     // P_b
  std::size_t best_config = 0;  // lowest index reaching it
  std::size_t best_count = 0;   // configurations reaching it
};

struct RankedConfig {
  std::size_t config = 0;
  std::vector<double> degradation;  // per testcase, percent
  double average = 0;               // percent
  std::size_t rank = 0;             // 1-based position (ties by config index)
  // The positions of every configuration with exactly this average (a tie), e.g. 7 and 8.
  std::size_t tie_first = 0, tie_last = 0;
};

struct Ranking {
  std::vector<Testcase> testcases;    // traces in name order, wait before bsld
  std::vector<RankedConfig> ranked;   // by rank
  // Configurations with a line for some traces but not all (not ranked).
  std::vector<std::size_t> incomplete;
};

// Ranks the configurations that have a line for every trace seen in `rows`. Throws
// std::invalid_argument if a (config, trace) pair appears twice with different numbers,
// or if the best value of a testcase is 0 (a degradation relative to 0 is undefined).
Ranking rank_results(const std::vector<ResultRow>& rows);

// The position of `config` in the ranking, or nullptr if it is not ranked.
const RankedConfig* find_ranked(const Ranking& ranking, std::size_t config);

struct Statistics {
  std::size_t count = 0;
  double min = 0, max = 0, mean = 0, stddev = 0;  // population standard deviation
};
// Statistics of the average degradation of the ranked configurations `keep` accepts.
Statistics statistics(const Ranking& ranking,
                      const std::function<bool(std::size_t config)>& keep);

// Fig. 9: how each parameter's values spread over the ranking. The ranked positions are
// cut into `bins` slices (position p, 1-based, of n falls in bin floor((p-1)*bins/n)), and
// window sizes are taken in groups of five (1-5, ..., 26-30) as the paper's figure does.
struct ValueCounts {
  std::string parameter;            // a kParameterKeys name
  std::string value;                // a value, or a window group such as "1-5"
  std::vector<std::size_t> counts;  // configurations with this value, per bin
};
struct RankDistribution {
  std::vector<std::size_t> bin_size;  // configurations per bin
  // kParameterKeys order; values in the order the space enumerates them.
  std::vector<ValueCounts> values;
};
RankDistribution rank_distribution(const Ranking& ranking, const ConfigSpace& space,
                                   std::size_t bins);

// DIR/distribution.csv: parameter,value,bin,first_pct,last_pct,configurations,share_pct
// (share of the bin's configurations having this value; the input of Fig. 9).
std::string distribution_csv(const RankDistribution& distribution);

// DIR/ranking.md: the ranking in the layout of the paper's Tables 11 and 12, the ranks of
// the paper's recommended and top configurations, per-testcase bests, and degradation by
// window size (Fig. 10), parameter values by rank slice (Fig. 9), the chosen subspace by
// largest window (Fig. 11) and the paper's tail analysis. `settings` describes the
// traces; `source` names the input.
std::string ranking_markdown(const Ranking& ranking, const ConfigSpace& space,
                             const SweepSettings& settings, const std::string& source);

// DIR/ranking.csv: every ranked configuration, its average and per-testcase degradation.
std::string ranking_csv(const Ranking& ranking, const ConfigSpace& space);

// The paper's Table 12 recommendation (with the library's defaults for the keys the paper
// leaves open) and its Table 11 rank-1 configuration.
inline constexpr const char* kRecommendedSpec =
    "history:window=2,type=all,fullness=partial,metric=avg,fallback=estimate,propagation=off,"
    "correction=estimate";
inline constexpr const char* kPaperTopSpec =
    "history:window=11,type=all,fullness=partial,metric=avg,fallback=estimate,propagation=on,"
    "correction=estimate";

}  // namespace easypp::sweep

#endif
