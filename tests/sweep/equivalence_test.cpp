// The equivalences the sweep uses to simulate each behaviour once (config_space.h E1-E4):
// every member of a class must give exactly the representative's simulation, job by job.
// And the test trace must be able to tell configurations apart that are not declared
// equivalent, or the equalities would prove nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/policy.h"
#include "sim/simulator.h"
#include "sim/swf.h"
#include "sim/workload.h"
#include "sweep/config_space.h"
#include "sweep_test_support.h"

namespace easypp::sweep {
namespace {

struct Fingerprint {
  std::vector<Time> starts;
  std::vector<double> accuracy;
  std::vector<int> corrections;
  bool operator==(const Fingerprint&) const = default;
};

class Equivalence : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    testing::TempDir dir;
    testing::write_synthetic_swf(dir.file("synthetic.swf"), 800);
    workload_ = new sim::Workload(sim::prepare(swf::read(dir.file("synthetic.swf")), {}));
    space_ = new ConfigSpace();
  }
  static void TearDownTestSuite() {
    delete workload_;
    delete space_;
  }

  static Fingerprint run(std::size_t config) {
    PolicyOptions po;
    po.predictor = space_->spec(config);
    auto policy = make_policy("easy++", po);
    const measure::SimOutcome o = sim::simulate(*workload_, *policy);
    Fingerprint f;
    for (const auto& j : o.jobs) {
      f.starts.push_back(j.start);
      f.accuracy.push_back(j.accuracy);
      f.corrections.push_back(j.corrections);
    }
    return f;
  }

  static std::size_t index(const std::string& spec) { return space_->index_of_spec(spec); }

  // Every class among configurations with these correction/propagation values and window
  // sizes: all members equal the representative.
  static void expect_classes_equal(const char* correction, const char* propagation,
                                   std::vector<std::string> windows) {
    std::map<std::size_t, std::vector<std::size_t>> classes;
    for (std::size_t c = 0; c < space_->size(); ++c) {
      const Parameters& p = space_->parameters(c);
      if (p[6] != correction || p[5] != propagation) continue;
      if (std::find(windows.begin(), windows.end(), p[0]) == windows.end()) continue;
      classes[space_->representative(c)].push_back(c);
    }
    std::size_t compared = 0;
    for (const auto& [rep, members] : classes) {
      if (members.size() < 2) continue;
      const Fingerprint expected = run(rep);
      for (std::size_t m : members) {
        if (m == rep) continue;
        EXPECT_TRUE(run(m) == expected) << space_->spec(m) << " differs from its representative "
                                        << space_->spec(rep);
        ++compared;
      }
    }
    EXPECT_GT(compared, 0u);
  }

  static sim::Workload* workload_;
  static ConfigSpace* space_;
};

sim::Workload* Equivalence::workload_ = nullptr;
ConfigSpace* Equivalence::space_ = nullptr;

TEST_F(Equivalence, ClassCountsFollowTheRules) {
  // Per (correction, propagation) pair of the 1,440: window 1 keeps type all: 1, immediate
  // and extended: 2 fallbacks each (5); window 2: all: 3 metrics x (1 partial + 2 full) = 9,
  // immediate/extended: 3 x 2 x 2 = 12 each (33); windows 3-30: 12 + 16 + 16 = 44 each.
  std::size_t classes = 0;
  for (std::size_t c = 0; c < space_->size(); ++c) classes += space_->representative(c) == c;
  EXPECT_EQ(classes, 6u * (5 + 33 + 28 * 44));
  for (std::size_t c = 0; c < space_->size(); ++c) {
    EXPECT_LE(space_->representative(c), c);
    EXPECT_EQ(space_->representative(space_->representative(c)), space_->representative(c));
  }
}

TEST_F(Equivalence, NamedPairsShareAClass) {
  const std::string base = "history:correction=estimate,";  // propagation: off by default
  auto rep = [&](const std::string& keys) { return space_->representative(index(base + keys)); };
  // E1, E2
  EXPECT_EQ(rep("window=1,type=immediate,fullness=full,metric=max,fallback=relative"),
            rep("window=1,type=immediate,fullness=partial,metric=avg,fallback=relative"));
  // E3
  EXPECT_EQ(rep("window=2,type=extended,fullness=full,metric=median,fallback=relative"),
            rep("window=2,type=extended,fullness=full,metric=avg,fallback=relative"));
  // E4
  EXPECT_EQ(rep("window=9,type=all,fullness=partial,metric=min,fallback=relative"),
            rep("window=9,type=all,fullness=partial,metric=min,fallback=estimate"));
  // Not equivalent: the rules do not reach these.
  EXPECT_NE(rep("window=2,type=all,fullness=partial,metric=min"),
            rep("window=2,type=all,fullness=partial,metric=avg"));
  EXPECT_NE(rep("window=3,type=all,fullness=partial,metric=median"),
            rep("window=3,type=all,fullness=partial,metric=avg"));
  EXPECT_NE(rep("window=5,type=all,fullness=full,fallback=relative"),
            rep("window=5,type=all,fullness=full,fallback=estimate"));
  EXPECT_NE(rep("window=1,type=immediate,fallback=relative"),
            rep("window=1,type=immediate,fallback=estimate"));
}

TEST_F(Equivalence, TraceSeparatesWhatTheRulesKeepApart) {
  const std::string base = "history:correction=estimate,";  // propagation: off by default
  auto differ = [&](const std::string& a, const std::string& b) {
    return !(run(index(base + a)) == run(index(base + b)));
  };
  EXPECT_TRUE(differ("window=3,type=all,metric=median", "window=3,type=all,metric=avg"));
  EXPECT_TRUE(differ("window=2,type=all,metric=min", "window=2,type=all,metric=max"));
  EXPECT_TRUE(differ("window=4,type=all,fullness=full,fallback=relative",
                     "window=4,type=all,fullness=full,fallback=estimate"));
  EXPECT_TRUE(differ("window=1,type=immediate,fallback=relative",
                     "window=1,type=immediate,fallback=estimate"));
  EXPECT_TRUE(differ("window=1,type=extended,fallback=relative",
                     "window=1,type=extended,fallback=estimate"));
  EXPECT_TRUE(differ("window=3,type=all,fullness=full", "window=3,type=all,fullness=partial"));
  EXPECT_TRUE(differ("window=2,type=all,propagation=on", "window=2,type=all,propagation=off"));
}

TEST_F(Equivalence, SmallWindowsEstimateCorrection) {
  expect_classes_equal("estimate", "off", {"1", "2"});
}

TEST_F(Equivalence, SmallWindowsGradualCorrectionWithPropagation) {
  expect_classes_equal("gradual", "on", {"1", "2"});
}

TEST_F(Equivalence, AllPartialFallbackAtLargerWindows) {
  expect_classes_equal("exponential", "on", {"3", "17", "30"});
}

}  // namespace
}  // namespace easypp::sweep
