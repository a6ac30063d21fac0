// Standard Workload Format (Parallel Workloads Archive) reader, plain or gzip.
// Used by the simulator and by easypp-predict; the one SWF parser in the tree.
#ifndef EASYPP_SIM_SWF_H
#define EASYPP_SIM_SWF_H

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/job.h"

namespace easypp::swf {

// One SWF record (18 fields); -1 stays -1 where the archive says "unknown".
struct Record {
  std::int64_t job_number = -1;
  Time submit = -1;
  Time wait = -1;
  Time runtime = -1;
  int allocated_procs = -1;
  double avg_cpu = -1;
  double used_memory = -1;
  int requested_procs = -1;
  Time requested_time = -1;  // the user estimate
  double requested_memory = -1;
  int status = -1;  // 1 completed, 0 failed, 5 cancelled, -1 unknown (SWF 2.2)
  std::int64_t user = -1;
  std::int64_t group = -1;
  std::int64_t executable = -1;
  int queue = -1;
  int partition = -1;
  std::int64_t preceding_job = -1;
  Time think_time = -1;
  int line = 0;  // 1-based line number in the file, for messages
};

struct Header {
  int max_procs = -1;  // first number of "; MaxProcs:" (notes may follow it)
  int max_nodes = -1;
  Time unix_start_time = -1;
  std::vector<std::string> acknowledge;  // "; Acknowledge:" lines, kept for reports
};

struct Trace {
  std::string path;
  Header header;
  std::vector<Record> records;  // sorted stably by submit time
  int skipped_lines = 0;        // malformed lines skipped (only with skip_bad)
  // Why, "FILE:LINE: reason", for the first kSkippedReasons of them.
  static constexpr std::size_t kSkippedReasons = 20;
  std::vector<std::string> skipped_reasons;
  bool was_unsorted = false;    // submit times went backwards somewhere in the file
  // Header lines whose value could not be used (the field is left unset), each
  // "FILE:LINE: why", for the caller to show.
  std::vector<std::string> notes;
};

struct ReadOptions {
  bool skip_bad = false;  // false: the first malformed line throws ParseError
};

// A malformed line or unreadable file; what() reads "FILE:LINE: reason".
class ParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

Trace read(const std::string& path, const ReadOptions& options = {});

}  // namespace easypp::swf

#endif
