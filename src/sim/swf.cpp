// SWF reader: zlib reads plain and gzip files alike (gzread passes plain bytes through),
// so one code path serves both.
#include "sim/swf.h"

#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cerrno>
#include <cstring>
#include <string_view>

namespace easypp::swf {
namespace {

constexpr int kFields = 18;

const char* const kFieldNames[kFields] = {
    "job number",      "submit time",      "wait time",      "run time",
    "allocated procs", "average cpu time", "used memory",    "requested procs",
    "requested time",  "requested memory", "status",         "user id",
    "group id",        "executable",       "queue",          "partition",
    "preceding job",   "think time"};

std::string whole_file(const std::string& path) {
  gzFile in = gzopen(path.c_str(), "rb");
  if (in == nullptr) {
    throw ParseError(path + ":0: cannot open: " + std::strerror(errno));
  }
  gzbuffer(in, 1 << 17);
  std::string text;
  char chunk[1 << 16];
  for (;;) {
    int n = gzread(in, chunk, sizeof chunk);
    if (n < 0) {
      int code = 0;
      std::string why = gzerror(in, &code);
      gzclose(in);
      throw ParseError(path + ":0: read error: " + why);
    }
    if (n == 0) break;
    text.append(chunk, static_cast<size_t>(n));
  }
  // A gzip stream cut short reads as a shorter file: gzread just returns 0. zlib reports
  // it in gzerror (Z_BUF_ERROR) and gzclose, and a trace missing its end must not pass
  // for a complete one.
  int code = Z_OK;
  std::string why = gzerror(in, &code);
  const int closed = gzclose(in);
  if (code != Z_OK || closed == Z_BUF_ERROR) {
    if (code == Z_OK) {
      why = "unexpected end of file";
    } else if (why.rfind(path + ": ", 0) == 0) {
      why = why.substr(path.size() + 2);  // zlib's message names the file too
    }
    throw ParseError(path + ":0: read error: " + why + " (truncated or corrupt gzip)");
  }
  return text;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// Splits on blanks into at most `max` tokens; returns how many there really were.
int split(std::string_view line, std::string_view* out, int max) {
  int n = 0;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    if (i >= line.size()) break;
    size_t j = i;
    while (j < line.size() && !is_space(line[j])) ++j;
    if (n < max) out[n] = line.substr(i, j - i);
    ++n;
    i = j;
  }
  return n;
}

// Most fields are integers; a few logs write some as decimals ("123.0"), which we accept.
bool parse_number(std::string_view token, double& value) {
  const char* first = token.data();
  const char* last = token.data() + token.size();
  if (first != last && *first == '+') ++first;
  std::int64_t whole = 0;
  auto [end, ec] = std::from_chars(first, last, whole);
  if (ec == std::errc() && end == last) {
    value = static_cast<double>(whole);
    return true;
  }
  auto [dend, dec] = std::from_chars(first, last, value);
  return dec == std::errc() && dend == last && std::isfinite(value);
}

std::string where(const std::string& path, int line) {
  return path + ":" + std::to_string(line) + ": ";
}

// Throws a ParseError describing why the record line is malformed.
Record parse_record(std::string_view line, const std::string& path, int line_no) {
  std::string_view tokens[kFields];
  int n = split(line, tokens, kFields);
  if (n != kFields) {
    throw ParseError(where(path, line_no) + "expected " + std::to_string(kFields) +
                     " fields, found " + std::to_string(n));
  }
  double v[kFields];
  for (int f = 0; f < kFields; ++f) {
    if (!parse_number(tokens[f], v[f])) {
      throw ParseError(where(path, line_no) + "field " + std::to_string(f + 1) + " (" +
                       kFieldNames[f] + ") is not a number: '" + std::string(tokens[f]) +
                       "'");
    }
  }
  // Each field in the range its kind can hold: a time within 2^40 s (about 35,000
  // years; sums and shifts of times cannot overflow), a count in an int, an id exact in a
  // double (below 2^53: an id above it may have been rounded on reading). Memory fields (6,
  // 7, 10) are any finite number. -1 (unknown) passes.
  constexpr double kMaxTime = 1099511627776.0, kMaxCount = 2147483647.0, kMaxId = 9007199254740991.0;
  const double limits[kFields] = {kMaxId,   kMaxTime, kMaxTime, kMaxTime,  kMaxCount, HUGE_VAL,
                                  HUGE_VAL, kMaxCount, kMaxTime, HUGE_VAL, kMaxCount, kMaxId,
                                  kMaxId,   kMaxId,   kMaxCount, kMaxCount, kMaxId,   kMaxTime};
  for (int f = 0; f < kFields; ++f) {
    if (std::fabs(v[f]) > limits[f]) {
      throw ParseError(where(path, line_no) + "field " + std::to_string(f + 1) + " (" + kFieldNames[f] +
                       ") = " + std::string(tokens[f]) + ": out of range (at most " +
                       std::to_string(static_cast<std::int64_t>(limits[f])) + " in magnitude)");
    }
  }
  auto as_time = [](double x) { return static_cast<Time>(std::llround(x)); };
  auto as_int = [](double x) { return static_cast<int>(std::llround(x)); };
  auto as_i64 = [](double x) { return static_cast<std::int64_t>(std::llround(x)); };
  Record r;
  r.job_number = as_i64(v[0]);
  r.submit = as_time(v[1]);
  r.wait = as_time(v[2]);
  r.runtime = as_time(v[3]);
  r.allocated_procs = as_int(v[4]);
  r.avg_cpu = v[5];
  r.used_memory = v[6];
  r.requested_procs = as_int(v[7]);
  r.requested_time = as_time(v[8]);
  r.requested_memory = v[9];
  r.status = as_int(v[10]);
  r.user = as_i64(v[11]);
  r.group = as_i64(v[12]);
  r.executable = as_i64(v[13]);
  r.queue = as_int(v[14]);
  r.partition = as_int(v[15]);
  r.preceding_job = as_i64(v[16]);
  r.think_time = as_time(v[17]);
  r.line = line_no;
  return r;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// "; Key: value" comment lines. Only the keys the simulator uses are interpreted;
// values may carry notes after the number ("1664 (72, 1368, 224)"). Header lines are
// free-form comments, so a value that is not a number ("N/A") leaves its field unset
// with a note in `notes`, rather than failing a run that may not need it (--procs).
void parse_header_line(std::string_view comment, Header& header,
                       std::vector<std::string>& notes, const std::string& path, int line_no) {
  comment = trim(comment);
  size_t colon = comment.find(':');
  if (colon == std::string_view::npos) return;
  std::string_view key = trim(comment.substr(0, colon));
  std::string_view value = trim(comment.substr(colon + 1));
  auto first_number = [&](std::int64_t& out) {
    std::int64_t x = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), x);
    if (ec != std::errc()) {
      notes.push_back(where(path, line_no) + std::string(key) + " is not a number: '" +
                      std::string(value) + "': left unset");
      return false;
    }
    out = x;
    return true;
  };
  std::int64_t x = 0;
  // A size: 0 or less means unknown (left unset); more than an int holds is an error.
  auto size = [&](const char* name, int& out) {
    if (!first_number(x)) return;
    if (x > 2147483647) {
      throw ParseError(where(path, line_no) + name + ": " + std::to_string(x) + ": out of range (at most 2147483647)");
    }
    if (x > 0) out = static_cast<int>(x);
  };
  if (key == "MaxProcs") {
    size("MaxProcs", header.max_procs);
  } else if (key == "MaxNodes") {
    size("MaxNodes", header.max_nodes);
  } else if (key == "UnixStartTime") {
    if (first_number(x)) header.unix_start_time = x;
  } else if (key == "Acknowledge") {
    header.acknowledge.emplace_back(value);
  }
}

}  // namespace

Trace read(const std::string& path, const ReadOptions& options) {
  Trace trace;
  trace.path = path;
  const std::string text = whole_file(path);
  std::string_view rest(text);
  int line_no = 0;
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    ++line_no;
    std::string_view body = trim(line);
    if (body.empty()) continue;
    try {
      if (body.front() == ';') {
        parse_header_line(body.substr(1), trace.header, trace.notes, path, line_no);
        continue;
      }
      trace.records.push_back(parse_record(body, path, line_no));
    } catch (const ParseError& e) {
      if (!options.skip_bad) throw;
      ++trace.skipped_lines;
      if (trace.skipped_reasons.size() < Trace::kSkippedReasons)
        trace.skipped_reasons.emplace_back(e.what());
    }
  }
  for (size_t i = 1; i < trace.records.size(); ++i) {
    if (trace.records[i].submit < trace.records[i - 1].submit) {
      trace.was_unsorted = true;
      break;
    }
  }
  if (trace.was_unsorted) {
    std::stable_sort(trace.records.begin(), trace.records.end(),
                     [](const Record& a, const Record& b) { return a.submit < b.submit; });
  }
  return trace;
}

}  // namespace easypp::swf
