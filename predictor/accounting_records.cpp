// Parsers for Slurm's accounting outputs: jobcomp/filetxt lines and sacct --parsable2.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <string_view>
#include <vector>

#include "easypp/predictor.h"
#include "error_buffer.h"

namespace easypp::predictor {
namespace {

enum class Parse { Ok, Skip, Bad };

bool parse_u64(std::string_view s, std::uint64_t& out) {
  if (s.empty() || s.size() > 19) return false;
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  out = v;
  return true;
}

// "YYYY-MM-DDTHH:MM:SS" in local time (as Slurm prints it). "Unknown"/"None" -> 0.
Parse parse_time(std::string_view s, std::int64_t& out) {
  if (s == "Unknown" || s == "None" || s == "unknown" || s.empty()) {
    out = 0;
    return Parse::Skip;
  }
  std::tm tm{};
  std::string text(s);
  const char* end = strptime(text.c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
  if (end == nullptr || *end != '\0') return Parse::Bad;
  tm.tm_isdst = -1;
  std::time_t t = std::mktime(&tm);
  if (t == static_cast<std::time_t>(-1)) return Parse::Bad;
  out = t;
  return Parse::Ok;
}

// A Slurm job state name to an end state; Skip for states that are not an end.
Parse parse_state(std::string_view s, int& out) {
  auto space = s.find(' ');  // "CANCELLED by 0"
  s = s.substr(0, space);
  if (s == "COMPLETED") out = EPP_END_COMPLETED;
  else if (s == "TIMEOUT") out = EPP_END_TIMEOUT;
  else if (s == "FAILED" || s == "NODE_FAIL" || s == "BOOT_FAIL" || s == "OUT_OF_MEMORY") out = EPP_END_FAILED;
  else if (s == "CANCELLED" || s == "PREEMPTED" || s == "DEADLINE") out = EPP_END_CANCELLED;
  else if (s == "PENDING" || s == "RUNNING" || s == "SUSPENDED" || s == "REQUEUED" || s == "RESIZING" ||
           s == "REVOKED" || s == "REQUEUE_FED" || s == "REQUEUE_HOLD" || s == "SPECIAL_EXIT" || s == "COMPLETING" ||
           s == "STAGE_OUT" || s == "CONFIGURING" || s == "STOPPED" || s == "RESV_DEL_HOLD" || s == "SIGNALING")
    return Parse::Skip;  // every other name job_state_string() gives in 22.05: not an end
  else
    return Parse::Bad;
  return Parse::Ok;
}

// Time limit in minutes; UNLIMITED / Partition_Limit give no estimate, so Skip.
Parse parse_limit(std::string_view s, std::int64_t& seconds) {
  std::uint64_t minutes = 0;
  if (s == "UNLIMITED" || s == "Partition_Limit" || s == "NONE") return Parse::Skip;
  if (!parse_u64(s, minutes) || minutes == 0 || minutes > 100000000ULL) return Parse::Bad;
  seconds = static_cast<std::int64_t>(minutes) * 60;
  return Parse::Ok;
}

int fail(char* err, std::size_t errlen, std::string_view key, std::string_view value, const char* why) {
  set_error(err, errlen, std::string(key) + "=" + std::string(value) + ": " + why);
  return -1;
}

// Fills start/end/runtime; 0 if the job never ran.
int finish(epp_record* out, const char* start_key, std::string_view start_s, const char* end_key,
           std::string_view end_s, char* err, std::size_t errlen) {
  Parse ps = parse_time(start_s, out->start);
  if (ps == Parse::Bad) return fail(err, errlen, start_key, start_s, "expected YYYY-MM-DDTHH:MM:SS");
  Parse pe = parse_time(end_s, out->end);
  if (pe == Parse::Bad) return fail(err, errlen, end_key, end_s, "expected YYYY-MM-DDTHH:MM:SS");
  if (ps == Parse::Skip || pe == Parse::Skip || out->start <= 0) return 0;  // never started / still running
  if (out->end < out->start) return fail(err, errlen, end_key, end_s, "before the start time");
  out->job.runtime = out->end - out->start;
  return 1;
}

// Value of " Key=" searched from `from`; the value ends at the next space.
bool jobcomp_value(std::string_view line, std::string_view key, std::size_t& from, std::string_view& value) {
  std::string pattern = " " + std::string(key) + "=";
  std::size_t at = line.find(pattern, from);
  if (at == std::string_view::npos) return false;
  std::size_t begin = at + pattern.size();
  std::size_t end = line.find(' ', begin);
  if (end == std::string_view::npos) end = line.size();
  value = line.substr(begin, end - begin);
  from = end;
  return true;
}

// The parse, with any exception (out of memory: the parsers allocate) turned into -1, as
// nothing may leave the library through the C ABI. The message is written without
// allocating.
template <class F>
int guarded(const char* name, char* err, std::size_t errlen, F parse) {
  try {
    return parse();
  } catch (...) {
    if (err != nullptr && errlen > 0) std::snprintf(err, errlen, "%s: failed (out of memory)", name);
  }
  return -1;
}

// -1 says what is wrong in err, like every other -1 (a caller logs err on -1).
int no_line(char* err, std::size_t errlen) {
  set_error(err, errlen, "no line or no record to fill (NULL)");
  return -1;
}

std::string_view trim_newline(std::string_view s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

int parse_jobcomp_line(const char* text, epp_record* out, char* err, size_t errlen) {
  if (text == nullptr || out == nullptr) return no_line(err, errlen);
  std::string_view line = trim_newline(text);
  if (line.find_first_not_of(" \t") == std::string_view::npos) return 0;
  *out = epp_record{};
  out->job.runtime = -1;
  if (line.substr(0, 6) != "JobId=") return fail(err, errlen, "line", line.substr(0, 20), "does not start with JobId=");
  // Keys in the order Slurm 22.05 writes them; searching in order keeps a job name
  // containing spaces from confusing the fields after it.
  std::string padded = " " + std::string(line);
  std::string_view l(padded);
  std::size_t pos = 0;
  std::string_view job_id, user, state, limit, start, end, procs, submit;
  struct Want {
    const char* key;
    std::string_view* value;
  } wants[] = {{"JobId", &job_id},     {"UserId", &user}, {"JobState", &state},
               {"TimeLimit", &limit},  {"StartTime", &start}, {"EndTime", &end},
               {"ProcCnt", &procs}};
  for (auto& w : wants)
    if (!jobcomp_value(l, w.key, pos, *w.value)) {
      set_error(err, errlen, std::string(w.key) + ": missing (not a jobcomp/filetxt line?)");
      return -1;
    }
  bool have_submit = jobcomp_value(l, "SubmitTime", pos, submit);

  if (!parse_u64(job_id, out->job.job_id)) return fail(err, errlen, "JobId", job_id, "expected a number");
  // UserId=name(uid), or a bare uid when the name could not be resolved.
  std::string_view uid = user;
  auto open = user.rfind('(');
  if (open != std::string_view::npos && user.back() == ')') uid = user.substr(open + 1, user.size() - open - 2);
  std::uint64_t uid_value = 0;
  if (!parse_u64(uid, uid_value) || uid_value > 0xffffffffULL)
    return fail(err, errlen, "UserId", user, "expected name(uid)");
  out->job.user_id = static_cast<std::uint32_t>(uid_value);
  std::uint64_t p = 0;
  if (!parse_u64(procs, p) || p > 0x7fffffffULL) return fail(err, errlen, "ProcCnt", procs, "expected a number");
  out->job.procs = static_cast<std::int32_t>(p);

  Parse r = parse_state(state, out->end_state);
  if (r == Parse::Bad) return fail(err, errlen, "JobState", state, "unknown job state");
  if (r == Parse::Skip) return 0;
  r = parse_limit(limit, out->job.estimate);
  if (r == Parse::Bad) return fail(err, errlen, "TimeLimit", limit, "expected minutes or UNLIMITED");
  if (r == Parse::Skip) return 0;
  if (have_submit && parse_time(submit, out->job.submit) == Parse::Bad)
    return fail(err, errlen, "SubmitTime", submit, "expected YYYY-MM-DDTHH:MM:SS");
  return finish(out, "StartTime", start, "EndTime", end, err, errlen);
}

int parse_sacct_line(const char* text, epp_record* out, char* err, size_t errlen) {
  if (text == nullptr || out == nullptr) return no_line(err, errlen);
  std::string_view line = trim_newline(text);
  if (line.find_first_not_of(" \t") == std::string_view::npos) return 0;
  *out = epp_record{};
  out->job.runtime = -1;
  // JobIDRaw|User|UID|Submit|Start|End|TimelimitRaw|NCPUS|State|Partition|JobName; the
  // name is last and may itself contain '|'.
  std::vector<std::string_view> f;
  std::size_t begin = 0;
  while (f.size() < 10) {
    std::size_t bar = line.find('|', begin);
    if (bar == std::string_view::npos) break;
    f.push_back(line.substr(begin, bar - begin));
    begin = bar + 1;
  }
  f.push_back(line.substr(begin));
  if (f.size() != 11) {
    set_error(err, errlen,
              "fields=" + std::to_string(f.size()) +
                  ": expected 11 '|'-separated fields "
                  "(JobIDRaw,User,UID,Submit,Start,End,TimelimitRaw,NCPUS,State,Partition,JobName)");
    return -1;
  }
  if (f[0].find('.') != std::string_view::npos) return 0;  // a step: 123.batch, 123.0, 123.extern
  if (!parse_u64(f[0], out->job.job_id)) return fail(err, errlen, "JobIDRaw", f[0], "expected a number");
  std::uint64_t uid = 0;
  if (!parse_u64(f[2], uid) || uid > 0xffffffffULL) return fail(err, errlen, "UID", f[2], "expected a numeric uid");
  out->job.user_id = static_cast<std::uint32_t>(uid);
  std::uint64_t ncpus = 0;
  if (!parse_u64(f[7], ncpus) || ncpus > 0x7fffffffULL) return fail(err, errlen, "NCPUS", f[7], "expected a number");
  out->job.procs = static_cast<std::int32_t>(ncpus);
  Parse r = parse_state(f[8], out->end_state);
  if (r == Parse::Bad) return fail(err, errlen, "State", f[8], "unknown job state");
  if (r == Parse::Skip) return 0;
  r = parse_limit(f[6], out->job.estimate);
  if (r == Parse::Bad) return fail(err, errlen, "TimelimitRaw", f[6], "expected minutes or UNLIMITED");
  if (r == Parse::Skip) return 0;
  if (parse_time(f[3], out->job.submit) == Parse::Bad)
    return fail(err, errlen, "Submit", f[3], "expected YYYY-MM-DDTHH:MM:SS");
  return finish(out, "Start", f[4], "End", f[5], err, errlen);
}

}  // namespace
}  // namespace easypp::predictor

using namespace easypp::predictor;

extern "C" {

int epp_parse_jobcomp_line(const char* text, epp_record* out, char* err, size_t errlen) {
  return guarded("epp_parse_jobcomp_line", err, errlen, [&] { return parse_jobcomp_line(text, out, err, errlen); });
}

int epp_parse_sacct_line(const char* text, epp_record* out, char* err, size_t errlen) {
  return guarded("epp_parse_sacct_line", err, errlen, [&] { return parse_sacct_line(text, out, err, errlen); });
}

int epp_learn_record(epp_predictor* p, const epp_record* r) {
  if (r == nullptr) return 0;
  return epp_learn(p, &r->job, r->start, r->end, r->end_state);
}

}  // extern "C"
