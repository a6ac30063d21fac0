// The bootstrap from slurmdbd while it is owed: the retry schedule worked out by hand
// (15 s doubling to 600 s, given up easypp_bootstrap_days after the first try), an owed
// bootstrap carried over a restart, and the marker file's round trip and bad contents.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "plugin/owed_bootstrap.h"

namespace easypp::plugin {
namespace {

TEST(OwedBootstrap, AskedAtOnceThenAfter15sDoublingTo600s) {
  OwedBootstrap owed = OwedBootstrap::first_try(1000);
  EXPECT_TRUE(owed.due(1000));
  EXPECT_FALSE(owed.failed_before());
  EXPECT_EQ(owed.failed(1000, 30), OwedBootstrap::Failure::first);
  EXPECT_TRUE(owed.failed_before());
  EXPECT_EQ(owed.next(), 1015);
  EXPECT_FALSE(owed.due(1014));
  EXPECT_TRUE(owed.due(1015));
  // Each failure at the time asked: waits 30, 60, 120, 240, 480, then 600 for good.
  std::vector<time_t> waits;
  for (int i = 0; i < 7; ++i) {
    const time_t at = owed.next();
    EXPECT_EQ(owed.failed(at, 30), OwedBootstrap::Failure::again);
    waits.push_back(owed.next() - at);
  }
  EXPECT_EQ(waits, (std::vector<time_t>{30, 60, 120, 240, 480, 600, 600}));
  EXPECT_EQ(owed.since(), 1000) << "the first try, whatever the failures since";
}

TEST(OwedBootstrap, GivenUpOnceTheNextTryWouldBeDaysAfterTheFirst) {
  // days=1: first try at 1000, so asking stops once the next try would be after 87400.
  // Failures at 1000, 1015, 1045, 1105, 1225, 1465, 1945 (next 2545), then every 600 s:
  // the one at 2545 + 141 * 600 = 87145 would ask again at 87745 > 87400: the 149th.
  OwedBootstrap owed = OwedBootstrap::first_try(1000);
  int failures = 0;
  time_t at = 1000;
  OwedBootstrap::Failure f{};
  do {
    at = owed.next() == 0 ? 1000 : owed.next();
    f = owed.failed(at, 1);
    ++failures;
  } while (f != OwedBootstrap::Failure::given_up && failures < 1000);
  EXPECT_EQ(f, OwedBootstrap::Failure::given_up);
  EXPECT_EQ(failures, 149);
  EXPECT_EQ(at, 87145);
}

TEST(OwedBootstrap, AfterARestartAskedAtOnceAndCountedFromTheMarkersTime) {
  // Owed since 500 (the marker), slurmctld back at 86000: asked at once; it had failed
  // before, so the next wait is 30 s, and one day after 500 it is given up.
  OwedBootstrap owed = OwedBootstrap::after_restart(500);
  EXPECT_TRUE(owed.due(86000));
  EXPECT_TRUE(owed.failed_before());
  EXPECT_EQ(owed.failed(86000, 30), OwedBootstrap::Failure::again);
  EXPECT_EQ(owed.next(), 86030);
  // days=1: the limit is 500 + 86400 = 86900; a failure at 86870 asks again at 86900,
  // one at 86871 would ask at 86901.
  OwedBootstrap edge = OwedBootstrap::after_restart(500);
  EXPECT_EQ(edge.failed(86870, 1), OwedBootstrap::Failure::again);
  OwedBootstrap late = OwedBootstrap::after_restart(500);
  EXPECT_EQ(late.failed(86871, 1), OwedBootstrap::Failure::given_up);
}

class OwedMarkerFile : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/owed_marker_XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    path_ = dir_ + "/predictor.json.bootstrap-owed";
  }
  void TearDown() override {
    std::remove(path_.c_str());
    std::remove((path_ + ".tmp").c_str());
    rmdir(dir_.c_str());
  }
  void write_text(const std::string& text) { std::ofstream(path_) << text; }
  std::string dir_, path_;
};

TEST_F(OwedMarkerFile, RoundTripWritesWholeAndLeavesNoTemporary) {
  EXPECT_FALSE(read_owed_marker(path_, 2000).found);
  std::string err;
  ASSERT_TRUE(write_owed_marker(path_, 1234, err)) << err;
  EXPECT_NE(access((path_ + ".tmp").c_str(), F_OK), 0);
  const OwedMarker m = read_owed_marker(path_, 2000);
  EXPECT_TRUE(m.found);
  ASSERT_TRUE(m.since);
  EXPECT_EQ(*m.since, 1234);
  ASSERT_TRUE(write_owed_marker(path_, 1500, err)) << err;  // replaced, not appended
  EXPECT_EQ(read_owed_marker(path_, 2000).since, 1500);
}

TEST_F(OwedMarkerFile, BadContentsAreFoundWithoutATimeAndSayWhy) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "is not one epoch second"},
      {"garbage\n", "is not one epoch second"},
      {"12ab\n", "is not one epoch second"},
      {"1234 5678\n", "is not one epoch second"},
      {"99999999999999999999999\n", "is not one epoch second"},  // overflows
      {"0\n", "holds no time (0)"},
      {"-5\n", "holds no time (-5)"},
      {"3000\n", "holds a time in the future (3000)"},  // now is 2000: a clock set back
  };
  for (const auto& [text, problem] : cases) {
    write_text(text);
    const OwedMarker m = read_owed_marker(path_, 2000);
    EXPECT_TRUE(m.found) << "'" << text << "'";
    EXPECT_FALSE(m.since) << "'" << text << "'";
    EXPECT_EQ(m.problem, problem) << "'" << text << "'";
  }
  write_text(" \t1234 \n\n");  // whitespace around the number is fine
  EXPECT_EQ(read_owed_marker(path_, 2000).since, 1234);
}

TEST_F(OwedMarkerFile, AMarkerThatCannotBeReadIsFoundNotIgnored) {
  ASSERT_EQ(mkdir(path_.c_str(), 0700), 0);  // a directory in the marker's place
  const OwedMarker m = read_owed_marker(path_, 2000);
  rmdir(path_.c_str());
  EXPECT_TRUE(m.found);
  EXPECT_FALSE(m.since);
  EXPECT_FALSE(m.problem.empty());
}

TEST_F(OwedMarkerFile, UnwritableDirectoryIsAnErrorNamingTheCause) {
  std::string err;
  EXPECT_FALSE(write_owed_marker(dir_ + "/missing/predictor.json.bootstrap-owed", 1, err));
  EXPECT_NE(err.find("No such file"), std::string::npos) << err;
}

}  // namespace
}  // namespace easypp::plugin
