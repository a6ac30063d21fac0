#include "sim/repeat_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

namespace easypp::sim {
namespace {

std::string number(double v) {
  if (!std::isfinite(v)) return "null";  // no run had the average (nothing counted)
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

Spread over(const std::vector<RunReport>& runs,
            const std::function<double(const measure::Metrics&)>& pick) {
  std::vector<double> v;
  v.reserve(runs.size());
  for (const RunReport& r : runs) v.push_back(pick(r.metrics));
  return spread_of(v);
}

void add(std::string& out, const char* name, const Spread& s) {
  out += std::string(",\"") + name + "_mean\":" + number(s.mean);
  out += std::string(",\"") + name + "_sd\":" + number(s.sd);
  out += std::string(",\"") + name + "_min\":" + number(s.min);
  out += std::string(",\"") + name + "_max\":" + number(s.max);
}

}  // namespace

Spread spread_of(const std::vector<double>& given) {
  // A run with nothing counted has no average (NaN): the spread is over the others.
  std::vector<double> values;
  for (double v : given)
    if (std::isfinite(v)) values.push_back(v);
  Spread s;
  if (values.empty()) {
    s.mean = s.sd = s.min = s.max = std::numeric_limits<double>::quiet_NaN();
    return s;
  }
  double sum = 0;
  for (double v : values) sum += v;
  const double n = static_cast<double>(values.size());
  s.mean = sum / n;
  double sq = 0;
  for (double v : values) sq += (v - s.mean) * (v - s.mean);
  s.sd = values.size() > 1 ? std::sqrt(sq / (n - 1)) : 0;
  s.min = *std::min_element(values.begin(), values.end());
  s.max = *std::max_element(values.begin(), values.end());
  return s;
}

RepeatSummary summarize(const std::vector<RunReport>& runs, std::uint64_t first_seed) {
  RepeatSummary s;
  s.runs = static_cast<int>(runs.size());
  s.first_seed = first_seed;
  if (!runs.empty()) {
    s.policy = runs.front().policy;
    s.predictor = runs.front().predictor;
  }
  s.avg_bsld = over(runs, [](const measure::Metrics& m) { return m.avg_bsld; });
  s.avg_wait_min = over(runs, [](const measure::Metrics& m) { return m.avg_wait_min; });
  s.avg_slowdown = over(runs, [](const measure::Metrics& m) { return m.avg_slowdown; });
  s.accuracy_pct = over(runs, [](const measure::Metrics& m) { return m.accuracy_pct; });
  s.utilization_pct = over(runs, [](const measure::Metrics& m) { return m.utilization_pct; });
  return s;
}

std::string summary_json(const RepeatSummary& s) {
  std::string out = "{\"summary\":\"repeat\",\"policy\":\"" + escaped(s.policy) + "\",\"predictor\":\"" +
                    escaped(s.predictor) + "\",\"runs\":" + std::to_string(s.runs) +
                    ",\"first_seed\":" + std::to_string(s.first_seed);
  add(out, "avg_bsld", s.avg_bsld);
  add(out, "avg_wait_min", s.avg_wait_min);
  add(out, "avg_slowdown", s.avg_slowdown);
  add(out, "accuracy_pct", s.accuracy_pct);
  add(out, "utilization_pct", s.utilization_pct);
  return out + "}";
}

std::string summary_table(const std::vector<RepeatSummary>& all) {
  std::string out = "\nrepeats (mean +- sample sd, min-max):\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-14s %5s %9s  %-44s %s\n", "policy", "runs", "seeds", "avg bsld",
                "avg wait [min]");
  out += line;
  for (const RepeatSummary& s : all) {
    const std::string seeds = std::to_string(s.first_seed) + "-" + std::to_string(s.first_seed + s.runs - 1);
    // "-" when no run counted a job (as in the runs' table).
    auto spread = [](const Spread& x) {
      if (!std::isfinite(x.mean)) return std::string("-");
      return number(x.mean) + " +- " + number(x.sd) + " (" + number(x.min) + "-" + number(x.max) + ")";
    };
    const std::string bsld = spread(s.avg_bsld);
    const std::string wait = spread(s.avg_wait_min);
    std::snprintf(line, sizeof line, "%-14s %5d %9s  %-44s %s\n", s.policy.c_str(), s.runs, seeds.c_str(),
                  bsld.c_str(), wait.c_str());
    out += line;
  }
  return out;
}

}  // namespace easypp::sim
