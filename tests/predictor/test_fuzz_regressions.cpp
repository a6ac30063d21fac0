// Regression tests for what the libFuzzer harnesses (tests/fuzz) found; each names the
// crashing input kept in the seed corpus.
#include <gtest/gtest.h>
#include <string>

#include "predictor_fixture.h"

namespace easypp::test {
namespace {

bool one_printable_line(const char* s) {
  for (; *s; ++s)
    if (static_cast<unsigned char>(*s) < 0x20 || *s == 0x7f) return false;
  return true;
}

// tests/fuzz/predictor_spec/crash-4e740104...: the error quoted the spec with its line
// break, so the caller's "one line" (a slurmctld log line) split in two.
TEST(FuzzRegressions, SpecErrorStaysOneLine) {
  char err[256] = "";
  EXPECT_EQ(epp_predictor_new("hIs\ntory", err, sizeof err), nullptr);
  EXPECT_TRUE(one_printable_line(err)) << err;
  EXPECT_NE(std::string(err).find("hIs?tory"), std::string::npos) << err;
}

// The same fix (set_error) covers an accounting line whose bad value holds an escape
// sequence (easypp-predict prints these to a terminal).
TEST(FuzzRegressions, AccountingErrorStaysOneLine) {
  epp_record r{};
  char err[256] = "";
  EXPECT_EQ(epp_parse_sacct_line("42|bob|10\x1b[2J02|x|y|z|30|8|COMPLETED|b|x", &r, err, sizeof err), -1);
  EXPECT_TRUE(one_printable_line(err)) << err;
}

}  // namespace
}  // namespace easypp::test
