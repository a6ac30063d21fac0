// The ranking arithmetic of paper 000 section 7 on a hand-made results table whose
// degradations, averages, ranks and statistics were worked out by hand (comments).
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "sweep/config_space.h"
#include "sweep/ranking.h"

namespace easypp::sweep {
namespace {

ResultRow row(std::size_t config, const std::string& trace, double wait, double bsld) {
  ResultRow r;
  r.config = config;
  r.trace = trace;
  r.avg_wait_min = wait;
  r.avg_bsld = bsld;
  r.simulated_as = config;
  return r;
}

// Configurations 0-3 on traces A and B, plus 4 on A only.
//            A wait  A bsld  B wait  B bsld
//   c0         10      2       30      3
//   c1         20      1       30      6
//   c2         15      4       60      3
//   c3         10      2       30      3     (same as c0)
//   best       10      1       30      3
// degradation 100*P/best - 100:
//   c0          0    100        0      0    average 25
//   c1        100      0        0    100    average 50
//   c2         50    300      100      0    average 112.5
//   c3          0    100        0      0    average 25
std::vector<ResultRow> hand_made() {
  return {row(2, "B", 60, 3), row(0, "A", 10, 2), row(1, "A", 20, 1), row(2, "A", 15, 4),
          row(0, "B", 30, 3), row(1, "B", 30, 6), row(3, "A", 10, 2), row(3, "B", 30, 3),
          row(4, "A", 1, 0.5)};
}

TEST(Ranking, TestcasesAndTheirBest) {
  const Ranking r = rank_results(hand_made());
  ASSERT_EQ(r.testcases.size(), 4u);
  EXPECT_EQ(r.testcases[0].trace, "A");
  EXPECT_EQ(r.testcases[0].metric, "wait");
  EXPECT_EQ(r.testcases[1].metric, "bsld");
  EXPECT_EQ(r.testcases[2].trace, "B");
  EXPECT_DOUBLE_EQ(r.testcases[0].best, 10);
  EXPECT_DOUBLE_EQ(r.testcases[1].best, 1);
  EXPECT_DOUBLE_EQ(r.testcases[2].best, 30);
  EXPECT_DOUBLE_EQ(r.testcases[3].best, 3);
  // Config 4 lacks trace B: it is not ranked, so its tiny A values are no one's best.
  EXPECT_EQ(r.incomplete, std::vector<std::size_t>{4});
  EXPECT_EQ(r.testcases[0].best_config, 0u);
  EXPECT_EQ(r.testcases[0].best_count, 2u);  // c0 and c3
  EXPECT_EQ(r.testcases[1].best_config, 1u);
  EXPECT_EQ(r.testcases[2].best_count, 3u);  // c0, c1, c3
  EXPECT_EQ(r.testcases[3].best_count, 3u);  // c0, c2, c3
}

TEST(Ranking, DegradationsAveragesAndRanks) {
  const Ranking r = rank_results(hand_made());
  ASSERT_EQ(r.ranked.size(), 4u);
  EXPECT_EQ(r.ranked[0].config, 0u);
  EXPECT_EQ(r.ranked[1].config, 3u);
  EXPECT_EQ(r.ranked[2].config, 1u);
  EXPECT_EQ(r.ranked[3].config, 2u);
  EXPECT_DOUBLE_EQ(r.ranked[0].average, 25);
  EXPECT_DOUBLE_EQ(r.ranked[2].average, 50);
  EXPECT_DOUBLE_EQ(r.ranked[3].average, 112.5);
  EXPECT_EQ(r.ranked[3].degradation, (std::vector<double>{50, 300, 100, 0}));
  EXPECT_EQ(r.ranked[2].degradation, (std::vector<double>{100, 0, 0, 100}));
  // c0 and c3 tie for ranks 1 and 2.
  EXPECT_EQ(r.ranked[0].rank, 1u);
  EXPECT_EQ(r.ranked[1].rank, 2u);
  EXPECT_EQ(r.ranked[0].tie_first, 1u);
  EXPECT_EQ(r.ranked[0].tie_last, 2u);
  EXPECT_EQ(r.ranked[1].tie_first, 1u);
  EXPECT_EQ(r.ranked[2].rank, 3u);
  EXPECT_EQ(r.ranked[2].tie_first, 3u);
  EXPECT_EQ(r.ranked[2].tie_last, 3u);
  EXPECT_EQ(find_ranked(r, 2)->rank, 4u);
  EXPECT_EQ(find_ranked(r, 4), nullptr);
}

TEST(Ranking, Statistics) {
  const Ranking r = rank_results(hand_made());
  // Averages 25, 25, 50, 112.5: mean 53.125; deviations -28.125 (twice), -3.125, 59.375;
  // squares 791.015625 (twice), 9.765625, 3525.390625: sum 5117.1875, / 4 = 1279.296875.
  const Statistics all = statistics(r, [](std::size_t) { return true; });
  EXPECT_EQ(all.count, 4u);
  EXPECT_DOUBLE_EQ(all.min, 25);
  EXPECT_DOUBLE_EQ(all.max, 112.5);
  EXPECT_DOUBLE_EQ(all.mean, 53.125);
  EXPECT_DOUBLE_EQ(all.stddev, std::sqrt(1279.296875));
  const Statistics some = statistics(r, [](std::size_t c) { return c == 1 || c == 2; });
  EXPECT_EQ(some.count, 2u);
  EXPECT_DOUBLE_EQ(some.mean, 81.25);
  EXPECT_DOUBLE_EQ(some.stddev, 31.25);
  EXPECT_EQ(statistics(r, [](std::size_t) { return false; }).count, 0u);
}

TEST(Ranking, ConflictingDuplicateAndZeroBestAreErrors) {
  auto rows = hand_made();
  rows.push_back(row(0, "A", 11, 2));
  EXPECT_THROW(rank_results(rows), std::invalid_argument);
  rows.pop_back();
  rows.push_back(row(0, "A", 10, 2));  // an identical duplicate is harmless
  EXPECT_EQ(rank_results(rows).ranked.size(), 4u);
  rows.pop_back();
  rows[1] = row(0, "A", 0, 2);
  try {
    rank_results(rows);
    FAIL() << "a best value of 0 must be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("testcase A wait"), std::string::npos) << e.what();
  }
}

TEST(Ranking, MarkdownLayout) {
  const ConfigSpace space;
  SweepSettings settings;
  settings.policy = "easy++";
  settings.traces = {{"A", "a.swf", 64, 100}, {"B", "b.swf", 64, 100}};
  const std::string md = ranking_markdown(rank_results(hand_made()), space, settings, "hand-made");
  // Configs 0 and 3 are windows 1 and 4 of type=all: one tied row.
  EXPECT_NE(md.find("| 1/2 | 25.00% | 1/4 | all | partial | avg | estimate | off | estimate |"),
            std::string::npos) << md;
  EXPECT_NE(md.find("| 3 | 50.00% | 2 | all |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 4 | 112.50% | 3 | all |"), std::string::npos) << md;
  EXPECT_NE(md.find("**A subset**"), std::string::npos);
  EXPECT_NE(md.find("4 of 8640 configurations ranked over 4 testcases"), std::string::npos) << md;
  // Table 12: size=1 is config 0 alone (25%), size=2 config 1 (50%).
  EXPECT_NE(md.find("| min | 25.00% | 50.00% | 25.00% |"), std::string::npos) << md;
  EXPECT_NE(md.find("| configurations | 1 | 1 | 4 |"), std::string::npos) << md;
  // The recommended configuration is index 1 (window=2 ... all defaults): rank 3.
  EXPECT_NE(md.find("| 1 | 3 of 4 | 50.00% | 0.00% - 100.00% |"), std::string::npos) << md;
  EXPECT_NE(md.find("not ranked"), std::string::npos);  // the paper's top (window=11)
}

TEST(Ranking, Csv) {
  const ConfigSpace space;
  const std::string csv = ranking_csv(rank_results(hand_made()), space);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "rank,tie_first,tie_last,config,average_degradation,window,type,fullness,metric,"
            "fallback,propagation,correction,A:wait,A:bsld,B:wait,B:bsld");
  EXPECT_NE(csv.find("\n4,4,4,2,112.500000,3,all,partial,avg,estimate,off,estimate,50.000000,"
                     "300.000000,100.000000,0.000000\n"),
            std::string::npos) << csv;
}

// Four configurations on one trace, chosen to differ in window group, type, metric and
// correction. Best wait 10, best bsld 1; degradations worked out by hand:
//   cA window=1  all      avg estimate   wait 10 bsld 1   0,   0   average   0  position 1
//   cB window=7  all      avg gradual    wait 20 bsld 1   100, 0   average  50  position 2
//   cC window=12 extended min estimate   wait 10 bsld 3   0, 200   average 100  position 3
//   cD window=8  all      min estimate   wait 40 bsld 2   300, 100 average 200  position 4
struct Spread {
  ConfigSpace space;
  std::size_t a = space.index_of_spec("history:window=1,type=all,correction=estimate");
  std::size_t b = space.index_of_spec("history:window=7,type=all,correction=gradual");
  std::size_t c = space.index_of_spec("history:window=12,type=extended,metric=min");
  std::size_t d = space.index_of_spec("history:window=8,type=all,metric=min");
  Ranking ranking = rank_results({row(a, "T", 10, 1), row(b, "T", 20, 1), row(c, "T", 10, 3),
                                  row(d, "T", 40, 2)});
};

const ValueCounts& value_counts(const RankDistribution& d, const std::string& parameter,
                                const std::string& value) {
  for (const auto& v : d.values) {
    if (v.parameter == parameter && v.value == value) return v;
  }
  throw std::runtime_error("no " + parameter + "=" + value);
}

TEST(RankDistribution, CountsEachValuePerRankSlice) {
  const Spread s;
  ASSERT_EQ(s.ranking.ranked.size(), 4u);
  EXPECT_EQ(s.ranking.ranked[3].config, s.d);
  // Two bins: positions 1-2 (cA, cB) and 3-4 (cC, cD).
  const RankDistribution d = rank_distribution(s.ranking, s.space, 2);
  EXPECT_EQ(d.bin_size, (std::vector<std::size_t>{2, 2}));
  // Every value of the space is listed, window sizes in six groups of five:
  // 6 + 3 types + 2 fullness + 4 metrics + 2 fallbacks + 2 propagation + 3 corrections.
  EXPECT_EQ(d.values.size(), 22u);
  EXPECT_EQ(d.values.front().value, "1-5");
  EXPECT_EQ(d.values[5].value, "26-30");
  EXPECT_EQ(value_counts(d, "window", "1-5").counts, (std::vector<std::size_t>{1, 0}));
  EXPECT_EQ(value_counts(d, "window", "6-10").counts, (std::vector<std::size_t>{1, 1}));
  EXPECT_EQ(value_counts(d, "window", "11-15").counts, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(value_counts(d, "type", "all").counts, (std::vector<std::size_t>{2, 1}));
  EXPECT_EQ(value_counts(d, "type", "extended").counts, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(value_counts(d, "correction", "estimate").counts, (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(value_counts(d, "correction", "gradual").counts, (std::vector<std::size_t>{1, 0}));
  EXPECT_EQ(value_counts(d, "correction", "exponential").counts, (std::vector<std::size_t>{0, 0}));
  EXPECT_EQ(value_counts(d, "metric", "min").counts, (std::vector<std::size_t>{0, 2}));
  const std::string csv = distribution_csv(d);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "parameter,value,bin,first_pct,last_pct,configurations,share_pct");
  EXPECT_NE(csv.find("\ncorrection,estimate,0,0.00,50.00,1,50.00\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\ncorrection,estimate,1,50.00,100.00,2,100.00\n"), std::string::npos) << csv;
  EXPECT_THROW(rank_distribution(s.ranking, s.space, 0), std::invalid_argument);
}

TEST(RankDistribution, MarkdownSlicesSubspaceAndTail) {
  const Spread s;
  const std::string md = ranking_markdown(s.ranking, s.space, SweepSettings{}, "hand-made");
  // 20 bins of 4 positions: position p falls in bin 5(p-1); 5-25% holds no one.
  EXPECT_NE(md.find("| correction | estimate | 100.0% | n/a | 0.0% | 100.0% | 100.0% |"),
            std::string::npos) << md;
  EXPECT_NE(md.find("| window | 6-10 | 0.0% | n/a | 100.0% | 0.0% | 100.0% |"),
            std::string::npos) << md;
  // type=all, correction=estimate: cA (window 1, position 1) and cD (window 8, position 4).
  EXPECT_NE(md.find("| 30 | 2 | 1 | 4 | 100.0% | 100.00% | 200.00% |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 10 | 2 | 1 | 4 | 100.0% | 100.00% | 200.00% |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 6 | 1 | 1 | 1 | 25.0% | 0.00% | 0.00% |"), std::string::npos) << md;
  // Bottom 30% of 4 = 1 configuration: cD, type=all, estimate, min with window 8.
  EXPECT_NE(md.find("Of the 1 configurations in the bottom 30% of the ranking, 1 use type=all "
                    "(paper: 1298); of these, 1 use correction=estimate (paper: 194); of those, "
                    "1 use metric=min with a window of 7 or more (paper: 186; mean window here "
                    "8.0, paper 18.8)."),
            std::string::npos) << md;
}

}  // namespace
}  // namespace easypp::sweep
