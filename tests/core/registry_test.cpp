// make_policy / policy_names: the names drivers and users type.
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>

#include "core/policy.h"
#include "snapshot.h"

namespace easypp {
namespace {

TEST(Registry, EveryListedNameBuildsAPolicyOfThatName) {
  const std::vector<std::string> names = policy_names();
  for (const char* required :
       {"fcfs", "easy", "easy-pcor", "easy+", "easy-sjbf", "easy++", "perfect++",
        "conservative", "x2", "x2+", "x2++", "sjf", "sjf+", "easy++-dbook", "easy++-safe"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), required), names.end()) << required;
  }
  for (const std::string& name : names) {
    const auto p = make_policy(name);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->name(), name);
  }
}

TEST(Registry, UnknownNameIsNamedAndValidOnesListed) {
  try {
    make_policy("easy+++");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("policy=easy+++"), std::string::npos) << what;
    // Every name policy_names() gives, including those built outside the table.
    for (const std::string& name : policy_names())
      EXPECT_NE(what.find(name), std::string::npos) << name << " missing from: " << what;
  }
}

// policy_families(): every name, each with the keys its policy reads; each listed key is
// accepted by that policy (here with a value each key takes), and a key not listed is not.
TEST(Registry, FamiliesListEveryNameAndItsKeys) {
  const std::vector<PolicyFamily> families = policy_families();
  const std::vector<std::string> names = policy_names();
  ASSERT_EQ(families.size(), names.size());
  const std::map<std::string, std::string> sample = {
      {"depth", "2"}, {"bound", "0"},      {"guard", "always"},      {"age", "3600"},
      {"lxfw", "20"}, {"base", "fcfs"},    {"trial", "120"},         {"limits", "60/3600"},
      {"starve", "86400"}, {"delay", "600"}, {"lookahead", "20"}, {"front", "3"},
      {"oldfirst", "90"}, {"fair", "86400"}, {"protect", "2"}, {"split", "short"},
      {"splitby", "kill"}, {"splitn", "3"}, {"classes", "10"}};
  for (std::size_t i = 0; i < families.size(); ++i) {
    EXPECT_EQ(families[i].name, names[i]);
    for (const PolicyKey& k : families[i].keys) {
      ASSERT_TRUE(sample.count(k.key)) << k.key;
      std::string spec = families[i].name + ":" + k.key + "=" + sample.at(k.key);
      // these need a bound
      if (k.key == "guard" || k.key == "starve" || k.key == "fair" || k.key == "protect") {
        spec += ",bound=0";
      }
      // these need split= (and splitby=kill a bound)
      if (k.key == "splitby" || k.key == "splitn") spec += ",split=short,bound=0";
      EXPECT_NO_THROW(make_policy(spec)) << spec;
    }
    EXPECT_THROW(make_policy(families[i].name + ":nokey=1"), std::invalid_argument);
  }
  auto family = [&](const std::string& name) {
    for (const PolicyFamily& f : families)
      if (f.name == name) return f.usage();
    return std::string();
  };
  EXPECT_EQ(family("timed-run"), "timed-run[:base=fcfs|easy,trial=SECONDS]");
  EXPECT_EQ(family("easy"), "easy[:depth=N,bound=off|SECONDS,guard=slipped|always|tight,starve=off|SECONDS,"
            "fair=off|SECONDS,protect=off|N,lookahead=off|N]");
  EXPECT_EQ(family("conservative"), "conservative");
  EXPECT_EQ(family("mq-vd"), "mq-vd[:limits=SECONDS/SECONDS/...,delay=SECONDS]");
}

