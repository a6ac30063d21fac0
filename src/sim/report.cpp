#include "sim/report.h"

#include <cmath>
#include <cstdio>

namespace easypp::sim {
namespace {

std::string number(double x, int decimals = 4) {
  if (!std::isfinite(x)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

std::string integer(std::int64_t x) { return std::to_string(x); }

std::string json_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string csv_escape(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// A table cell: "-" for an average over no job (NaN; null in JSON, empty in CSV).
std::string cell(double x, int decimals) {
  if (!std::isfinite(x)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

std::string change(double value, double base) {
  if (base == 0 || !std::isfinite(base) || !std::isfinite(value)) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.0f%%", 100.0 * (value - base) / base);
  return buf;
}

}  // namespace

std::vector<Field> fields_of(const RunReport& run, const RunContext& c) {
  const measure::Metrics& m = run.metrics;
  const Workload& w = *c.workload;
  const CliOptions& o = *c.options;
  std::vector<Field> f;
  auto text = [&](const char* name, const std::string& v) { f.push_back({name, v, true}); };
  auto num = [&](const char* name, double v, int d = 4) { f.push_back({name, number(v, d), false}); };
  auto intg = [&](const char* name, std::int64_t v) { f.push_back({name, integer(v), false}); };
  text("policy", run.policy);
  text("trace", w.trace);
  intg("jobs", m.jobs);
  intg("counted", m.counted);
  intg("procs", w.procs);
  num("avg_wait_min", m.avg_wait_min);
  num("avg_bsld", m.avg_bsld);
  num("avg_slowdown", m.avg_slowdown);
  num("avg_slowdown_class1", m.avg_slowdown_class[0]);  // paper 001 runtime classes
  num("avg_slowdown_class2", m.avg_slowdown_class[1]);
  num("avg_slowdown_class3", m.avg_slowdown_class[2]);
  num("avg_slowdown_class4", m.avg_slowdown_class[3]);
  num("accuracy", m.accuracy_pct);
  num("corrections_per_job", m.corrections_mean);
  num("corrections_sd", m.corrections_sd);
  num("utilization", m.utilization_pct);
  num("max_wait_min", m.max_wait_min);
  intg("backfilled", m.backfilled);
  num("reservation_rate", m.reservation_rate_pct);
  num("reservation_diff_avg_min", m.reservation_diff_min.mean);
  num("reservation_diff_median_min", m.reservation_diff_min.median);
  num("reservation_diff_sd_min", m.reservation_diff_min.stddev);
  num("delay_rate", m.delay_rate_pct);
  num("delay_avg_min", m.delay_min.mean);
  num("delay_median_min", m.delay_min.median);
  num("delay_sd_min", m.delay_min.stddev);
  num("stalled_rate", m.stalled_rate_pct);
  num("stall_time_min", m.stall_time_min);
  num("thieves_avg", m.thieves_avg);
  intg("restarts", m.restarts);
  num("lost_work_pct", m.lost_work_pct);
  text("predictor", run.predictor);
  text("runtime", o.sim.runtime == RuntimeMode::cap ? "cap" : "replay");
  text("size_from", o.workload.size_from == SizeFrom::allocated ? "allocated" : "requested");
  num("load_factor", o.workload.load_factor);
  num("estimate_factor", o.workload.estimate_factor);
  // Unsigned: --seed goes up to 2^63 - 1 and --repeat adds to it (the predictor's spec
  // prints it so too).
  f.push_back({"seed", std::to_string(o.seed), false});
  intg("dropped_too_wide", w.dropped_too_wide);
  intg("dropped_unknown_size", w.dropped_unknown_size);
  intg("dropped_unknown_submit", w.dropped_unknown_submit);
  intg("dropped_unknown_runtime", w.dropped_unknown_runtime);
  intg("size_from_other_field", w.size_from_other_field);
  intg("estimate_from_runtime", w.estimate_from_runtime);
  intg("skipped_lines", c.skipped_lines);
  intg("events", run.events);
  intg("passes", run.passes);
  num("sim_seconds", run.sim_seconds);
  num("sim_cpu_seconds", run.sim_cpu_seconds);
  num("jobs_per_second", run.sim_seconds > 0 ? static_cast<double>(m.jobs) / run.sim_seconds : 0, 0);
  num("peak_rss_mb", run.peak_rss_mb, 1);
  f.push_back({"invariants_checked", c.invariants_checked ? "true" : "false", false});
  // Papers 002/004 (src/measure/preempt_metrics.h): kill and requeue, strict fairness and
  // reservation violations (any policy), failing and short jobs (short: runtime <= the
  // trial length).
  const measure::PreemptMetrics& p = run.preempt;
  text("base", run.base);
  intg("trial_length", run.trial_length);
  intg("reservation_violations", p.reservation.violations);
  num("rv_mean_parallelism", p.reservation.mean_parallelism);
  num("rv_dtr_avg_min", p.reservation.dtr_mean_min);
  num("rv_dtr_max_h", p.reservation.dtr_max_hours);
  num("rv_si_avg", p.reservation.si_mean);
  num("rv_si_max", p.reservation.si_max);
  intg("strict_fairness_delayed_jobs", p.fairness.delayed);
  intg("blocked_jobs", p.fairness.blocked);
  num("strict_fairness_delay_avg_min", p.fairness.delay_mean_min);
  num("strict_fairness_delay_max_h", p.fairness.delay_max_hours);
  num("mbs", p.mbs);
  num("mwbs", p.mwbs);
  intg("blocked_big", p.blocked_big);
  intg("blocked_small", p.blocked_small);
  num("mbs_blocked_big", p.mbs_blocked_big);
  num("mwbs_blocked_big", p.mwbs_blocked_big);
  num("mbs_blocked_small", p.mbs_blocked_small);
  num("mwbs_blocked_small", p.mwbs_blocked_small);
  num("total_load_pct", p.total_load_pct);
  num("wasted_load_pct", p.wasted_load_pct);
  intg("preempted_jobs", p.preempted_jobs);
  num("preempted_pct", p.preempted_pct);
  num("mkt", p.mkt);
  num("rtw_pct", p.rtw_pct);
  auto waits = [&](const char* key, const measure::WaitStats& w) {
    intg((std::string("jobs_") + key).c_str(), w.count);
    num((std::string("avg_wait_") + key + "_min").c_str(), w.avg_s / 60.0);
    num((std::string("max_wait_") + key + "_min").c_str(), w.max_s / 60.0);
  };
  waits("failed", p.wait_failed);
  waits("short", p.wait_short);
  waits("short_failed", p.wait_short_failed);
  return f;
}

std::string json_line(const RunReport& run, const RunContext& context) {
  std::string out = "{";
  bool first = true;
  for (const Field& f : fields_of(run, context)) {
    if (!first) out += ", ";
    first = false;
    out += "\"" + f.name + "\": ";
    out += f.is_text ? "\"" + json_escape(f.value) + "\"" : f.value;
  }
  return out + "}";
}

std::string csv_header(const RunReport& run, const RunContext& context) {
  std::string out;
  for (const Field& f : fields_of(run, context)) out += (out.empty() ? "" : ",") + f.name;
  return out;
}

std::string csv_row(const RunReport& run, const RunContext& context) {
  std::string out;
  bool first = true;
  for (const Field& f : fields_of(run, context)) {
    if (!first) out += ",";
    first = false;
    out += f.value == "null" ? std::string() : csv_escape(f.value);
  }
  return out;
}

std::string table(const std::vector<RunReport>& runs, const RunContext& c) {
  const Workload& w = *c.workload;
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "trace %s: %zu jobs on %d processors", w.trace.c_str(),
                w.jobs.size(), w.procs);
  out += line;
  std::string dropped;
  auto note = [&](int n, const char* why) {
    if (n > 0) dropped += (dropped.empty() ? "" : ", ") + std::to_string(n) + " " + why;
  };
  note(w.dropped_too_wide, "too wide");
  note(w.dropped_unknown_size, "unknown size");
  note(w.dropped_unknown_submit, "unknown submit");
  note(w.dropped_unknown_runtime, "unknown runtime");
  note(c.skipped_lines, "malformed lines skipped");
  out += dropped.empty() ? std::string("\n") : "; left out: " + dropped + "\n";
  std::snprintf(line, sizeof line, "%-14s %8s %10s %6s %9s %6s %8s %11s %7s %9s %8s\n",
                "policy", "counted", "wait[min]", "vs1st", "bsld", "vs1st", "acc[%]", "corr/job",
                "util[%]", "maxw[min]", "sim[s]");
  out += line;
  if (runs.empty()) return out;
  const measure::Metrics& base = runs.front().metrics;
  // "counted" leaves out the first 1% of terminated jobs and jobs ending after the last
  // arrival (see easypp-sim(1)); on a tiny trace that can be all of them.
  for (const RunReport& r : runs) {
    const measure::Metrics& m = r.metrics;
    const std::string corr = std::isfinite(m.corrections_mean)
                                 ? number(m.corrections_mean, 2) + "±" + number(m.corrections_sd, 2)
                                 : "-";
    std::snprintf(line, sizeof line,
                  "%-14s %8lld %10s %6s %9s %6s %8s %12s %7.1f %9.1f %8.2f\n",
                  r.policy.c_str(), static_cast<long long>(m.counted), cell(m.avg_wait_min, 1).c_str(),
                  change(m.avg_wait_min, base.avg_wait_min).c_str(), cell(m.avg_bsld, 2).c_str(),
                  change(m.avg_bsld, base.avg_bsld).c_str(), cell(m.accuracy_pct, 1).c_str(),
                  corr.c_str(), m.utilization_pct, m.max_wait_min, r.sim_seconds);
    out += line;
  }
  return out;
}

}  // namespace easypp::sim
