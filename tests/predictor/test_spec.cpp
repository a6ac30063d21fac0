// Spec grammar: defaults, canonical form, one-line errors, and the 8,640-config sweep.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "predictor_fixture.h"

namespace easypp::test {
namespace {

const char* kDefault =
    "history:window=2,type=all,fullness=partial,metric=avg,fallback=estimate,propagation=off,"
    "correction=estimate,scale=1,learn=finished,failed_min=60";

std::string error_of(const char* spec) {
  char err[512] = "";
  epp_predictor* p = epp_predictor_new(spec, err, sizeof err);
  EXPECT_EQ(p, nullptr) << spec;
  epp_predictor_free(p);
  return err;
}

TEST(Spec, EmptyAndNullAndBareHistoryAreTheDefault) {
  EXPECT_STREQ(epp_predictor_spec(make_predictor("").get()), kDefault);
  EXPECT_STREQ(epp_predictor_spec(make_predictor("history").get()), kDefault);
  Predictor p(epp_predictor_new(nullptr, nullptr, 0));
  ASSERT_NE(p, nullptr);
  EXPECT_STREQ(epp_predictor_spec(p.get()), kDefault);
}

TEST(Spec, OmittedKeysTakeDefaultsAndKeyOrderDoesNotMatter) {
  auto p = make_predictor("history:metric=median,window=5");
  EXPECT_STREQ(epp_predictor_spec(p.get()),
               "history:window=5,type=all,fullness=partial,metric=median,fallback=estimate,propagation=off,"
               "correction=estimate,scale=1,learn=finished,failed_min=60");
}

TEST(Spec, OtherKindsCanonical) {
  EXPECT_STREQ(epp_predictor_spec(make_predictor("last").get()),
               "last:correction=estimate,scale=1,learn=finished,failed_min=60");
  EXPECT_STREQ(epp_predictor_spec(make_predictor("estimate").get()), "estimate");
  EXPECT_STREQ(epp_predictor_spec(make_predictor("double").get()), "double");
  EXPECT_STREQ(epp_predictor_spec(make_predictor("perfect").get()), "perfect");
}

TEST(Spec, CanonicalFormParsesBackToItself) {
  auto p = make_predictor("history:window=7,type=extended,fullness=full,metric=max,fallback=relative,"
                          "propagation=on,correction=exponential,scale=1.5,learn=all,failed_min=0");
  std::string canon = epp_predictor_spec(p.get());
  EXPECT_EQ(epp_predictor_spec(make_predictor(canon).get()), canon);
  EXPECT_NE(canon.find("scale=1.5"), std::string::npos);
}

// A number the default precision cannot hold is written with the digits it needs, so the
// canonical form parses back to the same value (%g made under=0.0123456789 "0.0123457").
TEST(Spec, CanonicalNumbersKeepTheirValue) {
  const std::pair<const char*, const char*> cases[] = {
      {"learned:under=0.0123456789,eta=0.123456789", "under=0.0123456789,"},
      {"learned:under=0.0123456789,eta=0.123456789", "eta=0.123456789,"},
      {"history:scale=1.23456789", "scale=1.23456789,"},
      {"last:scale=0.1", "scale=0.1,"},
      {"quant:error=12.3456789012345", "error=12.3456789012345,"},
  };
  for (const auto& [spec, part] : cases) {
    auto p = make_predictor(spec);
    const std::string canonical = epp_predictor_spec(p.get());
    EXPECT_NE(canonical.find(part), std::string::npos) << canonical;
    auto q = make_predictor(canonical);
    EXPECT_EQ(epp_predictor_spec(q.get()), canonical);
  }
}

TEST(SpecErrors, UnknownKind) {
  EXPECT_EQ(error_of("histroy"),
            "predictor spec: kind=histroy: unknown predictor (allowed: history, last, estimate, double, perfect, quant, qual, learned)");
}

TEST(SpecErrors, UnknownKeyListsTheAllowedOnes) {
  EXPECT_EQ(error_of("history:size=3"),
            "predictor spec: size=3: unknown key for history (allowed: window, type, fullness, metric, fallback, "
            "propagation, correction, scale, learn, failed_min)");
  EXPECT_EQ(error_of("estimate:window=3"), "predictor spec: window=3: unknown key for estimate (allowed: none)");
}

// What the plugin asks of a SchedulerParameters item cut off a spec at a comma.
TEST(SpecKeys, EveryKindsKeysAreSpecKeysAndNothingElse) {
  for (const char* key : {"window", "type", "fullness", "metric", "fallback", "propagation",
                          "correction", "scale", "learn", "failed_min",  // history, last
                          "target", "under", "loss", "weight", "eta", "features",  // learned
                          "category", "error", "stdev", "accurate", "extend", "lb_factor",
                          "seed", "kind", "percent"})  // quant, qual (and virtual)
    EXPECT_EQ(epp_is_spec_key(key), 1) << key;
  for (const char* key : {"", "size", "Metric", "metric=avg", "history", "easypp_window",
                          "sched_interval", "depth"})
    EXPECT_EQ(epp_is_spec_key(key), 0) << key;
  EXPECT_EQ(epp_is_spec_key(nullptr), 0);
}

TEST(SpecErrors, BadValuesNameTheKeyAndTheChoices) {
  EXPECT_EQ(error_of("history:window=0"), "predictor spec: window=0: bad value (allowed: an integer 1-30)");
  EXPECT_EQ(error_of("history:window=31"), "predictor spec: window=31: bad value (allowed: an integer 1-30)");
  EXPECT_EQ(error_of("history:window=2x"), "predictor spec: window=2x: bad value (allowed: an integer 1-30)");
  EXPECT_EQ(error_of("history:type=recent"),
            "predictor spec: type=recent: bad value (allowed: all, immediate, extended)");
  EXPECT_EQ(error_of("history:fullness=half"), "predictor spec: fullness=half: bad value (allowed: partial, full)");
  EXPECT_EQ(error_of("history:metric=mean"),
            "predictor spec: metric=mean: bad value (allowed: avg, median, min, max)");
  EXPECT_EQ(error_of("history:fallback=none"),
            "predictor spec: fallback=none: bad value (allowed: estimate, relative)");
  EXPECT_EQ(error_of("history:propagation=yes"), "predictor spec: propagation=yes: bad value (allowed: off, on)");
  EXPECT_EQ(error_of("history:correction=linear"),
            "predictor spec: correction=linear: bad value (allowed: estimate, gradual, exponential)");
  EXPECT_EQ(error_of("history:scale=0"), "predictor spec: scale=0: bad value (allowed: a number > 0 and <= 100)");
  EXPECT_EQ(error_of("history:scale=nan"),
            "predictor spec: scale=nan: bad value (allowed: a number > 0 and <= 100)");
  EXPECT_EQ(error_of("history:learn=some"),
            "predictor spec: learn=some: bad value (allowed: finished, completed, all)");
  EXPECT_EQ(error_of("history:failed_min=-1"),
            "predictor spec: failed_min=-1: bad value (allowed: seconds, an integer 0-31622400)");
}

// The message gives the real bounds: 1e-7 is > 0, yet refused.
TEST(SpecErrors, EtaNamesItsSmallestValue) {
  EXPECT_EQ(error_of("learned:eta=1e-7"),
            "predictor spec: eta=1e-7: bad value (allowed: a number >= 1e-6 and <= 1e6 (seconds))");
}

// Numbers are plain decimals: strtoll/strtod alone took leading whitespace, '+', hex, and
// for the seed a negated value ("seed= -1" was 2^64-1).
TEST(SpecErrors, NumbersArePlainDecimals) {
  for (const char* spec : {"history:window= 3", "history:window=+3", "history:window=0x3", "history:scale=0x10",
                           "history:scale= 1", "history:scale=+1", "history:scale=inf", "history:failed_min=\t60",
                           "quant:seed= -1", "quant:seed=\t5", "quant:seed=+5", "quant:seed=0x5", "quant:error= 10",
                           "learned:eta= 1", "learned:under=0x1p1"})
    EXPECT_NE(error_of(spec).find(": bad value (allowed: "), std::string::npos) << spec;
  // What they are for still parses.
  for (const char* spec : {"history:window=3", "history:scale=1.5", "history:scale=.5", "history:scale=1e1",
                           "history:scale=2.5E-1", "quant:seed=18446744073709551615", "learned:eta=1e-6"})
    EXPECT_NE(make_predictor(spec), nullptr) << spec;
}

TEST(SpecErrors, MalformedItemsAndDuplicates) {
  EXPECT_EQ(error_of("history:window"),
            "predictor spec: 'window': expected key=value (allowed keys for history: window, type, fullness, metric, "
            "fallback, propagation, correction, scale, learn, failed_min)");
  EXPECT_EQ(error_of("history:window=2,").substr(0, 29), "predictor spec: '': expected ");
  EXPECT_EQ(error_of("history:window=2,window=3"), "predictor spec: window=3: key given twice");
}

TEST(SpecErrors, ErrorIsTruncatedSafelyIntoASmallBuffer) {
  char err[8];
  std::memset(err, 'x', sizeof err);
  EXPECT_EQ(epp_predictor_new("nope", err, sizeof err), nullptr);
  EXPECT_STREQ(err, "predict");
  EXPECT_EQ(epp_predictor_new("nope", nullptr, 0), nullptr);
}

TEST(Sweep, HasExactly8640DistinctParseableConfigurations) {
  ASSERT_EQ(epp_sweep_size(), 8640u);
  std::set<std::string> seen;
  std::map<std::string, int> values;
  char buf[256];
  for (std::size_t i = 0; i < epp_sweep_size(); ++i) {
    ASSERT_GT(epp_sweep_spec(i, buf, sizeof buf), 0) << i;
    seen.insert(buf);
    // Each key=value occurs in a fixed share of the space.
    std::string s(buf);
    for (const char* key : {"type=", "metric=", "correction=", "fallback=", "fullness=", "propagation="}) {
      auto at = s.find(key);
      ASSERT_NE(at, std::string::npos);
      values[s.substr(at, s.find(',', at) - at)]++;
    }
  }
  EXPECT_EQ(seen.size(), 8640u);
  EXPECT_EQ(values["type=extended"], 2880);
  EXPECT_EQ(values["metric=median"], 2160);
  EXPECT_EQ(values["correction=gradual"], 2880);
  EXPECT_EQ(values["fallback=relative"], 4320);
  EXPECT_EQ(values["fullness=full"], 4320);
  EXPECT_EQ(values["propagation=on"], 4320);
  // Every listed spec is accepted and is already canonical.
  for (std::size_t i : {0ul, 29ul, 4321ul, 8639ul}) {
    epp_sweep_spec(i, buf, sizeof buf);
    EXPECT_STREQ(epp_predictor_spec(make_predictor(buf).get()), buf);
  }
  EXPECT_EQ(epp_sweep_spec(8640, buf, sizeof buf), -1);
  EXPECT_EQ(epp_sweep_spec(0, buf, 10), -1);
}

}  // namespace
}  // namespace easypp::test
