#include "replay/cli.h"

#include <cstdint>

namespace easypp::replay {
namespace {

using cli::parse_integer;

// A number >= lo.
double number(const std::string& option, const std::string& v, double lo) {
  return cli::parse_number(option, v, lo, true);
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
  for (cli::OptionScanner s(args, 1); s.next();) {
    const std::string& arg = s.arg();
    if (arg == "--help" || arg == "-h") {
      s.flag();
      o.help = true;
    } else if (arg == "--trace") {
      o.trace = s.value();
    } else if (arg == "--first-job") {
      o.slice.first_job = parse_integer(arg, s.value(), 0, INT64_MAX);
    } else if (arg == "--jobs") {
      o.slice.jobs = parse_integer(arg, s.value(), 1, 10000000);
    } else if (arg == "--window") {
      std::string v = s.value();
      auto colon = v.find(':');
      if (colon == std::string::npos) s.bad(v, "expected START:END (trace submit seconds)");
      o.slice.window_start = parse_integer(arg, v.substr(0, colon), 0, INT64_MAX);
      o.slice.window_end = parse_integer(arg, v.substr(colon + 1), 1, INT64_MAX);
      if (o.slice.window_end <= o.slice.window_start) s.bad(v, "END must be after START");
    } else if (arg == "--speedup") {
      o.speedup = number(arg, s.value(), 1);
    } else if (arg == "--cpus") {
      o.cpus = static_cast<int>(parse_integer(arg, s.value(), 1, 10000000));
    } else if (arg == "--partition") {
      o.partition = s.value();
    } else if (arg == "--user-prefix") {
      o.user_prefix = s.value();
      for (char c : o.user_prefix) {
        if (!(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9') && c != '_') {
          s.bad(o.user_prefix, "use lower-case letters, digits and _ (a user name prefix)");
        }
      }
      if (o.user_prefix.empty() || !(o.user_prefix[0] >= 'a' && o.user_prefix[0] <= 'z')) {
        s.bad(o.user_prefix, "must start with a lower-case letter");
      }
    } else if (arg == "--create-users") {
      s.flag();
      o.create_users = true;
    } else if (arg == "--as-self") {
      s.flag();
      o.as_self = true;
    } else if (arg == "--policy") {
      o.policy = s.value();
    } else if (arg == "--simulate") {
      o.simulate = s.value();
    } else if (arg == "--out") {
      o.out = s.value();
    } else if (arg == "--write-slice") {
      o.write_slice = s.value();
    } else if (arg == "--jobcomp") {
      o.jobcomp = s.value();
    } else if (arg == "--sbatch-arg") {
      o.sbatch_args.push_back(s.value());
    } else if (arg == "--timeout") {
      o.timeout = number(arg, s.value(), 1);
    } else if (arg == "--progress") {
      o.progress_every = number(arg, s.value(), 0.1);
    } else if (arg == "--size-from") {
      std::string v = s.value();
      if (v == "requested") {
        o.size_from = sim::SizeFrom::requested;
      } else if (v == "allocated") {
        o.size_from = sim::SizeFrom::allocated;
      } else {
        s.bad(v, "expected requested or allocated");
      }
    } else if (arg == "--dry-run") {
      s.flag();
      o.dry_run = true;
    } else if (s.is_option()) {
      s.unknown();
    } else {
      throw UsageError(arg + ": unexpected argument (see --help)");
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
