// easypp-sim's command line: parsed into options, every bad value reported as
// "option=value: reason" (the caller exits 2).
#ifndef EASYPP_SIM_CLI_H
#define EASYPP_SIM_CLI_H

#include <cstdint>
#include <string>
#include <vector>

#include "cli/command_line.h"
#include "sim/simulator.h"
#include "sim/workload.h"

namespace easypp::sim {

enum class Format { table, csv, json };

struct CliOptions {
  std::string trace;
  std::vector<std::string> policies;
  std::string predictor;  // empty: each policy's own
  // Aliases of timed-run's keys base= and trial= (paper 004); the trial length is also
  // what "short" means in the reports.
  std::string base = "easy";
  Time trial_length = 90;
  bool base_given = false;
  bool trial_length_given = false;
  bool list_policies = false;  // --list-policies: print every family and its keys
  WorkloadOptions workload;
  SimOptions sim;
  bool skip_bad = false;
  std::uint64_t seed = 1;
  // Runs of each policy with seeds seed, seed+1, ...; > 1 adds a mean/spread summary.
  int repeat = 1;
  Format format = Format::table;
  // Every job's schedule per policy (schedule_file.h): SWF, or CSV when it ends in .csv.
  std::string schedule;
  bool help = false;
};

using UsageError = cli::UsageError;

// argv[0] is skipped. Accepts "--opt value" and "--opt=value".
CliOptions parse_cli(const std::vector<std::string>& args);

const char* cli_usage();

}  // namespace easypp::sim

#endif
