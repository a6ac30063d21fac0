// easypp-sweep: paper 000 section 7's sweep of the predictor's configuration space over
// traces (run), the merge of sweeps run in slices (merge), and their ranking (rank).
#include <fcntl.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/command_line.h"
#include "cli/output_file.h"
#include "sweep/config_space.h"
#include "sweep/ranking.h"
#include "sweep/results_file.h"
#include "sweep/results_lock.h"
#include "sweep/sweep_run.h"

namespace {

using namespace easypp::sweep;
namespace cli = easypp::cli;

const char* kUsage =
    "usage:\n"
    "  easypp-sweep --traces DIR|[LABEL=]FILE[:procs=N],... --out DIR [--policy easy++]\n"
    "               [--configs all|FILE|RANGE|KEY=VALUE,...] [--jobs N] [--max-jobs-per-trace N]\n"
    "               [--quiet]\n"
    "  easypp-sweep rank --out DIR\n"
    "  easypp-sweep merge --out DIR SRC_DIR...\n"
    "  easypp-sweep list [--configs all|FILE|RANGE]\n"
    "See easypp-sweep(1).\n";

using easypp::cli::UsageError;

struct Args {
  std::map<std::string, std::string> options;
  std::vector<std::string> positional;
};

// The options in `valued` take a value, those in `flags` none (names without "--").
Args parse_args(const std::vector<std::string>& argv, const std::vector<std::string>& valued,
                const std::vector<std::string>& flags) {
  Args a;
  for (cli::OptionScanner s(argv, 0); s.next();) {
    if (!s.is_option()) {
      a.positional.push_back(s.arg());
      continue;
    }
    if (s.arg().rfind("--", 0) != 0) s.unknown();  // every option here is long
    const std::string name = s.arg().substr(2);
    if (std::find(flags.begin(), flags.end(), name) != flags.end()) {
      s.flag();
      a.options[name] = "1";
    } else if (std::find(valued.begin(), valued.end(), name) != valued.end()) {
      a.options[name] = s.value();
    } else {
      s.unknown();
    }
  }
  return a;
}

std::size_t parse_count(const std::string& option, const std::string& value, std::size_t max) {
  return static_cast<std::size_t>(
      cli::parse_integer("--" + option, value, 0, static_cast<std::int64_t>(max)));
}

std::string get(const Args& a, const std::string& key, const std::string& fallback = {}) {
  const auto it = a.options.find(key);
  return it == a.options.end() ? fallback : it->second;
}

int cmd_run(const std::vector<std::string>& argv) {
  const Args a = parse_args(argv, {"traces", "out", "policy", "configs", "jobs", "max-jobs-per-trace"},
                            {"quiet"});
  if (!a.positional.empty()) throw UsageError("unexpected argument " + a.positional.front());
  SweepOptions o;
  if (get(a, "traces").empty()) throw UsageError("--traces is required");
  if (get(a, "out").empty()) throw UsageError("--out is required");
  o.traces = parse_trace_list(get(a, "traces"));
  o.out = get(a, "out");
  o.policy = get(a, "policy", "easy++");
  o.configs = get(a, "configs", "all");
  o.threads = static_cast<unsigned>(parse_count("jobs", get(a, "jobs", "0"), 1024));
  o.max_jobs_per_trace = parse_count("max-jobs-per-trace", get(a, "max-jobs-per-trace", "0"),
                                     1000000000);
  const ConfigSpace space;
  const SweepReport r = run_sweep(o, space, a.options.count("quiet") ? nullptr : stderr);
  std::fprintf(stderr,
               "easypp-sweep: done: %zu configurations x %zu traces = %zu lines (%zu were present, "
               "%zu copied from equivalent configurations); %zu simulations in %.1f s wall, "
               "%.1f s CPU (%.3f s CPU per simulation); %s/results.csv\n",
               r.configs, o.traces.size(), r.lines_wanted, r.lines_present, r.lines_copied,
               r.simulations, r.wall_seconds, r.cpu_seconds,
               r.simulations ? r.cpu_seconds / static_cast<double>(r.simulations) : 0.0,
               o.out.c_str());
  return 0;
}

// Every row's spec must be this library's spec of its index.
void check_specs(const std::vector<ResultRow>& rows, const ConfigSpace& space, const std::string& path) {
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ResultRow& r = rows[i];
    if (r.config >= space.size() || r.spec != space.spec(r.config)) {
      throw std::runtime_error(path + ":" + std::to_string(i + 2) + ": config " +
                               std::to_string(r.config) + " spec " + r.spec +
                               " is not this predictor library's configuration of that index");
    }
  }
}


