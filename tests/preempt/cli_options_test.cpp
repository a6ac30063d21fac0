// easypp-sim's timed-run options: --base and --trial-length, and their errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/cli.h"

namespace easypp::sim {
namespace {

CliOptions parse(std::vector<std::string> extra) {
  std::vector<std::string> args = {"easypp-sim", "--trace", "t.swf", "--policy", "timed-run"};
  args.insert(args.end(), extra.begin(), extra.end());
  return parse_cli(args);
}

TEST(PreemptCli, BaseAndTrialLength) {
  CliOptions d = parse({});
  EXPECT_EQ(d.base, "easy");
  EXPECT_EQ(d.trial_length, 90);
  CliOptions o = parse({"--base", "fcfs", "--trial-length=0"});
  EXPECT_EQ(o.base, "fcfs");
  EXPECT_EQ(o.trial_length, 0);
}

TEST(PreemptCli, BadValuesAreNamed) {
  try {
    parse({"--base", "sjf"});
    FAIL() << "accepted --base sjf";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--base=sjf"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse({"--trial-length", "-5"}), UsageError);
  EXPECT_THROW(parse({"--trial-length", "90s"}), UsageError);
}

}  // namespace
}  // namespace easypp::sim
