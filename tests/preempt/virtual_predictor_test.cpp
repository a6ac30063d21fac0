// Paper 002's "virtual" predictor (section 5.2.2): runtime x (1 + U(-x %, x %)), seeded and
// repeatable, through the predictor library's C ABI (an alias of quant on no category).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "easypp/predictor.h"

namespace {

struct Predictor {
  explicit Predictor(const std::string& spec) { p = epp_predictor_new(spec.c_str(), err, sizeof err); }
  ~Predictor() { epp_predictor_free(p); }
  epp_predictor* p = nullptr;
  char err[256] = {0};
};

std::vector<std::int64_t> predictions(const std::string& spec, int n) {
  Predictor pr(spec);
  EXPECT_NE(pr.p, nullptr) << pr.err;
  if (pr.p == nullptr) return {};
  std::vector<epp_workload_job> w;
  for (int i = 1; i <= n; ++i) w.push_back({static_cast<std::uint64_t>(i), 1000 * i, 1, -1});
  char err[256];
  EXPECT_EQ(epp_set_workload(pr.p, w.data(), w.size(), err, sizeof err), 0) << err;
  std::vector<std::int64_t> out;
  for (int i = 1; i <= n; ++i) {
    epp_job job{static_cast<std::uint64_t>(i), 1, 0, 100000 * i, 1, 1000 * i};
    out.push_back(epp_predict(pr.p, &job));
  }
  return out;
}

TEST(VirtualPredictor, WithinPlusMinusXPercentOfTheRuntimeAndRepeatable) {
  const auto a = predictions("virtual:error=10,seed=7", 200);
  ASSERT_EQ(a.size(), 200u);
  double abs_error = 0;
  int exact = 0;
  for (int i = 1; i <= 200; ++i) {
    const double rt = 1000.0 * i;
    const double p = static_cast<double>(a[static_cast<std::size_t>(i - 1)]);
    EXPECT_GE(p, rt * 0.9 - 1) << i;
    EXPECT_LE(p, rt * 1.1 + 1) << i;
    abs_error += std::fabs(p - rt) / rt;
    exact += p == rt ? 1 : 0;
  }
  // Mean absolute error of U(-10 %, 10 %) is 5 % (the paper: "around x/2").
  EXPECT_NEAR(abs_error / 200, 0.05, 0.01);
  EXPECT_LT(exact, 10);
  EXPECT_EQ(predictions("virtual:error=10,seed=7", 200), a);  // seeded: repeatable
  EXPECT_NE(predictions("virtual:error=10,seed=8", 200), a);
}

TEST(VirtualPredictor, IsQuantOnNoCategoryAndRejectsOtherKeys) {
  Predictor v("virtual:error=20");
  ASSERT_NE(v.p, nullptr) << v.err;
  EXPECT_NE(std::string(epp_predictor_spec(v.p)).find("quant:category=pure-equal"), std::string::npos);
  Predictor bad("virtual:error=20,window=3");
  EXPECT_EQ(bad.p, nullptr);
  EXPECT_NE(std::string(bad.err).find("window=3"), std::string::npos) << bad.err;
}

}  // namespace