TEST(Registry, TraitsFollowThePaper) {
  EXPECT_EQ(make_policy("easy")->traits().predictor, "estimate");
  EXPECT_FALSE(make_policy("easy")->traits().correct_predictions);
  EXPECT_TRUE(make_policy("easy-pcor")->traits().correct_predictions);
  EXPECT_EQ(make_policy("easy-pcor")->traits().predictor, "estimate");
  EXPECT_EQ(make_policy("easy+")->traits().predictor, "history");
  EXPECT_TRUE(make_policy("easy+")->traits().correct_predictions);
  EXPECT_EQ(make_policy("easy++")->traits().predictor, "history");
  EXPECT_EQ(make_policy("perfect++")->traits().predictor, "perfect");
  EXPECT_EQ(make_policy("sjf")->traits().predictor, "estimate");
  EXPECT_TRUE(make_policy("sjf+")->traits().correct_predictions);
  EXPECT_EQ(make_policy("easy")->traits().estimate_factor, 1.0);
}

TEST(Registry, PredictorOptionOverridesPlusPolicies) {
  PolicyOptions o;
  o.predictor = "history:type=immediate";
  for (const char* name : {"easy+", "easy++", "x2+", "sjf+", "easy++-safe", "easy++-dbook"}) {
    EXPECT_EQ(make_policy(name, o)->traits().predictor, "history:type=immediate") << name;
  }
  // The default is untouched by an earlier override.
  EXPECT_EQ(make_policy("easy++")->traits().predictor, "history");
}

TEST(Registry, PredictorOptionRejectedWhereTheNameFixesIt) {
  PolicyOptions o;
  o.predictor = "history";
  for (const char* name : {"easy", "x2", "sjf", "perfect++", "fcfs"}) {
    try {
      make_policy(name, o);
      ADD_FAILURE() << name << ": no exception";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("policy=") + name), std::string::npos)
          << e.what();
    }
  }
}


// Policy keys (NAME:key=value,...): each policy reads its own; a key it does not take, a
// malformed item or a value out of range is an error naming the policy and the key=value.
TEST(Registry, KeysAreReadByTheirPolicy) {
  auto deep = make_policy("easy++:depth=3");
  EXPECT_EQ(deep->name(), "easy++:depth=3");
  EXPECT_EQ(make_policy("easy++:depth=1")->name(), "easy++:depth=1");
  auto expect_error = [](const char* spec, const char* text) {
    try {
      make_policy(spec);
      ADD_FAILURE() << spec << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
  };
  expect_error("easy++:depht=3", "policy easy++: depht=3: not a key of this policy");
  expect_error("easy++:depth=0", "policy easy++: depth=0: must be in 1..1000");
  expect_error("easy++:depth=x", "depth=x: not a whole number");
  expect_error("easy++:depth", "'depth' is not key=value");
  expect_error("easy++:depth=2,depth=3", "key depth given twice");
  expect_error("conservative:depth=2", "policy conservative: depth=2: not a key of this policy");
  expect_error("timed-run:base=sjf", "policy timed-run: base=sjf: expected fcfs|easy");
  // Named by its spec, so runs with other keys are told apart (as the EASY family).
  EXPECT_EQ(make_policy("timed-run:base=fcfs,trial=60")->name(), "timed-run:base=fcfs,trial=60");
  EXPECT_EQ(make_policy("timed-run")->name(), "timed-run");
}

// depth=N gives N reservations per pass (hand-computed in node_easy_test's
// ReservationDepthProtectsTheSecondJob; here through the registry): 16 CPUs, 8 busy until
// 100; H1 12 CPUs and H2 16 CPUs for 100 s; B 4 CPUs for 500 s backfills under EASY only.
TEST(Registry, DepthKeyGivesReservations) {
  ClusterState s;
  s.procs = 16;
  s.running.push_back(test::running(1, 8, 0, 100));
  s.waiting.push_back(test::waiting(10, 12, 100));
  s.waiting.push_back(test::waiting(11, 16, 100));
  s.waiting.push_back(test::waiting(12, 4, 500));
  const Decision easy = make_policy("easy")->plan(s);
  EXPECT_EQ(easy.reservations.size(), 1u);
  EXPECT_TRUE(test::backfills(easy, 12));
  const Decision two = make_policy("easy:depth=2")->plan(s);
  ASSERT_EQ(two.reservations.size(), 2u);
  EXPECT_EQ(two.reservations[1].start, 200);
  EXPECT_FALSE(test::starts(two, 12));
}
}  // namespace
}  // namespace easypp
