// easypp-predict: build, inspect and test the runtime predictor's state from the shell.
// Exit codes (also in easypp-predict(1)): 0 ok; 1 usage or bad --predictor spec; 2 the
// record source could not be read (state left untouched); 3 the state file could not be
// read or written; 4 imported, but some input lines were malformed (reported as FILE:LINE).
#include <pwd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "cli/command_line.h"
#include "easypp/predictor.h"
#include "prediction_stats.h"
#include "predictor_handle.h"
#include "record_sources.h"
#include "stored_spec.h"
#include "trace_replay.h"

namespace easypp::tools {
namespace {

enum Exit { kOk = 0, kUsage = 1, kSource = 2, kState = 3, kMalformed = 4 };

const char* kUsageText =
    "usage: easypp-predict import --state FILE [--predictor SPEC]\n"
    "                             (--sacct [SACCT-ARGS...] | --sacct-file FILE | --jobcomp FILE | --swf FILE)\n"
    "       easypp-predict show   --state FILE [--predictor SPEC] [--estimate SECONDS] USER\n"
    "       easypp-predict stats  --state FILE [--predictor SPEC]\n"
    "       easypp-predict replay --trace FILE [--predictor SPEC] [--format csv]\n"
    "       easypp-predict configs\n"
    "SPEC is kind[:key=value,...]; the default is the state file's own spec, else the\n"
    "paper's history:window=2 predictor.\n"
    "See easypp-predict(1).\n";

using cli::UsageError;

struct Options {
  std::string state, predictor, trace, format = "csv", user;
  std::optional<std::int64_t> estimate;
  enum class Source { None, Sacct, SacctFile, Jobcomp, Swf } source = Source::None;
  std::string source_file;
  std::vector<std::string> sacct_args;
};

Options parse(const std::vector<std::string>& args, const std::string& command) {
  Options o;
  auto set_source = [&](Options::Source s, const std::string& file) {
    if (o.source != Options::Source::None)
      throw UsageError("give one of --sacct, --sacct-file, --jobcomp, --swf");
    o.source = s;
    o.source_file = file;
  };
  // The options each command reads (easypp-predict(1)): another is an error, never
  // silently ignored (stats --trace X once ran as if it were not there).
  static const std::map<std::string, std::set<std::string>> kReads = {
      {"import", {"--state", "--predictor", "--sacct", "--sacct-file", "--jobcomp", "--swf"}},
      {"show", {"--state", "--predictor", "--estimate"}},
      {"stats", {"--state", "--predictor"}},
      {"replay", {"--trace", "--predictor", "--format"}}};
  const auto reads = kReads.find(command);
  for (cli::OptionScanner s(args, 2); s.next();) {
    if (s.is_option() && (reads == kReads.end() || !reads->second.count(s.arg())))
      throw UsageError(s.arg() + ": unknown option for " + command);
    if (s.is("--state")) o.state = s.value();
    else if (s.is("--predictor")) o.predictor = s.value();
    else if (s.is("--trace")) o.trace = s.value();
    else if (s.is("--format")) o.format = s.value();
    else if (s.is("--estimate")) o.estimate = cli::parse_integer(s.arg(), s.value(), 1, INT64_MAX);
    else if (s.is("--sacct-file")) set_source(Options::Source::SacctFile, s.value());
    else if (s.is("--jobcomp")) set_source(Options::Source::Jobcomp, s.value());
    else if (s.is("--swf")) set_source(Options::Source::Swf, s.value());
    else if (s.is("--sacct") && command == "import") {
      s.flag();
      set_source(Options::Source::Sacct, "");
      o.sacct_args = s.rest();  // the rest belongs to sacct
    } else if (s.is_option()) {
      throw UsageError(s.arg() + ": unknown option for " + command);
    } else if (command == "show" && o.user.empty()) {
      o.user = s.arg();
    } else {
      throw UsageError(s.arg() + ": unexpected argument for " + command);
    }
  }
  return o;
}

void require_state(const Options& o) {
  if (o.state.empty()) throw UsageError("--state FILE is required");
}

// How a command loads the state: import may repair it (a corrupt file is set aside by the
// library, then rebuilt); show and stats only inspect, and must leave the file where and as
// it is (it may be the plugin's, whose history a moved file would lose).
enum class StateUse { Import, Inspect };

// Loads the state; a corrupt file is reported (and, for an import, set aside).
int load(epp_predictor* p, const std::string& path, StateUse use) {
  const bool must_exist = use == StateUse::Inspect;
  char err[1024] = "";
  int rc = epp_load_with_flags(p, path.c_str(), use == StateUse::Inspect ? EPP_LOAD_READ_ONLY : 0, err, sizeof err);
  if (rc == EPP_LOAD_CORRUPT) std::cerr << "easypp-predict: " << err << "\n";
  if (rc == EPP_LOAD_ERROR || (must_exist && rc != EPP_LOAD_OK)) {
    if (rc != EPP_LOAD_CORRUPT) std::cerr << "easypp-predict: " << err << "\n";
    return kState;
  }
  return kOk;
}

// import, show and stats work on a state file, without a workload: paper 003's
// evaluation kinds (they need every job's real runtime) would silently predict limits.
// Without --predictor, the spec the state was written with (the default predictor would
// drop a learned model); a --predictor that differs from it wins, with a warning.
PredictorHandle state_predictor(const Options& o, const char* command) {
  const std::optional<std::string> stored = stored_spec(o.state);
  std::string spec = o.predictor.empty() && stored ? *stored : o.predictor;
  PredictorHandle p;
  try {
    p = make_predictor(spec);
  } catch (const SpecError& e) {
    // A spec this easypp cannot read (a newer one's key, a damaged file) is the state's
    // problem, not a usage error: the default, and the load says what it finds.
    if (!o.predictor.empty() || !stored) throw;
    std::cerr << "easypp-predict: " << o.state << "'s predictor " << spec << " is not one this easypp reads ("
              << e.what() << "); using the default\n";
    spec.clear();
    p = make_predictor(spec);
  }
  if (epp_predictor_needs_workload(p.get()) != 0)
    throw SpecError(spec + ": needs each job's real runtime and the whole workload, which " +
                    command + " does not have (replay --trace gives it)");
  if (!o.predictor.empty() && stored && *stored != epp_predictor_spec(p.get()))
    std::cerr << "easypp-predict: --predictor " << epp_predictor_spec(p.get()) << " differs from "
              << o.state << "'s " << *stored << "; using --predictor\n";
  return p;
}

int cmd_import(const Options& o) {
  require_state(o);
  if (o.source == Options::Source::None)
    throw UsageError("import needs one of --sacct, --sacct-file, --jobcomp, --swf");
  PredictorHandle p = state_predictor(o, "import");
  // The source first: loading sets a corrupt state aside, which an unreadable source must
  // not cause (exit 2 leaves the state file untouched).
  ReadCounts counts;
  std::vector<epp_record> records;
  try {
    switch (o.source) {
      case Options::Source::Sacct:
        records = run_sacct(o.sacct_args, counts, std::cerr);
        break;
      case Options::Source::SacctFile:
        records = read_accounting_file(o.source_file, AccountingFormat::Sacct, counts, std::cerr);
        break;
      case Options::Source::Jobcomp:
        records = read_accounting_file(o.source_file, AccountingFormat::Jobcomp, counts, std::cerr);
        break;
      case Options::Source::Swf:
        records = read_swf(o.source_file, counts, std::cerr);
        break;
      case Options::Source::None:
        break;
    }
  } catch (const SourceError& e) {
    std::cerr << "easypp-predict: " << e.what() << "\n";
    return kSource;
  }
  if (int rc = load(p.get(), o.state, StateUse::Import); rc != kOk) return rc;
  // End order builds the history as a live feed would; ids break ties.
  std::stable_sort(records.begin(), records.end(), [](const epp_record& a, const epp_record& b) {
    return std::tie(a.end, a.job.job_id) < std::tie(b.end, b.job.job_id);
  });
  std::size_t learnt = 0;
  for (const auto& r : records) learnt += static_cast<std::size_t>(epp_learn_record(p.get(), &r));
  char err[1024] = "";
  if (epp_save(p.get(), o.state.c_str(), err, sizeof err) != 0) {
    std::cerr << "easypp-predict: " << err << "\n";
    return kState;
  }
  std::printf("import: %zu lines, %zu ended jobs, %zu skipped, %zu malformed; learnt %zu, not learnt %zu "
              "(already known, or an end that does not teach)\n",
              counts.lines, counts.records, counts.skipped, counts.malformed, learnt, records.size() - learnt);
  std::printf("state %s: %zu users, %zu runs kept\n", o.state.c_str(), epp_predictor_users(p.get()),
              epp_predictor_records(p.get()));
  return counts.malformed > 0 ? kMalformed : kOk;
}

std::uint32_t resolve_user(const std::string& user) {
  if (!user.empty() && std::all_of(user.begin(), user.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    unsigned long long v = std::strtoull(user.c_str(), nullptr, 10);
    if (user.size() <= 10 && v <= 0xffffffffULL) return static_cast<std::uint32_t>(v);
  }
  if (const passwd* pw = ::getpwnam(user.c_str())) return pw->pw_uid;
  throw UsageError("USER=" + user + ": neither a uid nor a known user name");
}

std::string utc(std::int64_t t) {
  char buf[32];
  std::time_t tt = static_cast<std::time_t>(t);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

int cmd_show(const Options& o) {
  require_state(o);
  if (o.user.empty()) throw UsageError("show needs a USER (name or uid)");
  std::uint32_t uid = resolve_user(o.user);
  PredictorHandle p = state_predictor(o, "show");
  if (int rc = load(p.get(), o.state, StateUse::Inspect); rc != kOk) return rc;
  epp_run runs[64];
  std::size_t n = std::min<std::size_t>(epp_user_runs(p.get(), uid, runs, 64), 64);
  double mean = 0;
  std::uint64_t count = 0;
  std::printf("user %" PRIu32 ": %zu runs kept", uid, n);
  if (epp_user_accuracy(p.get(), uid, &mean, &count))
    std::printf(", lifetime accuracy (runtime/estimate) %.3f over %" PRIu64 " runs", mean, count);
  std::printf("\n");
  if (n > 0) {
    std::printf("%-12s %-21s %10s %10s %8s\n", "job_id", "end", "estimate", "runtime", "accuracy");
    for (std::size_t i = 0; i < n; ++i)
      std::printf("%-12" PRIu64 " %-21s %10" PRId64 " %10" PRId64 " %8.3f\n", runs[i].job_id, utc(runs[i].end).c_str(),
                  runs[i].estimate, runs[i].runtime,
                  runs[i].estimate > 0 ? static_cast<double>(runs[i].runtime) / static_cast<double>(runs[i].estimate)
                                       : 0.0);
  }
  std::int64_t estimate = o.estimate ? *o.estimate : (n > 0 ? runs[n - 1].estimate : 3600);
  epp_job job{0, uid, static_cast<std::int64_t>(std::time(nullptr)), estimate, 1, -1};
  std::printf("next prediction for estimate %" PRId64 " s: %" PRId64 " s\npredictor %s\n", estimate,
              epp_predict(p.get(), &job), epp_predictor_spec(p.get()));
  return kOk;
}

int cmd_stats(const Options& o) {
  require_state(o);
  PredictorHandle p = state_predictor(o, "stats");
  if (int rc = load(p.get(), o.state, StateUse::Inspect); rc != kOk) return rc;
  PredictionStats s = kept_run_stats(p.get(), epp_predictor_spec(p.get()));
  auto pct = [&](std::size_t k) { return s.runs ? 100.0 * static_cast<double>(k) / static_cast<double>(s.runs) : 0.0; };
  std::printf("state %s: %zu users, %zu runs kept (each predicted from the kept runs before it)\n",
              o.state.c_str(), s.users, s.runs);
  std::printf("predictor %s\n", epp_predictor_spec(p.get()));
  std::printf("accuracy (mean min/max ratio, 1 = exact): predictions %.3f, user estimates %.3f\n",
              s.prediction_accuracy, s.estimate_accuracy);
  std::printf("under-predicted %.1f%%, over-predicted %.1f%%, exact %.1f%%\n", pct(s.under), pct(s.over),
              pct(s.exact));
  return kOk;
}

int cmd_replay(const Options& o) {
  if (o.trace.empty()) throw UsageError("replay needs --trace FILE");
  if (o.format != "csv") throw UsageError("--format=" + o.format + ": unknown format (allowed: csv)");
  PredictorHandle p = make_predictor(o.predictor);
  swf::Trace trace;
  try {
    trace = swf::read(o.trace);
  } catch (const std::exception& e) {
    std::cerr << "easypp-predict: " << e.what() << "\n";
    return kSource;
  }
  try {
    give_workload(p.get(), trace.records);
  } catch (const std::exception& e) {
    std::cerr << "easypp-predict: " << o.trace << ": " << e.what() << "\n";
    return kSource;
  }
  std::vector<ReplayedJob> jobs = replay(p.get(), trace.records);
  std::string out = "job_id,user,estimate,prediction\n";
  char line[128];
  for (const auto& j : jobs) {
    std::snprintf(line, sizeof line, "%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "\n", j.job_id, j.user,
                  j.estimate, j.prediction);
    out += line;
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return std::fflush(stdout) == 0 ? kOk : kSource;
}

int cmd_configs() {
  char buf[256];
  for (std::size_t i = 0; i < epp_sweep_size(); ++i)
    if (epp_sweep_spec(i, buf, sizeof buf) > 0) std::printf("%s\n", buf);
  return kOk;
}

int run(int argc, char** argv) {
  if (argc < 2) throw UsageError("no command given");
  std::string command = argv[1];
  if (command == "-h" || command == "--help" || command == "help") {
    std::fputs(kUsageText, stdout);
    return kOk;
  }
  if (command == "configs") {
    if (argc > 2) throw UsageError(std::string(argv[2]) + ": configs takes no arguments");
    return cmd_configs();
  }
  if (command != "import" && command != "show" && command != "stats" && command != "replay")
    throw UsageError(command + ": unknown command");
  Options o = parse(std::vector<std::string>(argv, argv + argc), command);
  if (command == "import") return cmd_import(o);
  if (command == "show") return cmd_show(o);
  if (command == "stats") return cmd_stats(o);
  return cmd_replay(o);
}

}  // namespace
}  // namespace easypp::tools

namespace {
int tool_main(int argc, char** argv) {
  using namespace easypp::tools;
  try {
    return run(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "easypp-predict: " << e.what() << "\n" << kUsageText;
    return kUsage;
  } catch (const SpecError& e) {
    std::cerr << "easypp-predict: --predictor: " << e.what() << "\n";
    return kUsage;
  } catch (const std::exception& e) {
    std::cerr << "easypp-predict: " << e.what() << "\n";
    return kSource;
  }
}
}  // namespace

int main(int argc, char** argv) {
  return easypp::cli::exit_status_after_output("easypp-predict", tool_main(argc, argv));
}
