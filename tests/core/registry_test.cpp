// make_policy / policy_names: the names drivers and users type.
#include <gtest/gtest.h>

#include <stdexcept>

#include "core/policy.h"

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

}  // namespace
}  // namespace easypp
