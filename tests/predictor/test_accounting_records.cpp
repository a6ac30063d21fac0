// jobcomp/filetxt and sacct --parsable2 lines, hand-written after Slurm 22.05's formats.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

#include "predictor_fixture.h"

namespace easypp::test {
namespace {

class Records : public ::testing::Test {
 protected:
  // Slurm writes local times; pin the zone so epoch values are known.
  void SetUp() override {
    ::setenv("TZ", "UTC", 1);
    ::tzset();
  }
  int jobcomp(const std::string& line) { return epp_parse_jobcomp_line(line.c_str(), &r_, err_, sizeof err_); }
  int sacct(const std::string& line) { return epp_parse_sacct_line(line.c_str(), &r_, err_, sizeof err_); }
  epp_record r_{};
  char err_[256] = "";
};

const std::string kJobcomp =
    "JobId=12 UserId=alice(1001) GroupId=users(100) Name=my job JobState=COMPLETED Partition=debug "
    "TimeLimit=10 StartTime=2026-11-22T01:00:00 EndTime=2026-11-22T01:05:00 NodeList=n1 NodeCnt=1 "
    "ProcCnt=4 WorkDir=/home/alice/with space ReservationName= Tres=cpu=4,mem=1G,node=1 Account=(null) "
    "QOS=normal WcKey= Cluster=test SubmitTime=2026-11-22T00:59:00 EligibleTime=2026-11-22T00:59:00 "
    "DerivedExitCode=0:0 ExitCode=0:0 \n";

TEST_F(Records, JobcompCompletedLine) {
  ASSERT_EQ(jobcomp(kJobcomp), 1) << err_;
  EXPECT_EQ(r_.job.job_id, 12u);
  EXPECT_EQ(r_.job.user_id, 1001u);
  EXPECT_EQ(r_.job.estimate, 600);
  EXPECT_EQ(r_.job.procs, 4);
  EXPECT_EQ(r_.job.submit, 1795309140);
  EXPECT_EQ(r_.start, 1795309200);
  EXPECT_EQ(r_.end, 1795309500);
  EXPECT_EQ(r_.job.runtime, 300);
  EXPECT_EQ(r_.end_state, EPP_END_COMPLETED);
}

std::string with(std::string line, const std::string& from, const std::string& to) {
  line.replace(line.find(from), from.size(), to);
  return line;
}

TEST_F(Records, JobcompStates) {
  ASSERT_EQ(jobcomp(with(kJobcomp, "JobState=COMPLETED", "JobState=TIMEOUT")), 1);
  EXPECT_EQ(r_.end_state, EPP_END_TIMEOUT);
  ASSERT_EQ(jobcomp(with(kJobcomp, "JobState=COMPLETED", "JobState=NODE_FAIL")), 1);
  EXPECT_EQ(r_.end_state, EPP_END_FAILED);
  ASSERT_EQ(jobcomp(with(kJobcomp, "JobState=COMPLETED", "JobState=CANCELLED")), 1);
  EXPECT_EQ(r_.end_state, EPP_END_CANCELLED);
  EXPECT_EQ(jobcomp(with(kJobcomp, "JobState=COMPLETED", "JobState=RESIZING")), 0);
}

TEST_F(Records, JobcompSkipsJobsThatNeverStartedAndUnlimitedLimits) {
  EXPECT_EQ(jobcomp(with(kJobcomp, "StartTime=2026-11-22T01:00:00", "StartTime=Unknown")), 0);
  EXPECT_EQ(jobcomp(with(kJobcomp, "TimeLimit=10", "TimeLimit=UNLIMITED")), 0);
  EXPECT_EQ(jobcomp(""), 0);
  EXPECT_EQ(jobcomp("   \n"), 0);
}

TEST_F(Records, JobcompErrorsNameTheField) {
  EXPECT_EQ(jobcomp(with(kJobcomp, "UserId=alice(1001)", "UserId=alice(x)")), -1);
  EXPECT_STREQ(err_, "UserId=alice(x): expected name(uid)");
  EXPECT_EQ(jobcomp(with(kJobcomp, "TimeLimit=10", "TimeLimit=ten")), -1);
  EXPECT_STREQ(err_, "TimeLimit=ten: expected minutes or UNLIMITED");
  EXPECT_EQ(jobcomp(with(kJobcomp, "JobState=COMPLETED", "JobState=DONE")), -1);
  EXPECT_STREQ(err_, "JobState=DONE: unknown job state");
  EXPECT_EQ(jobcomp(with(kJobcomp, "EndTime=2026-11-22T01:05:00", "EndTime=2026-11-22 01:05")), -1);
  EXPECT_STREQ(err_, "EndTime=2026-11-22: expected YYYY-MM-DDTHH:MM:SS");
  EXPECT_EQ(jobcomp("hello world"), -1);
  EXPECT_STREQ(err_, "line=hello world: does not start with JobId=");
  EXPECT_EQ(jobcomp("JobId=5 UserId=a(1)"), -1);
  EXPECT_STREQ(err_, "JobState: missing (not a jobcomp/filetxt line?)");
}

TEST_F(Records, SacctLines) {
  ASSERT_EQ(sacct("4242|bob|1002|2026-11-22T00:59:00|2026-11-22T01:00:00|2026-11-22T01:05:00|30|8|COMPLETED|"
                  "batch|a|b|c\n"),
            1)
      << err_;
  EXPECT_EQ(r_.job.job_id, 4242u);
  EXPECT_EQ(r_.job.user_id, 1002u);
  EXPECT_EQ(r_.job.estimate, 1800);
  EXPECT_EQ(r_.job.procs, 8);
  EXPECT_EQ(r_.job.runtime, 300);
  EXPECT_EQ(r_.end_state, EPP_END_COMPLETED);
  ASSERT_EQ(sacct("4243|bob|1002|2026-11-22T00:59:00|2026-11-22T01:00:00|2026-11-22T01:05:00|30|8|CANCELLED by 0|"
                  "batch|x"),
            1);
  EXPECT_EQ(r_.end_state, EPP_END_CANCELLED);
  ASSERT_EQ(sacct("4244|bob|1002|2026-11-22T00:59:00|2026-11-22T01:00:00|2026-11-22T01:30:01|30|8|TIMEOUT|b|x"), 1);
  EXPECT_EQ(r_.end_state, EPP_END_TIMEOUT);
  ASSERT_EQ(sacct("4245|bob|1002|2026-11-22T00:59:00|2026-11-22T01:00:00|2026-11-22T01:00:05|30|8|FAILED|b|x"), 1);
  EXPECT_EQ(r_.end_state, EPP_END_FAILED);
}

TEST_F(Records, SacctSkipsStepsUnfinishedAndUnlimited) {
  EXPECT_EQ(sacct("4242.batch||1002|2026-11-22T00:59:00|2026-11-22T01:00:00|2026-11-22T01:05:00||8|COMPLETED||batch"),
            0);
  EXPECT_EQ(sacct("4242.0||1002|2026-11-22T00:59:00|2026-11-22T01:00:00|2026-11-22T01:05:00||8|COMPLETED||x"), 0);
  EXPECT_EQ(sacct("4242.extern||1002|2026-11-22T00:59:00|2026-11-22T01:00:00|2026-11-22T01:05:00||8|COMPLETED||x"),
            0);
  EXPECT_EQ(sacct("4246|bob|1002|2026-11-22T00:59:00|2026-11-22T01:00:00|Unknown|30|8|RUNNING|b|x"), 0);
  EXPECT_EQ(sacct("4247|bob|1002|2026-11-22T00:59:00|Unknown|Unknown|30|8|PENDING|b|x"), 0);
  EXPECT_EQ(sacct("4248|bob|1002|2026-11-22T00:59:00|None|2026-11-22T01:00:00|30|8|CANCELLED by 1002|b|x"), 0);
  EXPECT_EQ(sacct("4249|bob|1002|2026-11-22T00:59:00|2026-11-22T01:00:00|2026-11-22T01:05:00|UNLIMITED|8|COMPLETED|b|x"),
            0);
}

TEST_F(Records, SacctErrorsNameTheField) {
  EXPECT_EQ(sacct("4242|bob|1002|2026-11-22T00:59:00"), -1);
  EXPECT_STREQ(err_,
               "fields=4: expected 11 '|'-separated fields "
               "(JobIDRaw,User,UID,Submit,Start,End,TimelimitRaw,NCPUS,State,Partition,JobName)");
  EXPECT_EQ(sacct("4242|bob|bob|2026-11-22T00:59:00|2026-11-22T01:00:00|2026-11-22T01:05:00|30|8|COMPLETED|b|x"), -1);
  EXPECT_STREQ(err_, "UID=bob: expected a numeric uid");
  EXPECT_EQ(sacct("42x|bob|1|2026-11-22T00:59:00|2026-11-22T01:00:00|2026-11-22T01:05:00|30|8|COMPLETED|b|x"), -1);
  EXPECT_STREQ(err_, "JobIDRaw=42x: expected a number");
  EXPECT_EQ(sacct("42|bob|1|2026-11-22T00:59:00|2026-11-22T01:00:00|2026-11-22T00:05:00|30|8|COMPLETED|b|x"), -1);
  EXPECT_STREQ(err_, "End=2026-11-22T00:05:00: before the start time");
}

// A NULL line or record is -1 with a message, as every -1 is (err was left as it was).
TEST_F(Records, NullLineOrRecordSaysSo) {
  const char* why = "no line or no record to fill (NULL)";
  std::snprintf(err_, sizeof err_, "stale");
  EXPECT_EQ(epp_parse_jobcomp_line(nullptr, &r_, err_, sizeof err_), -1);
  EXPECT_STREQ(err_, why);
  std::snprintf(err_, sizeof err_, "stale");
  EXPECT_EQ(epp_parse_sacct_line(kJobcomp.c_str(), nullptr, err_, sizeof err_), -1);
  EXPECT_STREQ(err_, why);
  EXPECT_EQ(epp_parse_sacct_line(nullptr, nullptr, nullptr, 0), -1);  // and no err at all
}

TEST_F(Records, ParsedRecordsTeachThroughLearnRecord) {
  auto p = make_predictor("");
  ASSERT_EQ(jobcomp(kJobcomp), 1);
  EXPECT_EQ(epp_learn_record(p.get(), &r_), 1);
  EXPECT_EQ(epp_learn_record(p.get(), &r_), 0);  // same JobId again
  EXPECT_EQ(predict(p.get(), 1001, 3600), 300);
}

}  // namespace
}  // namespace easypp::test
