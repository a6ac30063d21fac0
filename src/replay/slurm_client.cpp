#include "replay/slurm_client.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "replay/command.h"

namespace easypp::replay {
namespace {

CommandResult must_run(const std::vector<std::string>& argv) {
  CommandResult r = run_command(argv);
  if (r.status != 0) {
    std::string msg = r.err;
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    throw SlurmError(command_line(argv) + ": exit " + std::to_string(r.status) +
                     (msg.empty() ? "" : ": " + msg));
  }
  return r;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

// "A/I/O/T" -> T
int total_of(const std::string& cpus, const std::string& where) {
  auto slash = cpus.rfind('/');
  try {
    return std::stoi(cpus.substr(slash == std::string::npos ? 0 : slash + 1));
  } catch (const std::exception&) {
    throw SlurmError(where + ": cannot read CPU count from '" + cpus + "'");
  }
}

std::string join_ids(const std::vector<std::uint64_t>& ids, std::size_t from, std::size_t to) {
  std::string s;
  for (std::size_t i = from; i < to; ++i) s += (s.empty() ? "" : ",") + std::to_string(ids[i]);
  return s;
}

constexpr std::size_t kChunk = 400;  // ids per command line

}  // namespace

const char* sacct_format() {
  return "JobIDRaw,User,UID,Submit,Start,End,TimelimitRaw,NCPUS,State,Partition,JobName,Flags";
}

int partition_cpus(const std::string& partition) {
  std::vector<std::string> argv = {"sinfo", "-h", "-o", "%P %C"};
  if (!partition.empty()) argv.insert(argv.end(), {"-p", partition});
  CommandResult r = must_run(argv);
  int total = 0;
  bool found = false;
  for (const std::string& line : lines_of(r.out)) {
    auto space = line.find(' ');
    if (space == std::string::npos) continue;
    std::string name = line.substr(0, space);
    const bool is_default = !name.empty() && name.back() == '*';
    if (is_default) name.pop_back();
    if (partition.empty() ? is_default : name == partition) {
      total += total_of(line.substr(space + 1), command_line(argv));
      found = true;
    }
  }
  if (!found) {
    throw SlurmError(command_line(argv) + ": " +
                     (partition.empty() ? std::string("no default partition")
                                        : "no partition " + partition));
  }
  return total;
}

std::uint64_t submit(const SubmitRequest& q) {
  char payload[64];
  std::snprintf(payload, sizeof payload, "sleep %.3f", q.payload);
  std::vector<std::string> argv = {"sbatch", "--parsable", "--chdir=/tmp", "--output=/dev/null",
                                   "--job-name=" + q.name, "--ntasks=" + std::to_string(q.procs),
                                   "--time=" + std::to_string(q.limit_min)};
  if (!q.account.empty()) argv.push_back("--uid=" + q.account);
  if (!q.partition.empty()) argv.push_back("--partition=" + q.partition);
  argv.insert(argv.end(), q.extra.begin(), q.extra.end());
  argv.push_back(std::string("--wrap=") + payload);
  CommandResult r = must_run(argv);
  std::string id = r.out.substr(0, r.out.find_first_of(";\n"));
  try {
    return std::stoull(id);
  } catch (const std::exception&) {
    throw SlurmError(command_line(argv) + ": no job id in its output '" + r.out + "'");
  }
}

QueueCounts queue_counts(const std::map<std::uint64_t, std::size_t>& ids) {
  CommandResult r = must_run({"squeue", "-h", "-a", "-o", "%i %T"});
  QueueCounts c;
  for (const std::string& line : lines_of(r.out)) {
    auto space = line.find(' ');
    if (space == std::string::npos) continue;
    std::uint64_t id = 0;
    try {
      id = std::stoull(line.substr(0, space));
    } catch (const std::exception&) {
      continue;  // array or het job ids ("12_3"): not ours
    }
    if (ids.find(id) == ids.end()) continue;
    const std::string state = line.substr(space + 1);
    if (state == "PENDING") {
      ++c.pending;
    } else if (state != "COMPLETED" && state != "CANCELLED" && state != "FAILED" &&
               state != "TIMEOUT") {
      ++c.running;
    }
  }
  return c;
}

bool cancel(const std::vector<std::uint64_t>& ids, std::string& error) {
  bool ok = true;
  for (std::size_t i = 0; i < ids.size(); i += kChunk) {
    std::vector<std::string> argv = {"scancel", join_ids(ids, i, std::min(ids.size(), i + kChunk))};
    CommandResult r = run_command(argv);
    if (r.status != 0) {
      ok = false;
      error += command_line(argv).substr(0, 80) + ": " + r.err;
    }
  }
  return ok;
}

int parse_sacct_with_flags(const std::string& line, LiveRecord& out, std::string& err) {
  auto bar = line.rfind('|');
  if (bar == std::string::npos) {
    err = "not a sacct --parsable2 line of --format=" + std::string(sacct_format());
    return -1;
  }
  const std::string flags = line.substr(bar + 1);
  const std::string rest = line.substr(0, bar);
  char buf[256];
  const int rc = epp_parse_sacct_line(rest.c_str(), &out.record, buf, sizeof buf);
  if (rc < 0) {
    err = buf;
    return -1;
  }
  if (rc == 0) return 0;
  // State is the ninth field.
  std::size_t pos = 0;
  for (int i = 0; i < 8; ++i) pos = rest.find('|', pos) + 1;
  out.state = rest.substr(pos, rest.find('|', pos) - pos);
  out.backfilled = flags.find("SchedBackfill") != std::string::npos;
  return 1;
}

int parse_sacct_requeued_run(const std::string& line, LiveRecord& out) {
  // State is the ninth of the format's twelve fields.
  std::size_t begin = 0;
  for (int i = 0; i < 8; ++i) {
    begin = line.find('|', begin);
    if (begin == std::string::npos) return 0;
    ++begin;
  }
  const std::size_t end = line.find('|', begin);
  if (end == std::string::npos || line.compare(begin, end - begin, "REQUEUED") != 0) return 0;
  // The library parses ended runs only: read this one's times as if it had completed.
  std::string as_ended = line;
  as_ended.replace(begin, end - begin, "COMPLETED");
  std::string err;
  return parse_sacct_with_flags(as_ended, out, err) == 1 && out.record.end >= out.record.start
             ? 1
             : 0;
}

namespace {

using KilledRuns = std::map<std::uint64_t, LiveRecord>;  // restarts and lost CPU-seconds per job

void add_killed_run(KilledRuns& killed, const LiveRecord& run) {
  LiveRecord& k = killed[run.record.job.job_id];
  if (k.restarts == 0) k.record.job.submit = run.record.job.submit;
  ++k.restarts;
  k.lost_cpu_seconds += static_cast<double>(run.record.end - run.record.start) *
                        static_cast<double>(run.record.job.procs);
}

void merge_killed_runs(std::map<std::uint64_t, LiveRecord>& out, const KilledRuns& killed) {
  for (auto& [id, rec] : out) {
    auto k = killed.find(id);
    if (k == killed.end()) continue;
    rec.restarts = k->second.restarts;
    rec.lost_cpu_seconds = k->second.lost_cpu_seconds;
    // A requeued job's record carries the requeue as its submit time: the user submitted
    // it once, at the first run's submit, and waits from then.
    rec.record.job.submit = std::min(rec.record.job.submit, k->second.record.job.submit);
  }
}

}  // namespace

std::map<std::uint64_t, LiveRecord> sacct_records(const std::vector<std::uint64_t>& ids,
                                                  std::vector<std::string>& problems,
                                                  std::string* raw) {
  std::map<std::uint64_t, LiveRecord> out;
  KilledRuns killed;
  if (raw) raw->clear();
  const std::set<std::uint64_t> wanted(ids.begin(), ids.end());
  for (std::size_t i = 0; i < ids.size(); i += kChunk) {
    std::vector<std::string> argv = {"sacct", "--parsable2", "--noheader", "--allusers",
                                     "--allocations", "--duplicates",
                                     std::string("--format=") + sacct_format(),
                                     "--jobs=" + join_ids(ids, i, std::min(ids.size(), i + kChunk))};
    CommandResult r = must_run(argv);
    if (raw) *raw += r.out;
    int n = 0;
    for (const std::string& line : lines_of(r.out)) {
      ++n;
      LiveRecord rec;
      std::string err;
      const int rc = parse_sacct_with_flags(line, rec, err);
      if (rc < 0) {
        problems.push_back("sacct:" + std::to_string(n) + ": " + err);
        continue;
      }
      LiveRecord run;
      if (rc == 0 && parse_sacct_requeued_run(line, run) == 1) {
        add_killed_run(killed, run);
        continue;
      }
      if (rc == 0 || wanted.count(rec.record.job.job_id) == 0) continue;
      out[rec.record.job.job_id] = rec;  // --duplicates: the last (latest) record wins
    }
  }
  merge_killed_runs(out, killed);
  return out;
}

std::map<std::string, std::string> slurm_config() {
  CommandResult r = must_run({"scontrol", "show", "config"});
  std::map<std::string, std::string> config;
  for (const std::string& line : lines_of(r.out)) {
    auto eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    auto key_end = line.find_last_not_of(' ', eq);
    config[line.substr(0, key_end + 1)] = line.substr(eq + 3);
  }
  return config;
}

std::string jobcomp_file(const std::map<std::string, std::string>& config) {
  auto type = config.find("JobCompType");
  auto loc = config.find("JobCompLoc");
  if (type == config.end() || loc == config.end() || type->second != "jobcomp/filetxt") return "";
  return loc->second;
}

int parse_jobcomp_requeued_run(const std::string& line, LiveRecord& out) {
  const std::size_t s = line.find(" JobState=");
  if (s == std::string::npos) return 0;
  const std::size_t begin = s + 10;
  const std::size_t end = std::min(line.find(' ', begin), line.size());
  const std::string state = line.substr(begin, end - begin);
  if (state != "REQUEUED" && state != "PENDING") return 0;
  // The library parses ended runs only: read this one's times as if it had completed.
  std::string as_ended = line;
  as_ended.replace(begin, end - begin, "COMPLETED");
  char buf[256];
  return epp_parse_jobcomp_line(as_ended.c_str(), &out.record, buf, sizeof buf) == 1 &&
                 out.record.end >= out.record.start
             ? 1
             : 0;
}

std::map<std::uint64_t, LiveRecord> jobcomp_records(const std::string& path,
                                                    const std::vector<std::uint64_t>& ids,
                                                    std::vector<std::string>& problems) {
  std::ifstream in(path);
  if (!in) throw SlurmError(path + ": cannot read the jobcomp file");
  const std::set<std::uint64_t> wanted(ids.begin(), ids.end());
  std::map<std::uint64_t, LiveRecord> out;
  KilledRuns killed;
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    LiveRecord rec;
    if (parse_jobcomp_requeued_run(line, rec) == 1) {
      if (wanted.count(rec.record.job.job_id) != 0) add_killed_run(killed, rec);
      continue;
    }
    char buf[256];
    const int rc = epp_parse_jobcomp_line(line.c_str(), &rec.record, buf, sizeof buf);
    if (rc < 0) {
      problems.push_back(path + ":" + std::to_string(n) + ": " + buf);
      continue;
    }
    if (rc == 0 || wanted.count(rec.record.job.job_id) == 0) continue;
    auto s = line.find("JobState=");
    rec.state = s == std::string::npos ? "" : line.substr(s + 9, line.find(' ', s) - s - 9);
    out[rec.record.job.job_id] = rec;
  }
  merge_killed_runs(out, killed);
  return out;
}

}  // namespace easypp::replay
