// Job preparation from SWF records (tests/sim/data/workload_fields.swf explains each job).
#include <gtest/gtest.h>

#include <stdexcept>

#include "sim_test_support.h"

namespace easypp::sim {
namespace {

using testing::data_path;
using testing::load;

const SimJob& by_swf(const Workload& w, std::int64_t n) {
  for (const SimJob& s : w.jobs) {
    if (s.swf_job == n) return s;
  }
  throw std::out_of_range("no job " + std::to_string(n));
}

TEST(Workload, RequestedSizeWithFallbacksAndDrops) {
  Workload w = load("workload_fields.swf");
  EXPECT_EQ(w.procs, 8);
  EXPECT_EQ(w.trace, "workload_fields.swf");
  ASSERT_EQ(w.jobs.size(), 3u);
  EXPECT_EQ(by_swf(w, 1).job.procs, 2);
  EXPECT_EQ(by_swf(w, 1).job.estimate, 100);
  EXPECT_EQ(by_swf(w, 2).job.procs, 4);       // requested -1: allocated
  EXPECT_EQ(by_swf(w, 2).job.estimate, 70);   // requested time -1: runtime
  EXPECT_EQ(by_swf(w, 7).job.user, 0xffffffffu);
  EXPECT_EQ(w.dropped_too_wide, 1);
  EXPECT_EQ(w.dropped_unknown_runtime, 1);
  EXPECT_EQ(w.dropped_unknown_submit, 1);
  EXPECT_EQ(w.dropped_unknown_size, 1);
  EXPECT_EQ(w.size_from_other_field, 1);
  EXPECT_EQ(w.estimate_from_runtime, 1);
  // Ids are 1-based positions, in submit order.
  for (std::size_t i = 0; i < w.jobs.size(); ++i) EXPECT_EQ(w.jobs[i].job.id, i + 1);
}

TEST(Workload, AllocatedSize) {
  WorkloadOptions o;
  o.size_from = SizeFrom::allocated;
  Workload w = load("workload_fields.swf", o);
  EXPECT_EQ(by_swf(w, 1).job.procs, 3);
  EXPECT_EQ(by_swf(w, 2).job.procs, 4);
  EXPECT_EQ(w.size_from_other_field, 0);
}

TEST(Workload, ProcsOverrideDropsWiderJobs) {
  WorkloadOptions o;
  o.procs = 3;
  Workload w = load("workload_fields.swf", o);
  EXPECT_EQ(w.procs, 3);
  EXPECT_EQ(w.dropped_too_wide, 2);  // job 3 (16) and job 2 (4)
}

TEST(Workload, LoadFactorScalesSubmitOffsets) {
  WorkloadOptions o;
  o.load_factor = 0.5;
  Workload w = load("workload_fields.swf", o);
  EXPECT_EQ(by_swf(w, 1).job.submit, 10);
  EXPECT_EQ(by_swf(w, 2).job.submit, 15);
  EXPECT_EQ(by_swf(w, 7).job.submit, 505);
}

TEST(Workload, EstimateFactorMultipliesEstimates) {
  WorkloadOptions o;
  o.estimate_factor = 1.5;
  Workload w = load("workload_fields.swf", o);
  EXPECT_EQ(by_swf(w, 1).job.estimate, 150);
  EXPECT_EQ(by_swf(w, 7).job.estimate, 45);
  EXPECT_EQ(by_swf(w, 7).runtime, 10);
}

TEST(Workload, EndStateFollowsSwfStatus) {
  Workload w = load("workload_fields.swf");
  EXPECT_EQ(by_swf(w, 1).end_state, 0);  // EPP_END_COMPLETED
  EXPECT_EQ(by_swf(w, 7).end_state, 1);  // status 0: EPP_END_FAILED
}

TEST(Workload, UnknownMachineSizeIsAnError) {
  swf::Trace t;
  t.path = "x.swf";
  try {
    prepare(t, {});
    FAIL() << "no MaxProcs and no --procs must throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--procs"), std::string::npos) << e.what();
  }
}

// The header's MaxProcs has the bound --procs has (10^8): beyond it the run is refused
// naming the file and the field (MaxProcs 2000000000 with 1.5e9-processor jobs once ended
// in std::bad_alloc). --procs replaces the header's size.
TEST(Workload, HeaderMaxProcsAboveTheBoundIsAnError) {
  swf::Trace t;
  t.path = "big.swf";
  t.header.max_procs = 2000000000;
  swf::Record r;
  r.submit = 0;
  r.runtime = 10;
  r.requested_procs = 1500000000;
  r.requested_time = 10;
  t.records.push_back(r);
  try {
    prepare(t, {});
    FAIL() << "MaxProcs 2000000000 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "big.swf: header MaxProcs: 2000000000: more than 10^8 processors, the "
              "simulator's bound: use --procs N (at most 100000000)");
  }
  WorkloadOptions o;
  o.procs = 8;
  const Workload w = prepare(t, o);
  EXPECT_EQ(w.procs, 8);
  EXPECT_EQ(w.dropped_too_wide, 1);
  t.header.max_procs = kMaxMachineProcs;  // the bound itself is a machine size
  EXPECT_EQ(prepare(t, {}).procs, kMaxMachineProcs);
}

TEST(Workload, BadFactorsAreErrors) {
  swf::Trace t = swf::read(data_path("workload_fields.swf"));
  WorkloadOptions o;
  o.load_factor = 0;
  EXPECT_THROW(prepare(t, o), std::invalid_argument);
  o.load_factor = 1;
  o.estimate_factor = -2;
  EXPECT_THROW(prepare(t, o), std::invalid_argument);
}

}  // namespace
}  // namespace easypp::sim
