#include "replay/replay_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "cli/output_file.h"
#include "easypp/predictor.h"
#include "sim/cli.h"
#include "sim/report.h"

namespace easypp::replay {
namespace {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    out += c;
  }
  return out + "\"";
}

std::string num(double x, int decimals = 4) {
  if (!std::isfinite(x)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

const char* state_name(int end_state) {
  switch (end_state) {
    case EPP_END_FAILED: return "FAILED";
    case EPP_END_CANCELLED: return "CANCELLED";
    case EPP_END_TIMEOUT: return "TIMEOUT";
    default: return "COMPLETED";
  }
}

}  // namespace

double mean_wait_all_min(const measure::SimOutcome& outcome) {
  if (outcome.jobs.empty()) return 0;
  double sum = 0;
  for (const measure::JobOutcome& j : outcome.jobs) sum += static_cast<double>(j.start - j.submit);
  return sum / static_cast<double>(outcome.jobs.size()) / 60.0;
}

measure::Metrics metrics_all_jobs(const measure::SimOutcome& outcome,
                                  const measure::MetricsOptions& options) {
  measure::SimOutcome all = outcome;
  all.last_arrival = std::max(outcome.last_arrival, outcome.last_end);
  measure::MetricsOptions o = options;
  o.warmup_fraction = 0;
  return measure::compute_metrics(all, o);
}

std::string summary_json(const measure::Metrics& metrics, const measure::Metrics& all,
                         const sim::Workload& workload, const ReplaySummary& s) {
  // The simulator's own field list, minus what only an engine run has.
  static const std::set<std::string> engine_only = {
      "policy", "predictor", "events", "passes", "sim_seconds", "sim_cpu_seconds",
      "jobs_per_second", "peak_rss_mb", "invariants_checked", "seed", "load_factor",
      "estimate_factor", "runtime", "size_from", "skipped_lines"};
  sim::CliOptions options;
  sim::RunReport run;
  run.metrics = metrics;
  sim::RunContext context{&workload, &options, 0, false};
  std::string out = "{\"mode\": " + quoted(s.mode) + ", \"scheduler\": " + quoted(s.scheduler) +
                    ", \"policy\": " + quoted(s.policy) + ", \"predictor\": " + quoted(s.predictor);
  for (const sim::Field& f : sim::fields_of(run, context)) {
    if (engine_only.count(f.name)) continue;
    out += ", \"" + f.name + "\": " + (f.is_text ? quoted(f.value) : f.value);
  }
  auto add = [&](const char* name, const std::string& value) {
    out += std::string(", \"") + name + "\": " + value;
  };
  add("all_counted", std::to_string(all.counted));
  add("all_avg_wait_min", num(all.avg_wait_min));
  add("all_avg_bsld", num(all.avg_bsld));
  add("all_accuracy", num(all.accuracy_pct));
  add("speedup", num(s.speedup));
  add("jobs_planned", std::to_string(s.jobs_planned));
  add("jobs_recorded", std::to_string(s.jobs_recorded));
  add("missing", std::to_string(s.missing));
  add("timeouts", std::to_string(s.timeouts));
  add("killed_before_limit", std::to_string(s.killed_before_limit));
  add("procs_capped", std::to_string(s.procs_capped));
  add("runtime_capped", std::to_string(s.runtime_capped));
  add("limits_rounded_up", std::to_string(s.limits_rounded_up));
  add("avg_wait_all_min", num(s.avg_wait_all_min));
  add("wall_seconds", num(s.wall_seconds, 1));
  add("max_submit_lag", num(s.max_submit_lag, 3));
  add("records_from", quoted(s.records_from));
  return out + "}";
}

void write_jobs_csv(const std::string& path, const ReplayPlan& plan,
                    const measure::SimOutcome& outcome, const std::vector<std::size_t>& plan_index,
                    const std::vector<RealTimes>* real, const measure::MetricsOptions& options) {
  std::ostringstream out;
  out << "trace_job,user,account,procs,submit,start,end,wait,runtime,limit_min,estimate,"
         "payload,state,backfilled,counted,accuracy,corrections,slurm_job,real_submit,"
         "real_start,real_end\n";
  const auto warmup = static_cast<std::int64_t>(
      std::floor(static_cast<double>(outcome.jobs.size()) * options.warmup_fraction));
  for (std::size_t i = 0; i < outcome.jobs.size(); ++i) {
    const measure::JobOutcome& o = outcome.jobs[i];
    const PlannedJob& p = plan.jobs[plan_index[i]];
    // Same rule as measure::compute_metrics: warm-up ends and ends after the last arrival
    // are left out of the averages.
    const bool counted = !(o.end_rank < warmup || o.end > outcome.last_arrival);
    const Time t0 = plan.trace_start;
    const std::string state = real ? (*real)[plan_index[i]].state
                                   : (o.killed_at_limit ? "TIMEOUT" : "COMPLETED");
    out << p.swf_job << ',' << p.user << ',' << p.account << ',' << o.procs << ','
        << o.submit - t0 << ',' << o.start - t0 << ',' << o.end - t0 << ','
        << o.start - o.submit << ',' << o.runtime << ',' << p.limit_min << ','
        << std::llround(static_cast<double>(p.limit_min) * 60.0 * plan.speedup) << ','
        << num(p.payload, 3) << ',' << (state.empty() ? state_name(0) : state.substr(0, state.find(' ')))
        << ',' << (o.backfilled ? 1 : 0) << ',' << (counted ? 1 : 0) << ','
        << num(o.accuracy) << ',' << o.corrections << ',';
    if (real) {
      const RealTimes& r = (*real)[plan_index[i]];
      out << r.slurm_job << ',' << r.submit << ',' << r.start << ',' << r.end;
    } else {
      out << ",,,";
    }
    out << '\n';
  }
  cli::write_whole_file(path, out.str());
}

}  // namespace easypp::replay
