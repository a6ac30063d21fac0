#include "sweep/results_file.h"

#include "cli/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace easypp::sweep {
namespace {

std::string quoted(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

std::string number(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

// Splits one CSV line (RFC 4180 quoting); false on an unterminated quote.
bool split_csv(const std::string& line, std::vector<std::string>& fields) {
  fields.clear();
  std::string cur;
  bool in_quotes = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_quotes) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (c == '"') {
        in_quotes = false;
      } else {
        cur += c;
      }
    } else if (c == '"') {
      in_quotes = true;
    } else if (c == ',') {
      fields.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  fields.push_back(std::move(cur));
  return !in_quotes;
}

bool to_size(const std::string& s, std::size_t& out) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool to_double(const std::string& s, double& out) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size() && out >= 0;
}

ResultRow parse_row(const std::string& line) {
  std::vector<std::string> f;
  if (!split_csv(line, f)) throw std::invalid_argument("unterminated quote");
  if (f.size() != 8) {
    throw std::invalid_argument("expected 8 fields (" + std::string(kResultsHeader) + "), got " +
                                std::to_string(f.size()));
  }
  ResultRow r;
  if (!to_size(f[0], r.config)) throw std::invalid_argument("config=" + f[0] + ": not an index");
  r.spec = f[1];
  r.trace = f[2];
  if (r.trace.empty()) throw std::invalid_argument("trace is empty");
  if (!to_double(f[3], r.avg_wait_min))
    throw std::invalid_argument("avg_wait_min=" + f[3] + ": not a number >= 0");
  if (!to_double(f[4], r.avg_bsld))
    throw std::invalid_argument("avg_bsld=" + f[4] + ": not a number >= 0");
  if (!to_double(f[5], r.sim_seconds))
    throw std::invalid_argument("sim_seconds=" + f[5] + ": not a number >= 0");
  if (!to_double(f[6], r.cpu_seconds))
    throw std::invalid_argument("cpu_seconds=" + f[6] + ": not a number >= 0");
  if (!to_size(f[7], r.simulated_as))
    throw std::invalid_argument("simulated_as=" + f[7] + ": not an index");
  return r;
}

[[noreturn]] void fail_errno(const std::string& what, const std::string& path) {
  throw std::runtime_error(path + ": " + what + ": " + std::strerror(errno));
}

}  // namespace

std::string format_row(const ResultRow& r) {
  return std::to_string(r.config) + "," + quoted(r.spec) + "," + quoted(r.trace) + "," +
         number(r.avg_wait_min) + "," + number(r.avg_bsld) + "," + number(r.sim_seconds) + "," +
         number(r.cpu_seconds) + "," + std::to_string(r.simulated_as);
}

ResultsContent read_results(const std::string& path) {
  ResultsContent content;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (access(path.c_str(), F_OK) != 0 && errno == ENOENT) return content;
    fail_errno("cannot read", path);
  }
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) content.file.emplace(st.st_dev, st.st_ino);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  std::size_t pos = 0;
  int line_number = 0;
  while (pos < text.size()) {
    const std::size_t nl = text.find('\n', pos);
    ++line_number;
    if (nl == std::string::npos) {
      // An interrupted write: the last line never got its newline.
      content.truncated_tail = true;
      break;
    }
    const std::string line = text.substr(pos, nl - pos);
    const std::string where = path + ":" + std::to_string(line_number) + ": ";
    if (line_number == 1) {
      if (line != kResultsHeader) {
        throw std::runtime_error(where + "expected the header '" + std::string(kResultsHeader) +
                                 "'");
      }
    } else {
      try {
        content.rows.push_back(parse_row(line));
      } catch (const std::invalid_argument& e) {
        throw std::runtime_error(where + e.what());
      }
    }
    pos = nl + 1;
    content.complete_bytes = pos;
  }
  return content;
}

ResultsWriter::ResultsWriter(const std::string& path, std::uint64_t complete_bytes)
    : path_(path), lock_(path, O_WRONLY | O_CREAT) {
  start(complete_bytes);
}

void ResultsWriter::start(std::uint64_t complete_bytes) {
  const int fd = lock_.fd();
  if (ftruncate(fd, static_cast<off_t>(complete_bytes)) != 0) fail_errno("cannot truncate", path_);
  if (lseek(fd, 0, SEEK_END) < 0) fail_errno("cannot seek", path_);
  if (complete_bytes == 0) {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::string header = std::string(kResultsHeader) + "\n";
    if (write(fd, header.data(), header.size()) != static_cast<ssize_t>(header.size())) {
      fail_errno("cannot write", path_);
    }
  }
}

