// easypp-sim: replay an SWF trace through one or more policies (the trace is read once).
#include <sys/resource.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/command_line.h"
#include "core/policy.h"
#include "core/policy_params.h"
#include "core/timed_run.h"
#include "sim/cli.h"
#include "measure/metrics.h"
#include "sim/repeat_summary.h"
#include "sim/report.h"
#include "sim/schedule_file.h"
#include "sim/simulator.h"
#include "sim/swf.h"
#include "sim/workload.h"

namespace {

// Peak resident set of this process so far (Linux reports KiB).
double peak_rss_mb() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

// --base and --trial-length are older spellings of timed-run's keys base= and trial=:
// they fill in the keys a timed-run spec does not give (its own keys win).
std::string with_cli_keys(const std::string& spec, const easypp::sim::CliOptions& options) {
  const easypp::PolicyParams params = easypp::PolicyParams::parse(spec);
  if (params.name() != "timed-run") return spec;
  std::string out = spec;
  auto add = [&](const char* key, const std::string& value) {
    if (params.has(key)) return;
    out += (out.find(':') == std::string::npos ? ":" : ",") + std::string(key) + "=" + value;
  };
  if (options.base_given) add("base", options.base);
  if (options.trial_length_given) add("trial", std::to_string(options.trial_length));
  return out;
}

// The base scheduler and trial length `policy` runs with: a timed-run policy's own (its
// keys, or --base and --trial-length filling them in); the options' for other policies.
void set_base_and_trial(const easypp::Policy& policy, const easypp::sim::CliOptions& options,
                        easypp::sim::RunReport& r) {
  if (const auto* timed = dynamic_cast<const easypp::TimedRunPolicy*>(&policy)) {
    r.base = timed->base() == easypp::BaseScheduler::fcfs ? "fcfs" : "easy";
    r.trial_length = timed->trial_length();
  } else {
    r.base = options.base;
    r.trial_length = options.trial_length;
  }
}

// The --schedule file of one run: named after the policy (its spec), and the seed when
// each policy runs several times.
std::string schedule_file(const easypp::sim::CliOptions& options, const std::string& policy,
                          std::uint64_t seed) {
  const bool several = options.policies.size() > 1 || options.repeat > 1;
  std::string label = policy;
  if (options.repeat > 1) label += ".seed" + std::to_string(seed);
  return easypp::sim::schedule_path(options.schedule, label, several);
}

// Two runs writing one --schedule file would leave only the last one's: refuse such a
// run before simulating (the same spec given twice). Returns the message, or "".
std::string clashing_schedule_files(const std::vector<std::unique_ptr<easypp::Policy>>& policies,
                                    const easypp::sim::CliOptions& options) {
  std::map<std::string, std::string> writer;  // path -> policy
  for (const auto& policy : policies) {
    const std::string name(policy->name());
    for (int k = 0; k < options.repeat; ++k) {
      const std::string path = schedule_file(options, name, options.seed + static_cast<std::uint64_t>(k));
      const auto [it, added] = writer.emplace(path, name);
      if (!added) {
        return "--schedule: policies " + it->second + " and " + name + " would both write " +
               path + " (give each policy once)";
      }
    }
  }
  return "";
}

int run(const easypp::sim::CliOptions& options) {
  using namespace easypp;
  using namespace easypp::sim;
  // Build every policy first, so a bad name fails before the trace is read.
  std::vector<std::unique_ptr<Policy>> policies;
  PolicyOptions policy_options;
  policy_options.predictor = options.predictor;
  for (const std::string& name : options.policies) {
    try {
      // One --predictor for a mixed run: it applies to the policies planning on
      // predictions; estimate-based ones (easy, easy-sjbf, ...) keep theirs, with a note.
      PolicyOptions these = policy_options;
      if (!these.predictor.empty() && !policy_takes_predictor(name)) {
        if (options.policies.size() > 1) {
          std::fprintf(stderr, "easypp-sim: note: --predictor does not apply to %s (its name "
                               "fixes its predictions); it runs as named\n", name.c_str());
          these.predictor.clear();
        }
      }
      policies.push_back(make_policy(with_cli_keys(name, options), these));
    } catch (const std::invalid_argument& e) {
      std::fprintf(stderr, "easypp-sim: %s\n", e.what());
      return 2;
    }
  }
  if (!options.schedule.empty()) {
    if (const std::string clash = clashing_schedule_files(policies, options); !clash.empty()) {
      std::fprintf(stderr, "easypp-sim: %s\n", clash.c_str());
      return 2;
    }
  }
  swf::Trace trace;
  try {
    trace = swf::read(options.trace, swf::ReadOptions{options.skip_bad});
  } catch (const swf::ParseError& e) {
    std::fprintf(stderr, "easypp-sim: %s\n", e.what());
    return 1;
  }
  for (const std::string& note : trace.notes) std::fprintf(stderr, "easypp-sim: note: %s\n", note.c_str());
  // The reader sorts such a log; say so, since it is not the order the archive gave.
  if (trace.was_unsorted) {
    std::fprintf(stderr, "easypp-sim: note: %s: submit times go backwards; jobs sorted by submit time\n",
                 options.trace.c_str());
  }
  Workload workload;
  try {
    workload = prepare(trace, options.workload);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "easypp-sim: %s\n", e.what());
    return 2;
  }
  const int skipped = trace.skipped_lines;
  trace = swf::Trace();  // the records are copied into the workload: free them

