#include "replay/cli.h"

#include <cmath>
#include <cstdint>

namespace easypp::replay {
namespace {

[[noreturn]] void bad(const std::string& option, const std::string& value, const std::string& why) {
  throw UsageError(option + "=" + value + ": " + why);
}

std::int64_t integer(const std::string& option, const std::string& v, std::int64_t lo, std::int64_t hi) {
  std::size_t used = 0;
  std::int64_t x = 0;
  try {
    x = std::stoll(v, &used);
  } catch (const std::exception&) {
    bad(option, v, "not an integer");
  }
  if (used != v.size()) bad(option, v, "not an integer");
  if (x < lo || x > hi) bad(option, v, "must be in " + std::to_string(lo) + ".." + std::to_string(hi));
  return x;
}

double number(const std::string& option, const std::string& v, double lo) {
  std::size_t used = 0;
  double x = 0;
  try {
    x = std::stod(v, &used);
  } catch (const std::exception&) {
    bad(option, v, "not a number");
  }
  if (used != v.size() || !std::isfinite(x)) bad(option, v, "not a number");
  if (x < lo) bad(option, v, "must be >= " + std::to_string(lo).substr(0, std::to_string(lo).find('.') + 2));
  return x;
}

}  // namespace

const char* usage() {
  return "usage: easypp-replay --trace FILE --speedup F [--first-job K] [--jobs N]\n"
         "         [--window START:END] [--cpus N] [--partition P] [--out PREFIX]\n"
         "         [--create-users | --as-self] [--user-prefix eppu] [--policy NAME]\n"
         "         [--simulate POLICY] [--write-slice FILE] [--jobcomp FILE]\n"
         "         [--sbatch-arg ARG]... [--timeout SECONDS] [--progress SECONDS]\n"
         "         [--size-from requested|allocated] [--dry-run]\n"
         "Replays a slice of an SWF trace on the Slurm cluster SLURM_CONF selects, F times\n"
         "faster, and writes the simulator's metrics of the real schedule to PREFIX.json\n"
         "and per-job rows to PREFIX.jobs.csv. With --simulate, runs the simulator on the\n"
         "same effective jobs instead. See easypp-replay(1).\n";
}

ReplayOptions parse_cli(const std::vector<std::string>& args) {
  ReplayOptions o;
  for (std::size_t i = 1; i < args.size(); ++i) {
    std::string arg = args[i];
    std::string value;
    bool has_value = false;
    if (auto eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
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
    } else if (arg == "--first-job") {
      o.slice.first_job = integer(arg, next(), 0, INT64_MAX);
    } else if (arg == "--jobs") {
      o.slice.jobs = integer(arg, next(), 1, 10000000);
    } else if (arg == "--window") {
      std::string v = next();
      auto colon = v.find(':');
      if (colon == std::string::npos) bad(arg, v, "expected START:END (trace submit seconds)");
      o.slice.window_start = integer(arg, v.substr(0, colon), 0, INT64_MAX);
      o.slice.window_end = integer(arg, v.substr(colon + 1), 1, INT64_MAX);
      if (o.slice.window_end <= o.slice.window_start) bad(arg, v, "END must be after START");
    } else if (arg == "--speedup") {
      o.speedup = number(arg, next(), 1);
    } else if (arg == "--cpus") {
      o.cpus = static_cast<int>(integer(arg, next(), 1, 10000000));
    } else if (arg == "--partition") {
      o.partition = next();
    } else if (arg == "--user-prefix") {
      o.user_prefix = next();
      for (char c : o.user_prefix) {
        if (!(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9') && c != '_') {
          bad(arg, o.user_prefix, "use lower-case letters, digits and _ (a user name prefix)");
        }
      }
      if (o.user_prefix.empty() || !(o.user_prefix[0] >= 'a' && o.user_prefix[0] <= 'z')) {
        bad(arg, o.user_prefix, "must start with a lower-case letter");
      }
    } else if (arg == "--create-users") {
      flag();
      o.create_users = true;
    } else if (arg == "--as-self") {
      flag();
      o.as_self = true;
    } else if (arg == "--policy") {
      o.policy = next();
    } else if (arg == "--simulate") {
      o.simulate = next();
    } else if (arg == "--out") {
      o.out = next();
    } else if (arg == "--write-slice") {
      o.write_slice = next();
    } else if (arg == "--jobcomp") {
      o.jobcomp = next();
    } else if (arg == "--sbatch-arg") {
      o.sbatch_args.push_back(next());
    } else if (arg == "--timeout") {
      o.timeout = number(arg, next(), 1);
    } else if (arg == "--progress") {
      o.progress_every = number(arg, next(), 0.1);
    } else if (arg == "--size-from") {
      std::string v = next();
      if (v == "requested") {
        o.size_from = sim::SizeFrom::requested;
      } else if (v == "allocated") {
        o.size_from = sim::SizeFrom::allocated;
      } else {
        bad(arg, v, "expected requested or allocated");
      }
    } else if (arg == "--dry-run") {
      flag();
      o.dry_run = true;
    } else {
      throw UsageError(arg + ": unknown option (see --help)");
    }
  }
  if (o.help) return o;
  if (o.trace.empty()) throw UsageError("--trace FILE is required");
  if (o.speedup == 0) throw UsageError("--speedup F is required (1 = real time)");
  if (o.create_users && o.as_self) throw UsageError("--create-users and --as-self exclude each other");
  if (!o.simulate.empty() && o.cpus == 0) throw UsageError("--simulate needs --cpus N (the machine size)");
  if (o.out.empty() && !o.dry_run) throw UsageError("--out PREFIX is required (unless --dry-run)");
  return o;
}

}  // namespace easypp::replay