namespace {
// Throws unless the file `fd` locks is the one `read` read (or, none read, an empty one).
std::uint64_t checked_bytes(const std::string& path, int fd, const ResultsContent& read) {
  struct stat st;
  if (::fstat(fd, &st) != 0) fail_errno("cannot stat", path);
  const bool same = read.file ? read.file == std::make_pair(static_cast<std::uint64_t>(st.st_dev),
                                                             static_cast<std::uint64_t>(st.st_ino))
                              : st.st_size == 0;
  if (!same)
    throw std::runtime_error(path + ": replaced while it was read (an easypp-sweep merge?); run again");
  return read.complete_bytes;
}
}  // namespace

ResultsWriter::ResultsWriter(const std::string& path, const ResultsContent& read)
    : path_(path), lock_(path, O_WRONLY | O_CREAT) {
  start(checked_bytes(path, lock_.fd(), read));
}

void ResultsWriter::append(const std::vector<ResultRow>& rows) {
  std::string text;
  for (const ResultRow& r : rows) text += format_row(r) + "\n";
  std::lock_guard<std::mutex> lock(mutex_);
  // Line by line: an interruption leaves at most one truncated line at the end.
  std::size_t off = 0;
  while (off < text.size()) {
    const std::size_t nl = text.find('\n', off) + 1;
    std::size_t done = off;
    while (done < nl) {
      const ssize_t w = write(lock_.fd(), text.data() + done, nl - done);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) fail_errno("cannot write", path_);
      done += static_cast<std::size_t>(w);
    }
    off = nl;
  }
}

bool read_settings(const std::string& path, SweepSettings& out) {
  std::ifstream in(path);
  if (!in) return false;
  out = SweepSettings();
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    if (line.empty() || line[0] == '#') continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos) throw std::runtime_error(where + "expected key=value");
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key == "policy") {
      out.policy = value;
    } else if (key == "max_jobs_per_trace") {
      if (!to_size(value, out.max_jobs_per_trace))
        throw std::runtime_error(where + "max_jobs_per_trace=" + value + ": not a number");
    } else if (key == "trace") {
      // trace=LABEL|FILE|PROCS|JOBS
      std::vector<std::string> f;
      std::stringstream ss(value);
      for (std::string item; std::getline(ss, item, '|');) f.push_back(item);
      SweepSettings::Trace t;
      std::size_t procs = 0;
      if (f.size() != 4 || f[0].empty() || !to_size(f[2], procs) || !to_size(f[3], t.jobs)) {
        throw std::runtime_error(where + "trace=" + value + ": expected LABEL|FILE|PROCS|JOBS");
      }
      t.label = f[0];
      t.file = f[1];
      t.procs = static_cast<int>(procs);
      out.traces.push_back(t);
    } else {
      throw std::runtime_error(where + "unknown key " + key);
    }
  }
  return true;
}

void write_settings(const std::string& path, const SweepSettings& s) {
  std::ostringstream out;
  out << "# easypp-sweep: the settings of results.csv in this directory; a resume must match\n"
      << "policy=" << s.policy << "\n"
      << "max_jobs_per_trace=" << s.max_jobs_per_trace << "\n";
  for (const auto& t : s.traces) {
    out << "trace=" << t.label << "|" << t.file << "|" << t.procs << "|" << t.jobs << "\n";
  }
  cli::write_whole_file(path, out.str());
}

std::string settings_conflict(const SweepSettings& before, const SweepSettings& now) {
  if (before.policy != now.policy) return "policy: " + before.policy + " -> " + now.policy;
  if (before.max_jobs_per_trace != now.max_jobs_per_trace) {
    return "max_jobs_per_trace: " + std::to_string(before.max_jobs_per_trace) + " -> " +
           std::to_string(now.max_jobs_per_trace);
  }
  for (const auto& b : before.traces) {
    for (const auto& n : now.traces) {
      if (b.label == n.label && !(b == n)) {
        return "trace " + b.label + ": " + b.file + " procs=" + std::to_string(b.procs) +
               " jobs=" + std::to_string(b.jobs) + " -> " + n.file + " procs=" +
               std::to_string(n.procs) + " jobs=" + std::to_string(n.jobs);
      }
    }
  }
  return {};
}

}  // namespace easypp::sweep
