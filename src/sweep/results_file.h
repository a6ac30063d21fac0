// DIR/results.csv: one line per finished (configuration, trace), written and flushed as
// soon as it is known, so an interrupted sweep loses at most the line being written and
// resumes from the rest. Also DIR/sweep.conf, the settings those lines were made with.
#ifndef EASYPP_SWEEP_RESULTS_FILE_H
#define EASYPP_SWEEP_RESULTS_FILE_H

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sweep/results_lock.h"

namespace easypp::sweep {

struct ResultRow {
  std::size_t config = 0;
  std::string spec;
  std::string trace;  // the trace's label
  double avg_wait_min = 0;
  double avg_bsld = 0;
  // Wall and thread-CPU seconds of the simulation and its metrics. 0 on a row whose
  // numbers were copied from an equivalent configuration's simulation.
  double sim_seconds = 0;
  double cpu_seconds = 0;
  // The configuration whose simulation produced these numbers (== config unless copied
  // from an equivalent one; see config_space.h).
  std::size_t simulated_as = 0;
};

inline constexpr const char* kResultsHeader =
    "config,spec,trace,avg_wait_min,avg_bsld,sim_seconds,cpu_seconds,simulated_as";

// The CSV line of a row, without the newline. Numbers are written in their shortest
// exact form, so reading a line back gives the same doubles.
std::string format_row(const ResultRow& row);

struct ResultsContent {
  std::vector<ResultRow> rows;
  // Bytes up to the end of the last complete line; what follows was cut short by an
  // interruption and is dropped when the sweep appends again.
  std::uint64_t complete_bytes = 0;
  bool truncated_tail = false;
  // The file read (device, inode); none when there was no file.
  std::optional<std::pair<std::uint64_t, std::uint64_t>> file;
};

// Reads a results file. A missing file gives no rows. The header must be kResultsHeader;
// a complete line that does not parse throws std::runtime_error "PATH:LINE: reason".
ResultsContent read_results(const std::string& path);

// Appends rows to a results file, one write() per line, under a lock so threads may share
// it. Takes an exclusive flock on the file: a second sweep on the same directory fails.
class ResultsWriter {
 public:
  // Creates the file with its header, or cuts it to `complete_bytes` (dropping a
  // truncated last line) and appends after it. Throws std::runtime_error naming the path.
  ResultsWriter(const std::string& path, std::uint64_t complete_bytes);
  // The same for what `read` read from `path` before the lock was taken: throws if the
  // file locked is not that one (a merge replaced it meanwhile: cutting the new file to
  // the old one's length would lose merged lines).
  ResultsWriter(const std::string& path, const ResultsContent& read);
  ResultsWriter(const ResultsWriter&) = delete;
  ResultsWriter& operator=(const ResultsWriter&) = delete;

  void append(const std::vector<ResultRow>& rows);

 private:
  void start(std::uint64_t complete_bytes);  // cuts, seeks, writes the header if empty

  std::string path_;
  ResultsLock lock_;  // also the file descriptor written to
  std::mutex mutex_;
};

// DIR/sweep.conf: "key=value" lines (# comments). A sweep writes it when it starts and a
// resume must match it, so one results.csv never mixes settings.
struct SweepSettings {
  std::string policy;
  std::size_t max_jobs_per_trace = 0;  // 0: whole traces
  // One per trace: label, file name (no directory) and machine size simulated.
  struct Trace {
    std::string label;
    std::string file;
    int procs = 0;
    std::size_t jobs = 0;
    bool operator==(const Trace&) const = default;
  };
  std::vector<Trace> traces;
};

// Missing file: false. Malformed: std::runtime_error "PATH:LINE: reason".
bool read_settings(const std::string& path, SweepSettings& out);
void write_settings(const std::string& path, const SweepSettings& settings);
// Empty if `now` may extend results made with `before` (same policy and job limit, and
// every trace label present in both names the same file, size and job count); else the
// first difference, "key: before -> now".
std::string settings_conflict(const SweepSettings& before, const SweepSettings& now);

}  // namespace easypp::sweep

#endif