int cmd_rank(const std::vector<std::string>& argv) {
  const Args a = parse_args(argv, {"out"}, {});
  if (!a.positional.empty()) throw UsageError("unexpected argument " + a.positional.front());
  const std::string dir = get(a, "out");
  if (dir.empty()) throw UsageError("--out is required");
  const std::string path = dir + "/results.csv";
  const ResultsContent content = read_results(path);
  if (content.rows.empty()) throw std::runtime_error(path + ": no results");
  const ConfigSpace space;
  check_specs(content.rows, space, path);
  SweepSettings settings;
  read_settings(dir + "/sweep.conf", settings);
  const Ranking ranking = rank_results(content.rows);
  cli::write_whole_file(dir + "/ranking.md", ranking_markdown(ranking, space, settings, "`" + path + "`"));
  cli::write_whole_file(dir + "/ranking.csv", ranking_csv(ranking, space));
  cli::write_whole_file(dir + "/distribution.csv", distribution_csv(rank_distribution(ranking, space, 20)));
  std::fprintf(stderr, "easypp-sweep: ranked %zu configurations (%zu incomplete): %s/ranking.md, "
               "%s/ranking.csv, %s/distribution.csv\n",
               ranking.ranked.size(), ranking.incomplete.size(), dir.c_str(), dir.c_str(),
               dir.c_str());
  return 0;
}

int cmd_merge(const std::vector<std::string>& argv) {
  const Args a = parse_args(argv, {"out"}, {});
  const std::string dir = get(a, "out");
  if (dir.empty()) throw UsageError("--out is required");
  if (a.positional.empty()) throw UsageError("merge needs at least one SRC_DIR");
  const ConfigSpace space;
  std::vector<std::string> sources;
  // A sweep appending to DIR/results.csv holds its flock: replacing the file under it would
  // send its later lines to the unlinked file. Held until the merged file is in place.
  std::optional<ResultsLock> lock;
  if (std::filesystem::exists(dir + "/results.csv")) {
    lock.emplace(dir + "/results.csv", O_RDONLY);
    sources.push_back(dir);
  }
  for (const auto& s : a.positional) {
    if (s != dir) sources.push_back(s);
  }
  SweepSettings merged;
  bool have_settings = false;
  std::map<std::pair<std::size_t, std::string>, std::pair<ResultRow, std::string>> rows;
  for (const auto& src : sources) {
    SweepSettings s;
    if (!read_settings(src + "/sweep.conf", s)) {
      throw std::runtime_error(src + "/sweep.conf: missing (not an easypp-sweep --out directory?)");
    }
    if (have_settings) {
      const std::string conflict = settings_conflict(merged, s);
      // Exit 2 like a run whose settings differ from DIR's (easypp-sweep(1)).
      if (!conflict.empty()) {
        throw std::invalid_argument(src + "/sweep.conf: differs from " + sources.front() + ": " + conflict);
      }
      for (const auto& t : s.traces) {
        if (std::none_of(merged.traces.begin(), merged.traces.end(),
                         [&](const auto& m) { return m.label == t.label; })) {
          merged.traces.push_back(t);
        }
      }
    } else {
      merged = s;
      have_settings = true;
    }
    const std::string path = src + "/results.csv";
    const ResultsContent content = read_results(path);
    check_specs(content.rows, space, path);
    for (std::size_t i = 0; i < content.rows.size(); ++i) {
      const ResultRow& r = content.rows[i];
      const std::string where = path + ":" + std::to_string(i + 2);
      const auto [it, fresh] = rows.try_emplace({r.config, r.trace}, r, where);
      if (!fresh && (it->second.first.avg_wait_min != r.avg_wait_min ||
                     it->second.first.avg_bsld != r.avg_bsld)) {
        throw std::runtime_error(where + ": config " + std::to_string(r.config) + " trace " +
                                 r.trace + " differs from " + it->second.second);
      }
    }
  }
  std::filesystem::create_directories(dir);
  std::string text = std::string(kResultsHeader) + "\n";
  for (const auto& [key, value] : rows) text += format_row(value.first) + "\n";
  cli::write_whole_file(dir + "/results.csv", text);
  write_settings(dir + "/sweep.conf", merged);
  std::fprintf(stderr, "easypp-sweep: merged %zu directories: %zu lines in %s/results.csv\n",
               sources.size(), rows.size(), dir.c_str());
  return 0;
}

int cmd_list(const std::vector<std::string>& argv) {
  const Args a = parse_args(argv, {"configs"}, {});
  if (!a.positional.empty()) throw UsageError("unexpected argument " + a.positional.front());
  const ConfigSpace space;
  for (std::size_t c : space.select(get(a, "configs", "all"))) {
    std::printf("%zu %zu %s\n", c, space.representative(c), space.spec(c).c_str());
  }
  return 0;
}

}  // namespace

namespace {
int tool_main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (!args.empty() && (args[0] == "-h" || args[0] == "--help")) {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (!args.empty() && args[0].rfind("--", 0) != 0) {
      const std::string cmd = args[0];
      args.erase(args.begin());
      if (cmd == "rank") return cmd_rank(args);
      if (cmd == "merge") return cmd_merge(args);
      if (cmd == "list") return cmd_list(args);
      throw UsageError("unknown command " + cmd);
    }
    return cmd_run(args);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "easypp-sweep: %s\n%s", e.what(), kUsage);
    return 2;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "easypp-sweep: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "easypp-sweep: %s\n", e.what());
    return 1;
  }
}
}  // namespace

int main(int argc, char** argv) {
  return easypp::cli::exit_status_after_output("easypp-sweep", tool_main(argc, argv));
}