  std::vector<RunReport> runs;
  std::vector<RepeatSummary> summaries;
  for (auto& policy : policies) {
    std::vector<RunReport> repeats;
    for (int k = 0; k < options.repeat; ++k) {
      // Each repeat: its own seed, reported as that run's "seed".
      CliOptions run_options = options;
      run_options.seed = options.seed + static_cast<std::uint64_t>(k);
      run_options.sim.seed = run_options.seed;
      RunContext context{&workload, &run_options, skipped, invariants_checked()};
      measure::SimOutcome outcome;
      try {
        outcome = simulate(workload, *policy, run_options.sim);
      } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "easypp-sim: policy=%s: %s\n", std::string(policy->name()).c_str(),
                     e.what());
        return 2;
      }
      if (!options.schedule.empty()) {
        write_schedule(schedule_file(options, outcome.policy, run_options.seed), workload, outcome);
      }
      RunReport r;
      r.policy = outcome.policy;
      r.predictor = outcome.predictor;
      set_base_and_trial(*policy, options, r);
      r.metrics = measure::compute_metrics(outcome);
      r.preempt = measure::compute_preempt_metrics(outcome, r.trial_length);
      r.events = outcome.events;
      r.passes = outcome.passes;
      r.sim_seconds = outcome.sim_seconds;
      r.sim_cpu_seconds = outcome.sim_cpu_seconds;
      r.peak_rss_mb = peak_rss_mb();
      if (options.format == Format::json) {
        std::printf("%s\n", json_line(r, context).c_str());
        std::fflush(stdout);
      } else if (options.format == Format::csv) {
        if (runs.empty()) std::printf("%s\n", csv_header(r, context).c_str());
        std::printf("%s\n", csv_row(r, context).c_str());
        std::fflush(stdout);
      }
      repeats.push_back(r);
      runs.push_back(std::move(r));
    }
    if (options.repeat > 1) {
      summaries.push_back(summarize(repeats, options.seed));
      if (options.format == Format::json) std::printf("%s\n", summary_json(summaries.back()).c_str());
    }
  }
  RunContext context{&workload, &options, skipped, invariants_checked()};
  if (options.format == Format::table) {
    std::fputs(table(runs, context).c_str(), stdout);
    if (!summaries.empty()) std::fputs(summary_table(summaries).c_str(), stdout);
  }
  return 0;
}

}  // namespace

namespace {
int tool_main(int argc, char** argv) {
  easypp::sim::CliOptions options;
  try {
    options = easypp::sim::parse_cli(std::vector<std::string>(argv, argv + argc));
  } catch (const easypp::sim::UsageError& e) {
    std::fprintf(stderr, "easypp-sim: %s\n%s", e.what(), easypp::sim::cli_usage());
    return 2;
  }
  if (options.help) {
    std::fputs(easypp::sim::cli_usage(), stdout);
    return 0;
  }
  if (options.list_policies) {
    for (const easypp::PolicyFamily& f : easypp::policy_families())
      std::printf("%s\n", f.usage().c_str());
    return 0;
  }
  try {
    return run(options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "easypp-sim: %s\n", e.what());
    return 1;
  }
}
}  // namespace

int main(int argc, char** argv) {
  return easypp::cli::exit_status_after_output("easypp-sim", tool_main(argc, argv));
}
