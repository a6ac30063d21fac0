// The ranking arithmetic of paper 000 section 7 on a hand-made results table whose
// degradations, averages, ranks and statistics were worked out by hand (comments).
#include <gtest/gtest.h>

#include <cmath>
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

}  // namespace
}  // namespace easypp::sweep
