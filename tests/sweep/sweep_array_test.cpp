// contrib/sweep-array --dry-run: the array deals every selected configuration to exactly
// one task, keeps equivalence classes together, and prints the two sbatch commands.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sweep/config_space.h"
#include "sweep_test_support.h"

namespace easypp::sweep {
namespace {

using testing::Finished;
using testing::run;

const std::string kScript = std::string(EASYPP_SRCDIR) + "/contrib/sweep-array";
const std::string kSweep = std::string(EASYPP_BUILDDIR) + "/src/sweep/easypp-sweep";

TEST(SweepArray, DryRunDealsEveryConfigurationOnce) {
  const Finished r = run(kScript + " --dry-run --sweep " + kSweep +
                    " --traces /nonexistent/t.swf --out /tmp/x --tasks 5 --time 1:00:00"
                    " --partition batch");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("8640 configurations, 7620 classes, over 5 tasks"), std::string::npos) << r.out;
  int total = 0;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    int task = 0, count = 0;
    if (std::sscanf(line.c_str(), "  task %d: %d configurations", &task, &count) == 2) {
      EXPECT_GT(count, 8640 / 5 - 200) << line;  // round robin by class: balanced
      total += count;
    }
  }
  EXPECT_EQ(total, 8640);
  EXPECT_NE(r.out.find("sbatch --parsable --job-name=easypp-sweep --array=0-4 --cpus-per-task=2"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--partition=batch"), std::string::npos);
  EXPECT_NE(r.out.find("--time=1:00:00"), std::string::npos);
  EXPECT_NE(r.out.find("--dependency=afterany:ARRAY_JOB_ID"), std::string::npos);
  EXPECT_NE(r.out.find("--configs /tmp/x/slices/task-$SLURM_ARRAY_TASK_ID.txt --out "
                       "/tmp/x/task-$SLURM_ARRAY_TASK_ID"),
            std::string::npos) << r.out;
}

TEST(SweepArray, SubmitsWithSlicesThatKeepClassesTogether) {
  // A stand-in sbatch records its arguments and answers a job id, as --parsable does.
  testing::TempDir dir;
  {
    std::ofstream fake(dir.file("sbatch"));
    fake << "#!/bin/sh\nn=$(cat " << dir.file("count") << " 2>/dev/null || echo 0)\n"
         << "n=$((n + 1)); echo $n > " << dir.file("count") << "\n"
         << "printf '%s\\n' \"$@\" > " << dir.file("args") << ".$n\necho $((100 + n))\n";
  }
  ASSERT_EQ(chmod(dir.file("sbatch").c_str(), 0755), 0);
  const Finished r = run("PATH=" + dir.path() + ":$PATH " + kScript + " --sweep " + kSweep +
                    " --traces t --out " + dir.file("out") +
                    " --tasks 3 --configs type=all,correction=estimate");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("960 configurations, 692 classes, over 3 tasks"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("101 102"), std::string::npos) << r.out;
  const ConfigSpace space;
  std::map<std::size_t, int> task_of_class;
  std::set<std::size_t> seen;
  for (int t = 0; t < 3; ++t) {
    std::ifstream in(dir.file("out") + "/slices/task-" + std::to_string(t) + ".txt");
    ASSERT_TRUE(in) << "no slice file for task " << t;
    for (std::size_t c; in >> c;) {
      EXPECT_TRUE(seen.insert(c).second) << "config " << c << " in two tasks";
      const auto [it, fresh] = task_of_class.try_emplace(space.representative(c), t);
      EXPECT_EQ(it->second, t) << "class of config " << c << " split over tasks";
    }
  }
  const auto wanted = space.select("type=all,correction=estimate");
  EXPECT_EQ(std::vector<std::size_t>(seen.begin(), seen.end()), wanted);
  // The rank job waits for the array job (id 101).
  std::ifstream args(dir.file("args.2"));
  std::stringstream a;
  a << args.rdbuf();
  EXPECT_NE(a.str().find("--dependency=afterany:101\n"), std::string::npos) << a.str();
  EXPECT_NE(a.str().find(" merge --out " + dir.file("out") + "/merged"), std::string::npos) << a.str();
}

TEST(SweepArray, BadOptions) {
  Finished r = run(kScript + " --dry-run --sweep " + kSweep + " --traces t --out /tmp/x --tasks 0");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("--tasks=0: expected a positive integer"), std::string::npos) << r.out;
  r = run(kScript + " --dry-run --sweep " + kSweep + " --out /tmp/x");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("--traces is required"), std::string::npos) << r.out;
  r = run(kScript + " --dry-run --sweep " + kSweep + " --traces t --out /tmp/x --tasks 9 --configs 0-4");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("only 5 classes"), std::string::npos) << r.out;
  r = run(kScript + " --dry-run --sweep " + kSweep + " --traces t --out /tmp/x --bogus 1");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("unknown option --bogus"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace easypp::sweep
