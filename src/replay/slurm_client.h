// The Slurm client commands a replay uses (sinfo, sbatch, squeue, scancel, sacct,
// scontrol), run against whatever cluster SLURM_CONF selects. Every failure is a
// SlurmError naming the command line and Slurm's own message.
#ifndef EASYPP_REPLAY_SLURM_CLIENT_H
#define EASYPP_REPLAY_SLURM_CLIENT_H

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "easypp/predictor.h"

namespace easypp::replay {

class SlurmError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An ended job as accounting recorded it.
struct LiveRecord {
  epp_record record{};        // times: epoch seconds
  std::string state;          // Slurm's state name ("COMPLETED", "CANCELLED by 0", ...)
  bool backfilled = false;    // sacct Flags has SchedBackfill (unknown from jobcomp)
  // Runs before the final one that were killed and requeued (sacct --duplicates shows each
  // as State REQUEUED, papers 002/004 live): how many, and their CPU-seconds (real time).
  // The record's submit is then the first run's (Slurm's final record has the requeue's).
  int restarts = 0;
  double lost_cpu_seconds = 0;
};

struct QueueCounts {
  int pending = 0;
  int running = 0;  // RUNNING, COMPLETING, CONFIGURING, SUSPENDED
};

struct SubmitRequest {
  std::string account;   // run as this user (sbatch --uid, root only); empty: as self
  std::string name;      // job name
  std::string partition; // empty: the default
  int procs = 1;
  std::int64_t limit_min = 1;
  double payload = 0;    // seconds of sleep
  std::vector<std::string> extra;  // more sbatch options
};

// Total CPUs of PARTITION (empty: the default partition).
int partition_cpus(const std::string& partition);

// Submits one job; returns its id.
std::uint64_t submit(const SubmitRequest& request);

// States of the listed jobs still in the queue (others have ended).
QueueCounts queue_counts(const std::map<std::uint64_t, std::size_t>& ids);

// scancel of every listed id (in chunks); returns false if scancel reported an error.
bool cancel(const std::vector<std::uint64_t>& ids, std::string& error);

// Ended jobs among `ids` from sacct (slurmdbd). Throws SlurmError when accounting is not
// available. Lines that do not parse are reported in `problems` as "sacct:LINE: ...".
// `raw` (if given) receives sacct's output lines, for checks independent of this parser.
std::map<std::uint64_t, LiveRecord> sacct_records(const std::vector<std::uint64_t>& ids,
                                                  std::vector<std::string>& problems,
                                                  std::string* raw = nullptr);

// Ended jobs among `ids` from a jobcomp/filetxt file, with their killed runs (restarts,
// lost CPU-seconds, first submit) as sacct_records gives them.
std::map<std::uint64_t, LiveRecord> jobcomp_records(const std::string& path,
                                                    const std::vector<std::uint64_t>& ids,
                                                    std::vector<std::string>& problems);

// `scontrol show config` as key -> value.
std::map<std::string, std::string> slurm_config();

// JobCompLoc when JobCompType is jobcomp/filetxt, else "".
std::string jobcomp_file(const std::map<std::string, std::string>& config);

// Parses one "sacct --parsable2" line of the replay's format (the predictor library's
// fields plus Flags). Returns 1 (filled), 0 (skip: a step, not ended) or -1 (err set).
int parse_sacct_with_flags(const std::string& line, LiveRecord& out, std::string& err);

// A sacct line of a run that was killed and requeued (State REQUEUED, an allocation line
// with a start): returns 1 and fills job id, procs, start and end; 0 for any other line.
int parse_sacct_requeued_run(const std::string& line, LiveRecord& out);

// A jobcomp/filetxt line of a run that was killed and requeued (Slurm writes it at the
// requeue, the job already REQUEUED or PENDING again): returns 1 and fills job id, procs,
// submit, start and end; 0 for any other line.
int parse_jobcomp_requeued_run(const std::string& line, LiveRecord& out);

// The --format argument sacct is run with.
const char* sacct_format();

}  // namespace easypp::replay

#endif
