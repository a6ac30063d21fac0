// The command-line conventions shared by easypp-sim, -replay, -sweep and -predict.
#include "cli/command_line.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace easypp::cli {
namespace {

struct Seen {
  std::vector<std::string> options;  // "name=value", or "name" for a flag
  std::vector<std::string> positional;
  std::vector<std::string> rest;
};

// A little tool: --trace and --jobs take values, --quiet is a flag, --sacct takes the rest.
Seen scan(const std::vector<std::string>& args) {
  Seen seen;
  for (OptionScanner s(args, 1); s.next();) {
    if (s.is("--trace") || s.is("--jobs")) {
      const std::string name = s.arg();
      seen.options.push_back(name + "=" + s.value());
    } else if (s.is("--quiet")) {
      s.flag();
      seen.options.push_back("--quiet");
    } else if (s.is("--sacct")) {
      seen.rest = s.rest();
    } else if (s.is_option()) {
      s.unknown();
    } else {
      seen.positional.push_back(s.arg());
    }
  }
  return seen;
}

std::string usage_error(const std::vector<std::string>& args) {
  try {
    scan(args);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(OptionScanner, SkipsTheFirstArgumentsAndAcceptsBothValueForms) {
  const Seen seen = scan({"tool", "--trace", "a.swf", "--jobs=2", "--quiet", "x=y", "-"});
  EXPECT_EQ(seen.options, (std::vector<std::string>{"--trace=a.swf", "--jobs=2", "--quiet"}));
  // '=' in a positional argument is not an option value; "-" (standard input) is positional.
  EXPECT_EQ(seen.positional, (std::vector<std::string>{"x=y", "-"}));
}

TEST(OptionScanner, AValueMayBeEmptyOrLookLikeAnOption) {
  EXPECT_EQ(scan({"tool", "--trace="}).options, (std::vector<std::string>{"--trace="}));
  EXPECT_EQ(scan({"tool", "--trace", "--quiet"}).options,
            (std::vector<std::string>{"--trace=--quiet"}));
  // Only the first '=' splits.
  EXPECT_EQ(scan({"tool", "--trace=a=b"}).options, (std::vector<std::string>{"--trace=a=b"}));
}

TEST(OptionScanner, RestTakesEverythingAfterTheOption) {
  const Seen seen = scan({"tool", "--sacct", "-S", "now-1day", "--quiet"});
  EXPECT_EQ(seen.rest, (std::vector<std::string>{"-S", "now-1day", "--quiet"}));
  EXPECT_TRUE(seen.options.empty());
}

TEST(OptionScanner, ErrorsNameTheOptionAndTheValue) {
  EXPECT_EQ(usage_error({"tool", "--trace"}), "--trace: needs a value");
  EXPECT_EQ(usage_error({"tool", "--quiet=yes"}), "--quiet=yes: takes no value");
  EXPECT_EQ(usage_error({"tool", "--frobnicate"}), "--frobnicate: unknown option (see --help)");
  EXPECT_EQ(usage_error({"tool", "-x"}), "-x: unknown option (see --help)");
}

TEST(ParseInteger, AcceptsTheWholeRangeAndNothingElse) {
  EXPECT_EQ(parse_integer("--procs", "1", 1, 100), 1);
  EXPECT_EQ(parse_integer("--procs", "100", 1, 100), 100);
  for (const char* bad : {"0", "101", "", "1x", " 1", "1.5", "+1", "99999999999999999999"}) {
    try {
      parse_integer("--procs", bad, 1, 100);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()),
                std::string("--procs=") + bad + ": expected an integer in [1, 100]");
    }
  }
}

TEST(ParseNumber, HonoursAStrictOrInclusiveLowerBound) {
  EXPECT_DOUBLE_EQ(parse_number("--load-factor", "0.5", 0, false), 0.5);
  EXPECT_DOUBLE_EQ(parse_number("--speedup", "1", 1, true), 1.0);
  EXPECT_DOUBLE_EQ(parse_number("--speedup", "1e3", 1, true), 1000.0);
  auto message = [](const char* v, double min, bool allowed) {
    try {
      parse_number("--x", v, min, allowed);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(message("0", 0, false), "--x=0: expected a number > 0");
  EXPECT_EQ(message("0.5", 1, true), "--x=0.5: expected a number >= 1");
  EXPECT_EQ(message("0.05", 0.1, true), "--x=0.05: expected a number >= 0.1");
  EXPECT_EQ(message("inf", 0, false), "--x=inf: expected a number > 0");
  EXPECT_EQ(message("nan", 0, false), "--x=nan: expected a number > 0");
  EXPECT_EQ(message("2x", 0, false), "--x=2x: expected a number > 0");
  EXPECT_EQ(message("", 0, false), "--x=: expected a number > 0");
}

}  // namespace
}  // namespace easypp::cli
