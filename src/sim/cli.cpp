#include "sim/cli.h"

#include <charconv>
#include <cmath>

namespace easypp::sim {
namespace {

[[noreturn]] void bad(const std::string& option, const std::string& value,
                      const std::string& why) {
  throw UsageError(option + "=" + value + ": " + why);
}

double positive_number(const std::string& option, const std::string& value) {
  double x = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), x);
  if (ec != std::errc() || end != value.data() + value.size() || !std::isfinite(x) || x <= 0) {
    bad(option, value, "expected a number > 0");
  }
  return x;
}

std::int64_t integer(const std::string& option, const std::string& value, std::int64_t min,
                     std::int64_t max) {
  std::int64_t x = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), x);
  if (ec != std::errc() || end != value.data() + value.size() || x < min || x > max) {
    bad(option, value,
        "expected an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  }
  return x;
}

std::vector<std::string> split_commas(const std::string& option, const std::string& value) {
  std::vector<std::string> out;
  size_t from = 0;
  for (;;) {
    size_t comma = value.find(',', from);
    std::string item = value.substr(from, comma == std::string::npos ? std::string::npos
                                                                     : comma - from);
    if (item.empty()) bad(option, value, "empty policy name in the list");
    out.push_back(item);
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  return out;
}

}  // namespace

const char* cli_usage() {
  return "usage: easypp-sim --trace FILE --policy P[,P2,...] [--predictor SPEC] [--procs N]\n"
         "         [--size-from requested|allocated] [--runtime replay|cap]\n"
         "         [--load-factor X] [--estimate-factor X] [--skip-bad] [--seed N]\n"
         "         [--repeat N] [--format table|csv|json]\n"
         "         [--base fcfs|easy] [--trial-length S]  (timed-run)\n"
         "Replays an SWF trace (plain or gzip) through each policy and prints paper-000\n"
         "metrics; the table compares every policy with the first. See easypp-sim(1).\n";
}

CliOptions parse_cli(const std::vector<std::string>& args) {
  CliOptions o;
  for (size_t i = 1; i < args.size(); ++i) {
    std::string arg = args[i];
    std::string value;
    bool has_value = false;
    if (size_t eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      has_value = true;
    }
    auto next = [&]() -> std::string {
      if (has_value) return value;
      if (i + 1 >= args.size()) throw UsageError(arg + ": needs a value");
      return args[++i];
    };
    auto flag = [&]() {
      if (has_value) bad(arg, value, "takes no value");
    };
    if (arg == "--help" || arg == "-h") {
      flag();
      o.help = true;
    } else if (arg == "--trace") {
      o.trace = next();
      if (o.trace.empty()) bad(arg, o.trace, "empty file name");
    } else if (arg == "--policy") {
      std::string v = next();
      o.policies = split_commas(arg, v);
    } else if (arg == "--predictor") {
      o.predictor = next();
    } else if (arg == "--base") {
      o.base = next();
      if (o.base != "fcfs" && o.base != "easy") bad(arg, o.base, "expected fcfs or easy");
    } else if (arg == "--trial-length") {
      std::string v = next();
      o.trial_length = integer(arg, v, 0, 100000000);
    } else if (arg == "--procs") {
      std::string v = next();
      o.workload.procs = static_cast<int>(integer(arg, v, 1, 100000000));
    } else if (arg == "--size-from") {
      std::string v = next();
      if (v == "requested") {
        o.workload.size_from = SizeFrom::requested;
      } else if (v == "allocated") {
        o.workload.size_from = SizeFrom::allocated;
      } else {
        bad(arg, v, "expected requested or allocated");
      }
    } else if (arg == "--runtime") {
      std::string v = next();
      if (v == "replay") {
        o.sim.runtime = RuntimeMode::replay;
      } else if (v == "cap") {
        o.sim.runtime = RuntimeMode::cap;
      } else {
        bad(arg, v, "expected replay or cap");
      }
    } else if (arg == "--load-factor") {
      o.workload.load_factor = positive_number(arg, next());
    } else if (arg == "--estimate-factor") {
      o.workload.estimate_factor = positive_number(arg, next());
    } else if (arg == "--skip-bad") {
      flag();
      o.skip_bad = true;
    } else if (arg == "--seed") {
      std::string v = next();
      o.seed = static_cast<std::uint64_t>(integer(arg, v, 0, INT64_MAX));
    } else if (arg == "--repeat") {
      std::string v = next();
      o.repeat = static_cast<int>(integer(arg, v, 1, 10000));
    } else if (arg == "--format") {
      std::string v = next();
      if (v == "table") {
        o.format = Format::table;
      } else if (v == "csv") {
        o.format = Format::csv;
      } else if (v == "json") {
        o.format = Format::json;
      } else {
        bad(arg, v, "expected table, csv or json");
      }
    } else {
      throw UsageError(arg + ": unknown option (see --help)");
    }
  }
  if (o.help) return o;
  if (o.trace.empty()) throw UsageError("--trace: required");
  if (o.policies.empty()) throw UsageError("--policy: required");
  return o;
}

}  // namespace easypp::sim
