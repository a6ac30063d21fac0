// Printing results: one ordered list of named fields per simulation feeds both the JSON
// lines and the CSV rows (so the two never disagree), and a human table.
#ifndef EASYPP_SIM_REPORT_H
#define EASYPP_SIM_REPORT_H

#include <cstdint>
#include <string>
#include <vector>

#include "sim/cli.h"
#include "measure/metrics.h"
#include "measure/outcome.h"
#include "measure/preempt_metrics.h"
#include "sim/workload.h"

namespace easypp::sim {

struct RunReport {
  std::string policy;
  std::string predictor;  // canonical spec
  measure::Metrics metrics;
  measure::PreemptMetrics preempt;  // papers 002/004 (kill and requeue, fairness, failing jobs)
  // A timed-run policy's own base scheduler and trial length (the trial length is also
  // what "short" means in `preempt`); for other policies --base and --trial-length.
  std::string base = "easy";
  Time trial_length = 90;
  std::int64_t events = 0;
  std::int64_t passes = 0;
  double sim_seconds = 0;
  double sim_cpu_seconds = 0;
  double peak_rss_mb = 0;
};

// What is common to all runs of one call: the trace, how it was prepared.
struct RunContext {
  const Workload* workload = nullptr;
  const CliOptions* options = nullptr;
  int skipped_lines = 0;
  bool invariants_checked = false;
};

struct Field {
  std::string name;
  std::string value;  // already formatted
  bool is_text = false;
};

std::vector<Field> fields_of(const RunReport& run, const RunContext& context);
std::string json_line(const RunReport& run, const RunContext& context);
std::string csv_header(const RunReport& run, const RunContext& context);
std::string csv_row(const RunReport& run, const RunContext& context);
// Wait and bounded slowdown of every run, with % change against the first run.
std::string table(const std::vector<RunReport>& runs, const RunContext& context);

}  // namespace easypp::sim

#endif
