// Running the sweep: every selected (configuration, trace) simulated once per class of
// equivalent configurations (config_space.h), on a pool of threads, each finished pair
// appended to DIR/results.csv at once, so a rerun resumes where the last one stopped.
#ifndef EASYPP_SWEEP_SWEEP_RUN_H
#define EASYPP_SWEEP_SWEEP_RUN_H

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "sweep/config_space.h"

namespace easypp::sweep {

// One trace to sweep over: an SWF file, the label its results carry, and the machine size
// (0: the header's MaxProcs).
struct TraceInput {
  std::string label;
  std::string path;
  int procs = 0;
};

// Parses "--traces": comma-separated items, each a directory (every *.swf and *.swf.gz
// in it, by name) or "[LABEL=]FILE[:procs=N]". The default label is the file name
// without .gz and .swf, plus "@N" when procs is given. Throws std::invalid_argument
// naming the item (a missing file, a bad procs=, a label used twice).
std::vector<TraceInput> parse_trace_list(const std::string& text);

struct SweepOptions {
  std::vector<TraceInput> traces;
  std::string policy = "easy++";
  std::string configs = "all";  // ConfigSpace::select syntax
  std::string out;              // directory of results.csv and sweep.conf
  unsigned threads = 0;         // 0: every core this process may use (affinity)
  std::size_t max_jobs_per_trace = 0;  // 0: whole traces; else the first N jobs of each
};

struct SweepReport {
  std::size_t configs = 0;         // selected
  std::size_t lines_wanted = 0;    // configs x traces
  std::size_t lines_present = 0;   // already in results.csv at start
  std::size_t lines_copied = 0;    // written from an equivalent configuration's numbers
  std::size_t simulations = 0;     // run now
  bool dropped_truncated_line = false;
  double read_seconds = 0;         // reading and preparing the traces
  double wall_seconds = 0;         // the simulations, wall clock
  double cpu_seconds = 0;          // the simulations, summed thread CPU time
};

// Runs (or resumes) a sweep. Progress goes to `progress` (every few seconds: done/total,
// rate, ETA) unless it is null. Throws std::invalid_argument for bad options or a
// results.csv made with other settings, std::runtime_error for I/O and simulation
// failures (naming the configuration and trace).
SweepReport run_sweep(const SweepOptions& options, const ConfigSpace& space, std::FILE* progress);

}  // namespace easypp::sweep

#endif
