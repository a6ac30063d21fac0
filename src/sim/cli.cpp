#include "sim/cli.h"

#include <memory>

#include "sim/machine_spec.h"

#include "cli/command_line.h"

namespace easypp::sim {
namespace {

using cli::parse_integer;

// Policies are separated by commas; a policy's own keys are too (easy++:depth=2,x=y), so
// an item of the form key=value (no ':' before its '=') continues the policy before it.
std::vector<std::string> split_commas(const cli::OptionScanner& s, const std::string& value) {
  std::vector<std::string> out;
  size_t from = 0;
  for (;;) {
    size_t comma = value.find(',', from);
    std::string item = value.substr(from, comma == std::string::npos ? std::string::npos
                                                                     : comma - from);
    if (item.empty()) s.bad(value, "empty policy name in the list");
    const size_t eq = item.find('=');
    const bool continues = eq != std::string::npos && item.find(':') > eq;
    if (continues && !out.empty() && out.back().find(':') != std::string::npos) {
      out.back() += "," + item;
    } else {
      out.push_back(item);
    }
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  return out;
}

}  // namespace

const char* cli_usage() {
  return "usage: easypp-sim --trace FILE --policy P[,P2,...] [--predictor SPEC] [--procs N]\n"
         "         [--machine 'nodes=N,cpus=C[,mem=M][,gpu=G]' | --machine FILE]\n"
         "         [--whole-nodes]\n"
         "         [--size-from requested|allocated] [--runtime replay|cap]\n"
         "         [--load-factor X] [--estimate-factor X] [--skip-bad] [--seed N]\n"
         "         [--repeat N] [--format table|csv|json] [--schedule FILE[.csv]]\n"
         "         [--base fcfs|easy] [--trial-length S]  (aliases of timed-run's keys)\n"
         "       easypp-sim --list-policies\n"
         "Replays an SWF trace (plain or gzip) through each policy and prints paper-000\n"
         "metrics; the table compares every policy with the first. See easypp-sim(1).\n";
}

CliOptions parse_cli(const std::vector<std::string>& args) {
  CliOptions o;
  for (cli::OptionScanner s(args, 1); s.next();) {
    const std::string& arg = s.arg();
    if (arg == "--help" || arg == "-h") {
      s.flag();
      o.help = true;
    } else if (arg == "--trace") {
      o.trace = s.value();
      if (o.trace.empty()) s.bad(o.trace, "empty file name");
    } else if (arg == "--policy") {
      std::string v = s.value();
      o.policies = split_commas(s, v);
    } else if (arg == "--predictor") {
      o.predictor = s.value();
    } else if (arg == "--base") {
      o.base = s.value();
      o.base_given = true;
      if (o.base != "fcfs" && o.base != "easy") s.bad(o.base, "expected fcfs or easy");
    } else if (arg == "--trial-length") {
      std::string v = s.value();
      o.trial_length = parse_integer(arg, v, 0, 100000000);
      o.trial_length_given = true;
    } else if (arg == "--list-policies") {
      s.flag();
      o.list_policies = true;
    } else if (arg == "--schedule") {
      o.schedule = s.value();
      if (o.schedule.empty()) s.bad(o.schedule, "empty file name");
    } else if (arg == "--procs") {
      std::string v = s.value();
      o.workload.procs = static_cast<int>(parse_integer(arg, v, 1, kMaxMachineProcs));
    } else if (arg == "--machine") {
      std::string v = s.value();
      try {
        o.workload.machine = std::make_shared<const Machine>(parse_machine(v));
      } catch (const std::invalid_argument& e) {
        s.bad(v, e.what());
      }
    } else if (arg == "--whole-nodes") {
      s.flag();
      o.workload.whole_nodes = true;
    } else if (arg == "--size-from") {
      std::string v = s.value();
      if (v == "requested") {
        o.workload.size_from = SizeFrom::requested;
      } else if (v == "allocated") {
        o.workload.size_from = SizeFrom::allocated;
      } else {
        s.bad(v, "expected requested or allocated");
      }
    } else if (arg == "--runtime") {
      std::string v = s.value();
      if (v == "replay") {
        o.sim.runtime = RuntimeMode::replay;
      } else if (v == "cap") {
        o.sim.runtime = RuntimeMode::cap;
      } else {
        s.bad(v, "expected replay or cap");
      }
    } else if (arg == "--load-factor" || arg == "--estimate-factor") {
      const std::string value = s.value();
      const double x = cli::parse_number(arg, value, 0, false);
      // Scaled times must stay times (SWF's are within 2^40 s): 1e300 made negative submits.
      if (x > 1000) throw UsageError(arg + "=" + value + ": expected a number > 0 and <= 1000");
      (arg == "--load-factor" ? o.workload.load_factor : o.workload.estimate_factor) = x;
    } else if (arg == "--skip-bad") {
      s.flag();
      o.skip_bad = true;
    } else if (arg == "--seed") {
      std::string v = s.value();
      o.seed = static_cast<std::uint64_t>(parse_integer(arg, v, 0, INT64_MAX));
    } else if (arg == "--repeat") {
      std::string v = s.value();
      o.repeat = static_cast<int>(parse_integer(arg, v, 1, 10000));
    } else if (arg == "--format") {
      std::string v = s.value();
      if (v == "table") {
        o.format = Format::table;
      } else if (v == "csv") {
        o.format = Format::csv;
      } else if (v == "json") {
        o.format = Format::json;
      } else {
        s.bad(v, "expected table, csv or json");
      }
    } else if (s.is_option()) {
      s.unknown();
    } else {
      throw UsageError(arg + ": unexpected argument (see --help)");
    }
  }
  if (o.help || o.list_policies) return o;
  if (o.trace.empty()) throw UsageError("--trace: required");
  if (o.policies.empty()) throw UsageError("--policy: required");
  return o;
}

}  // namespace easypp::sim
