#include "record_sources.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <istream>
#include <ostream>
#include <sstream>

namespace easypp::tools {
namespace {

constexpr std::size_t kMaxReported = 20;  // malformed lines reported one by one

void report(std::ostream& diag, const std::string& where, const std::string& message, ReadCounts& counts) {
  ++counts.malformed;
  if (counts.malformed <= kMaxReported) diag << where << ": " << message << "\n";
  if (counts.malformed == kMaxReported + 1) diag << where << ": further malformed lines are only counted\n";
}

// An ifstream (or gzopen) opens a directory and reads it as empty: refuse what is not a
// file of lines (a pipe, as from <(ssh host sacct ...), is one).
void refuse_non_file(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
    throw SourceError(path + ": could not be read: " + (S_ISDIR(st.st_mode) ? "a directory" : "not a regular file"));
}

}  // namespace

std::vector<epp_record> read_accounting(std::istream& in, const std::string& name, AccountingFormat format,
                                        ReadCounts& counts, std::ostream& diag) {
  std::vector<epp_record> out;
  std::string line;
  char err[512];
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    ++counts.lines;
    epp_record r;
    err[0] = '\0';
    int rc = format == AccountingFormat::Sacct ? epp_parse_sacct_line(line.c_str(), &r, err, sizeof err)
                                               : epp_parse_jobcomp_line(line.c_str(), &r, err, sizeof err);
    if (rc == 1) {
      out.push_back(r);
      ++counts.records;
    } else if (rc == 0) {
      ++counts.skipped;
    } else {
      report(diag, name + ":" + std::to_string(number), err, counts);
    }
  }
  return out;
}

std::vector<epp_record> read_accounting_file(const std::string& path, AccountingFormat format, ReadCounts& counts,
                                             std::ostream& diag) {
  refuse_non_file(path);
  std::ifstream in(path);
  if (!in) throw SourceError(path + ": cannot open: " + std::strerror(errno));
  std::vector<epp_record> out = read_accounting(in, path, format, counts, diag);
  if (in.bad()) throw SourceError(path + ": could not be read (read error)");
  return out;
}

std::vector<std::string> sacct_command(const std::vector<std::string>& user_args) {
  const char* program = std::getenv("EASYPP_SACCT");
  std::vector<std::string> argv = {program && *program ? program : "sacct", "--parsable2", "--noheader",
                                   "--format=JobIDRaw,User,UID,Submit,Start,End,TimelimitRaw,NCPUS,State,"
                                   "Partition,JobName"};
  argv.insert(argv.end(), user_args.begin(), user_args.end());
  return argv;
}

std::vector<epp_record> run_sacct(const std::vector<std::string>& user_args, ReadCounts& counts, std::ostream& diag) {
  std::vector<std::string> args = sacct_command(user_args);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int pipefd[2];
  if (::pipe(pipefd) != 0) throw SourceError(std::string("sacct: pipe: ") + std::strerror(errno));
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(pipefd[0]);
    ::close(pipefd[1]);
    throw SourceError(std::string("sacct: fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::dup2(pipefd[1], STDOUT_FILENO);
    ::close(pipefd[0]);
    ::close(pipefd[1]);
    ::execvp(argv[0], argv.data());
    std::fprintf(stderr, "%s: cannot run: %s\n", argv[0], std::strerror(errno));
    ::_exit(127);
  }
  ::close(pipefd[1]);
  std::string output;
  char buf[65536];
  while (true) {
    ssize_t n = ::read(pipefd[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    output.append(buf, static_cast<std::size_t>(n));
  }
  ::close(pipefd[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string how = WIFEXITED(status) ? "exited with status " + std::to_string(WEXITSTATUS(status))
                                        : "was killed by signal " + std::to_string(WTERMSIG(status));
    throw SourceError(args[0] + " " + how + " (nothing imported; is slurmdbd reachable?)");
  }
  std::istringstream in(output);
  return read_accounting(in, "sacct", AccountingFormat::Sacct, counts, diag);
}

bool swf_to_record(const swf::Record& in, epp_record& out) {
  if (in.requested_time <= 0 || in.submit < 0 || in.wait < 0 || in.runtime < 0 || in.user < 0 ||
      in.user > 0xffffffffLL || in.job_number < 0)
    return false;
  out = epp_record{};
  out.job.job_id = static_cast<std::uint64_t>(in.job_number);
  out.job.user_id = static_cast<std::uint32_t>(in.user);
  out.job.submit = in.submit;
  out.job.estimate = in.requested_time;
  out.job.procs = in.requested_procs > 0 ? in.requested_procs : in.allocated_procs;
  out.job.runtime = in.runtime;
  out.start = in.submit + in.wait;
  out.end = out.start + in.runtime;
  out.end_state = in.status == 0 ? EPP_END_FAILED : in.status == 5 ? EPP_END_CANCELLED : EPP_END_COMPLETED;
  return true;
}

std::vector<epp_record> read_swf(const std::string& path, ReadCounts& counts, std::ostream& diag) {
  refuse_non_file(path);
  swf::Trace trace;
  try {
    trace = swf::read(path, swf::ReadOptions{true});
  } catch (const std::exception& e) {
    throw SourceError(e.what());
  }
  for (const std::string& note : trace.notes) diag << "note: " << note << "\n";  // header values not used
  if (trace.skipped_lines > 0) {
    // FILE:LINE: reason for the first ones, as the sacct and jobcomp sources report.
    for (const std::string& why : trace.skipped_reasons) diag << why << "\n";
    counts.malformed += static_cast<std::size_t>(trace.skipped_lines);
    diag << path << ": " << trace.skipped_lines << " malformed lines skipped"
         << (trace.skipped_lines > static_cast<int>(trace.skipped_reasons.size())
                 ? " (the first " + std::to_string(trace.skipped_reasons.size()) + " named above)"
                 : std::string())
         << "\n";
  }
  // SWF times count from the header's UnixStartTime; add it so dates read as real ones.
  const std::int64_t epoch = trace.header.unix_start_time > 0 ? trace.header.unix_start_time : 0;
  std::vector<epp_record> out;
  out.reserve(trace.records.size());
  for (const auto& rec : trace.records) {
    ++counts.lines;
    epp_record r;
    if (swf_to_record(rec, r)) {
      r.job.submit += epoch;
      r.start += epoch;
      r.end += epoch;
      out.push_back(r);
      ++counts.records;
    } else {
      ++counts.skipped;
    }
  }
  return out;
}

}  // namespace easypp::tools
