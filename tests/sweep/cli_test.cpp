// easypp-sweep rank and merge as a user runs them: a hand-made results.csv ranked from
// the file (the numbers of ranking_test.cpp, worked out by hand there), and two sweep
// directories merged, with disagreeing lines refused.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "sweep/config_space.h"
#include "sweep/results_file.h"
#include "sweep/sweep_run.h"
#include "sweep_test_support.h"

namespace easypp::sweep {
namespace {

using testing::Finished;
using testing::run;
using testing::slurp;

const std::string kSweep = std::string(EASYPP_BUILDDIR) + "/src/sweep/easypp-sweep";

TEST(Cli, RankHandMadeResultsFile) {
  testing::TempDir dir;
  const ConfigSpace space;
  auto line = [&](std::size_t c, const char* trace, const char* wait, const char* bsld) {
    return std::to_string(c) + ",\"" + space.spec(c) + "\"," + trace + "," + wait + "," + bsld +
           ",0.5,0.4," + std::to_string(c) + "\n";
  };
  std::ofstream(dir.file("results.csv"))
      << kResultsHeader << "\n"
      << line(0, "A", "10", "2") << line(1, "A", "20", "1") << line(2, "A", "15", "4")
      << line(0, "B", "30", "3") << line(1, "B", "30", "6") << line(2, "B", "60", "3")
      << line(3, "A", "10", "2") << line(3, "B", "30", "3");
  const Finished r = run(kSweep + " rank --out " + dir.path());
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string csv = slurp(dir.file("ranking.csv"));
  EXPECT_NE(csv.find("\n1,1,2,0,25.000000,1,all,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n2,1,2,3,25.000000,4,all,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n3,3,3,1,50.000000,2,all,partial,avg,estimate,off,estimate,100.000000,"
                     "0.000000,0.000000,100.000000\n"),
            std::string::npos) << csv;
  EXPECT_NE(csv.find("\n4,4,4,2,112.500000,"), std::string::npos) << csv;
  const std::string md = slurp(dir.file("ranking.md"));
  EXPECT_NE(md.find("| 1/2 | 25.00% | 1/4 | all |"), std::string::npos) << md;
  EXPECT_NE(md.find("| average | 25.00% | 50.00% | 53.12% |"), std::string::npos) << md;
  // Fig. 9's data: 4 ranked configurations in 20 slices, positions 1-4 in bins 0, 5, 10, 15;
  // all four have window group 1-5 (windows 1, 4, 2, 3).
  const std::string dist = slurp(dir.file("distribution.csv"));
  EXPECT_NE(dist.find("\nwindow,1-5,0,0.00,5.00,1,100.00\n"), std::string::npos) << dist;
  EXPECT_NE(dist.find("\nwindow,1-5,1,5.00,10.00,0,0.00\n"), std::string::npos) << dist;
  EXPECT_NE(dist.find("\nwindow,6-10,5,25.00,30.00,0,0.00\n"), std::string::npos) << dist;

  // doc/results/sweep/make-figures draws Figs. 9-11 from this directory.
  if (run("command -v gnuplot").status != 0) GTEST_SKIP() << "gnuplot not installed";
  const Finished f = run(std::string(EASYPP_SRCDIR) + "/doc/results/sweep/make-figures " + dir.path());
  ASSERT_EQ(f.status, 0) << f.out;
  for (const char* png : {"fig9.png", "fig10.png", "fig11.png"}) {
    const std::string data = slurp(dir.file(png));
    EXPECT_GT(data.size(), 1000u) << png;
    EXPECT_EQ(data.substr(0, 4), "\x89PNG") << png;
  }
}

TEST(Cli, MakeFiguresNamesWhatIsMissing) {
  testing::TempDir dir;
  const Finished f = run(std::string(EASYPP_SRCDIR) + "/doc/results/sweep/make-figures " + dir.path());
  EXPECT_EQ(WEXITSTATUS(f.status), 1);
  EXPECT_NE(f.out.find(dir.file("distribution.csv") + ": missing (run easypp-sweep rank --out " +
                       dir.path() + ")"),
            std::string::npos) << f.out;
}

TEST(Cli, RankRefusesASpecOfAnotherIndex) {
  testing::TempDir dir;
  const ConfigSpace space;
  std::ofstream(dir.file("results.csv")) << kResultsHeader << "\n5,\"" << space.spec(6)
                                         << "\",A,1,1,0,0,5\n";
  const Finished r = run(kSweep + " rank --out " + dir.path());
  EXPECT_EQ(WEXITSTATUS(r.status), 1);
  EXPECT_NE(r.out.find(dir.file("results.csv") + ":2: config 5 spec"), std::string::npos) << r.out;
}

TEST(Cli, MergeSlicesAndRefuseDisagreement) {
  testing::TempDir dir;
  testing::write_synthetic_swf(dir.file("t.swf"), 300);
  const ConfigSpace space;
  SweepOptions o;
  o.traces = parse_trace_list(dir.file("t.swf"));
  o.threads = 1;
  o.configs = "0-2";
  o.out = dir.file("a");
  run_sweep(o, space, nullptr);
  o.configs = "2-4";  // overlaps a on config 2: the same numbers
  o.out = dir.file("b");
  run_sweep(o, space, nullptr);
  Finished r = run(kSweep + " merge --out " + dir.file("m") + " " + dir.file("a") + " " + dir.file("b"));
  ASSERT_EQ(r.status, 0) << r.out;
  const auto rows = read_results(dir.file("m") + "/results.csv").rows;
  ASSERT_EQ(rows.size(), 5u);
  for (std::size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(rows[i].config, i);
  SweepSettings s;
  ASSERT_TRUE(read_settings(dir.file("m") + "/sweep.conf", s));
  EXPECT_EQ(s.traces.size(), 1u);

  // Change b's numbers for config 3: merging again must name both places.
  std::string text = slurp(dir.file("b") + "/results.csv");
  const auto at = text.find("\n3,");
  const auto field = text.find(",t,", at) + 3;
  text[field] = text[field] == '9' ? '8' : '9';
  std::ofstream(dir.file("b") + "/results.csv", std::ios::trunc) << text;
  r = run(kSweep + " merge --out " + dir.file("m") + " " + dir.file("b"));
  EXPECT_EQ(WEXITSTATUS(r.status), 1);
  EXPECT_NE(r.out.find("config 3 trace t differs from " + dir.file("m") + "/results.csv:"),
            std::string::npos) << r.out;
}

// Settings that differ are exit status 2, as easypp-sweep(1) says (they were 1).
TEST(Cli, MergeOfDifferentSettingsExitsTwo) {
  testing::TempDir dir;
  testing::write_synthetic_swf(dir.file("t.swf"), 300);
  const ConfigSpace space;
  SweepOptions o;
  o.traces = parse_trace_list(dir.file("t.swf"));
  o.threads = 1;
  o.configs = "0";
  o.out = dir.file("a");
  run_sweep(o, space, nullptr);
  o.max_jobs_per_trace = 100;
  o.out = dir.file("b");
  run_sweep(o, space, nullptr);
  const Finished r = run(kSweep + " merge --out " + dir.file("m") + " " + dir.file("a") + " " + dir.file("b"));
  EXPECT_EQ(WEXITSTATUS(r.status), 2);
  EXPECT_NE(r.out.find(dir.file("b") + "/sweep.conf: differs from " + dir.file("a")), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir.file("m") + "/results.csv"));
}

TEST(Cli, MergeRefusesADirectoryASweepIsWriting) {
  testing::TempDir dir;
  testing::write_synthetic_swf(dir.file("t.swf"), 300);
  const ConfigSpace space;
  SweepOptions o;
  o.traces = parse_trace_list(dir.file("t.swf"));
  o.threads = 1;
  o.configs = "0-1";
  o.out = dir.file("m");
  run_sweep(o, space, nullptr);
  o.configs = "2-3";
  o.out = dir.file("a");
  run_sweep(o, space, nullptr);
  const std::string target = dir.file("m") + "/results.csv";
  const std::string before = slurp(target);
  const std::size_t rows_before = read_results(target).rows.size();
  // A sweep resuming in m: it holds the flock while it appends.
  ResultsWriter sweeping(target, read_results(target).complete_bytes);
  const Finished r = run(kSweep + " merge --out " + dir.file("m") + " " + dir.file("a"));
  EXPECT_EQ(WEXITSTATUS(r.status), 1);
  EXPECT_NE(r.out.find(target + ": in use by another easypp-sweep"), std::string::npos) << r.out;
  EXPECT_EQ(slurp(target), before);
  // The sweep's next line still lands in the file merge left alone.
  ResultRow row;
  row.config = 4;
  row.spec = space.spec(4);
  row.trace = "t";
  row.simulated_as = 4;
  sweeping.append({row});
  EXPECT_EQ(read_results(target).rows.size(), rows_before + 1);
}

}  // namespace
}  // namespace easypp::sweep
