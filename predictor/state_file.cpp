#include "state_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <jansson.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <ctime>
#include <memory>
#include <vector>

namespace easypp::predictor {
namespace {

constexpr const char* kFormat = "easypp-predictor-state";

struct JsonDeleter {
  void operator()(json_t* j) const { json_decref(j); }
};
using Json = std::unique_ptr<json_t, JsonDeleter>;

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

std::string sys_error(const std::string& path, const char* what) {
  return path + ": " + what + ": " + std::strerror(errno);
}

std::string directory_of(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string owner_mismatch(const std::string& path, uid_t owner) {
  return path + ": owned by uid " + std::to_string(owner) + ", not by uid " + std::to_string(::geteuid()) +
         " (this process)";
}

// Temporary files of saves killed before their rename: BASE.tmp-XXXXXX, regular, ours,
// untouched for kStaleTemporarySeconds (a save in progress elsewhere is never that old).
void remove_stale_temporaries(const std::string& path) {
  const std::string dir = directory_of(path);
  const std::string prefix = base_of(path) + ".tmp-";
  std::unique_ptr<DIR, int (*)(DIR*)> d(::opendir(dir.c_str()), &::closedir);
  if (!d) return;
  const std::time_t now = std::time(nullptr);
  while (const dirent* e = ::readdir(d.get())) {
    std::string_view name(e->d_name);
    if (name.size() != prefix.size() + 6 || name.substr(0, prefix.size()) != prefix) continue;
    struct stat st;
    if (::fstatat(::dirfd(d.get()), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (!S_ISREG(st.st_mode) || st.st_uid != ::geteuid() || now - st.st_mtime < kStaleTemporarySeconds) continue;
    ::unlinkat(::dirfd(d.get()), e->d_name, 0);
  }
}

// Job ids are uint64, JSON integers here int64: an id of 2^63 or more is written as its
// two's complement (negative) and read back from it, so every id round-trips.
json_t* run_array(const Run& r) {
  return json_pack("[IIIII]", static_cast<json_int_t>(r.job_id), static_cast<json_int_t>(r.submit),
                   static_cast<json_int_t>(r.end), static_cast<json_int_t>(r.estimate),
                   static_cast<json_int_t>(r.runtime));
}

// What the weights mean: the same target and features (a model saved under others is
// not reused).
std::string model_shape(const LearnedSpec& spec) {
  return std::string("target=") + (spec.target == Target::Log ? "log" : "seconds") +
         ",features=" + feature_groups_name(spec.features);
}

// JSON cannot hold inf/NaN; a model never produces them, a zero is the safe stand-in.
json_t* number_array(const FeatureVector& v) {
  json_t* a = json_array();
  for (double x : v) json_array_append_new(a, json_real(std::isfinite(x) ? x : 0.0));
  return a;
}

// "learned": {"shape", "steps", "n_sum", "w", "s", "g", "pending": [[uid, job_id, submit, procs, x...]]}
json_t* learned_to_json(const RuntimeModel& model) {
  const OnlineRegression::State& st = model.learner()->state();
  json_t* pending = json_array();
  model.for_each_pending([&](std::uint32_t uid, const PendingJobs& jobs) {
    for (const PendingJob& p : jobs.jobs()) {
      json_t* row = json_pack("[IIII]", static_cast<json_int_t>(uid), static_cast<json_int_t>(p.job_id),
                              static_cast<json_int_t>(p.submit), static_cast<json_int_t>(p.procs));
      for (double x : p.x) json_array_append_new(row, json_real(std::isfinite(x) ? x : 0.0));
      json_array_append_new(pending, row);
    }
  });
  return json_pack("{s:s,s:I,s:f,s:o,s:o,s:o,s:o}", "shape", model_shape(model.spec().learned).c_str(), "steps",
                   static_cast<json_int_t>(st.steps), "n_sum", std::isfinite(st.n_sum) ? st.n_sum : 0.0, "w",
                   number_array(st.w), "s", number_array(st.s), "g", number_array(st.g), "pending", pending);
}

// kFeatures finite numbers (>= 0 if non_negative) from j into v.
bool parse_vector(json_t* j, FeatureVector& v, bool non_negative) {
  if (!json_is_array(j) || json_array_size(j) != kFeatures) return false;
  for (std::size_t i = 0; i < kFeatures; ++i) {
    json_t* x = json_array_get(j, i);
    if (!json_is_number(x)) return false;
    v[i] = json_number_value(x);
    if (!std::isfinite(v[i]) || (non_negative && v[i] < 0)) return false;
  }
  return true;
}

// Restores the learned model from `j` (the "learned" object); false with `why` on bad input.
// A model of another shape (target or features changed) is left fresh, not an error.
bool learned_from_json(json_t* j, RuntimeModel& model, std::string& why) {
  if (!json_is_object(j)) {
    why = "learned: expected an object";
    return false;
  }
  json_t* shape = json_object_get(j, "shape");
  if (!json_is_string(shape)) {
    why = "learned.shape: expected a string";
    return false;
  }
  if (model_shape(model.spec().learned) != json_string_value(shape)) return true;
  OnlineRegression::State st;
  json_t* steps = json_object_get(j, "steps");
  json_t* n_sum = json_object_get(j, "n_sum");
  if (!json_is_integer(steps) || json_integer_value(steps) < 0) {
    why = "learned.steps: expected an integer >= 0";
    return false;
  }
  if (!json_is_number(n_sum) || !std::isfinite(json_number_value(n_sum)) || json_number_value(n_sum) < 0) {
    why = "learned.n_sum: expected a number >= 0";
    return false;
  }
  st.steps = static_cast<std::uint64_t>(json_integer_value(steps));
  st.n_sum = json_number_value(n_sum);
  const struct {
    const char* name;
    FeatureVector* v;
    bool non_negative;
  } vectors[] = {{"w", &st.w, false}, {"s", &st.s, true}, {"g", &st.g, true}};
  for (const auto& f : vectors)
    if (!parse_vector(json_object_get(j, f.name), *f.v, f.non_negative)) {
      why = std::string("learned.") + f.name + ": expected " + std::to_string(kFeatures) + " finite numbers" +
            (f.non_negative ? " >= 0" : "");
      return false;
    }
  json_t* pending = json_object_get(j, "pending");
  if (!json_is_array(pending)) {
    why = "learned.pending: expected an array";
    return false;
  }
  for (std::size_t i = 0; i < json_array_size(pending); ++i) {
    json_t* row = json_array_get(pending, i);
    const std::string at = "learned.pending[" + std::to_string(i) + "]";
    json_int_t head[4];
    bool ok = json_is_array(row) && json_array_size(row) == 4 + kFeatures;
    for (std::size_t k = 0; ok && k < 4; ++k) {
      json_t* v = json_array_get(row, k);
      ok = json_is_integer(v);
      if (ok) head[k] = json_integer_value(v);
    }
    // procs: any int32 (older libraries kept an SWF -1 as it was), read as at least 1.
    ok = ok && head[0] >= 0 && head[0] <= 0xffffffffLL && head[1] != 0 && head[3] >= -0x80000000LL &&
         head[3] <= 0x7fffffffLL;
    PendingJob job;
    for (std::size_t k = 0; ok && k < kFeatures; ++k) {
      json_t* v = json_array_get(row, 4 + k);
      ok = json_is_number(v) && std::isfinite(json_number_value(v));
      if (ok) job.x[k] = json_number_value(v);
    }
    if (!ok) {
      why = at + ": expected [uid, job_id != 0, submit, procs, " + std::to_string(kFeatures) + " features]";
      return false;
    }
    job.job_id = static_cast<std::uint64_t>(head[1]);
    job.submit = head[2];
    job.procs = std::max<std::int32_t>(1, static_cast<std::int32_t>(head[3]));
    model.restore_pending(static_cast<std::uint32_t>(head[0]), job);
  }
  model.learner()->restore(st);
  return true;
}

Json to_json(const RuntimeModel& model) {
  Json users(json_array());
  model.for_each_history([&](std::uint32_t uid, const UserHistory& h) {
    json_t* recent = json_array();
    for (std::size_t i = 0; i < h.recent.size(); ++i) json_array_append_new(recent, run_array(h.recent.at(i)));
    json_t* seen = json_array();
    for (std::size_t i = 0; i < h.seen.size(); ++i)
      json_array_append_new(seen, json_pack("[II]", static_cast<json_int_t>(h.seen.id_at(i)),
                                            static_cast<json_int_t>(h.seen.end_at(i))));
    json_t* user = json_pack("{s:I,s:f,s:I,s:o,s:o}", "uid", static_cast<json_int_t>(uid), "accuracy_sum",
                             h.accuracy_sum, "accuracy_count", static_cast<json_int_t>(h.accuracy_count), "seen",
                             seen, "recent", recent);
    if (!h.by_estimate.empty()) {
      // Least recently learnt estimate first: the load restores them in this order, so
      // the one dropped next is the same as without a restart.
      std::vector<const UserHistory::EstimateRuns*> order;
      for (const auto& e : h.by_estimate) order.push_back(&e);
      std::sort(order.begin(), order.end(), [](const auto* a, const auto* b) { return a->last_used < b->last_used; });
      json_t* table = json_array();
      for (const auto* e : order)
        for (std::size_t i = 0; i < e->runs.size(); ++i) json_array_append_new(table, run_array(e->runs.at(i)));
      json_object_set_new(user, "by_estimate", table);
    }
    json_array_append_new(users.get(), user);
  });
  Json doc(json_pack("{s:s,s:i,s:s,s:o}", "format", kFormat, "schema", model.learner() ? kStateSchema : 1, "spec",
                     model.spec_text().c_str(), "users", users.release()));
  if (doc && model.learner()) json_object_set_new(doc.get(), "learned", learned_to_json(model));
  return doc;
}

bool write_all(int fd, const char* data, std::size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

// Reads a [job_id, submit, end, estimate, runtime] array; false with `why` on bad input.
bool parse_run(json_t* j, Run& run, std::string& why) {
  json_int_t v[5];
  if (!json_is_array(j) || json_array_size(j) != 5) {
    why = "expected [job_id, submit, end, estimate, runtime]";
    return false;
  }
  for (std::size_t i = 0; i < 5; ++i) {
    json_t* x = json_array_get(j, i);
    if (!json_is_integer(x)) {
      why = "element " + std::to_string(i) + " is not an integer";
      return false;
    }
    v[i] = json_integer_value(x);
  }
  if (v[4] < 0 || v[4] > kMaxRuntime) {
    why = "runtime must be 0-" + std::to_string(kMaxRuntime);
    return false;
  }
  run = Run{static_cast<std::uint64_t>(v[0]), v[1], v[2], v[3], v[4]};
  return true;
}

// Fills `model` from the document; false with `why` naming the place on bad input.
bool from_json(json_t* root, RuntimeModel& model, std::string& why) {
  json_t* format = json_object_get(root, "format");
  if (!json_is_string(format) || std::strcmp(json_string_value(format), kFormat) != 0) {
    why = std::string("format: expected \"") + kFormat + "\"";
    return false;
  }
  json_t* schema = json_object_get(root, "schema");
  if (!json_is_integer(schema) || json_integer_value(schema) < kOldestStateSchema ||
      json_integer_value(schema) > kStateSchema) {
    why = "schema=" + (json_is_integer(schema) ? std::to_string(json_integer_value(schema)) : std::string("missing")) +
          ": unsupported schema version (this library reads " + std::to_string(kOldestStateSchema) + "-" +
          std::to_string(kStateSchema) + ")";
    return false;
  }
  json_t* users = json_object_get(root, "users");
  if (!json_is_array(users)) {
    why = "users: expected an array";
    return false;
  }
  const bool extended = model.spec().kind == Kind::History && model.spec().type == WindowType::Extended;
  for (std::size_t u = 0; u < json_array_size(users); ++u) {
    json_t* user = json_array_get(users, u);
    std::string at = "users[" + std::to_string(u) + "]";
    json_t* uid = json_object_get(user, "uid");
    json_t* acc_sum = json_object_get(user, "accuracy_sum");
    json_t* acc_count = json_object_get(user, "accuracy_count");
    json_t* seen = json_object_get(user, "seen");
    json_t* recent = json_object_get(user, "recent");
    if (!json_is_integer(uid) || json_integer_value(uid) < 0 || json_integer_value(uid) > 0xffffffffLL) {
      why = at + ".uid: expected an integer 0-4294967295";
      return false;
    }
    // Each term is runtime/estimate <= kMaxRuntime (estimate >= 1): a larger sum was never
    // learnt, and would make fallback=relative's products absurd.
    if (!json_is_number(acc_sum) || !json_is_integer(acc_count) || json_integer_value(acc_count) < 0 ||
        !(json_number_value(acc_sum) >= 0) ||
        json_number_value(acc_sum) > static_cast<double>(json_integer_value(acc_count)) * static_cast<double>(kMaxRuntime)) {
      why = at + ": accuracy_sum/accuracy_count: expected non-negative numbers, the sum at most count * 2^40";
      return false;
    }
    if (!json_is_array(seen) || !json_is_array(recent)) {
      why = at + ": seen and recent must be arrays";
      return false;
    }
    auto id = static_cast<std::uint32_t>(json_integer_value(uid));
    for (std::size_t i = 0; i < json_array_size(recent); ++i) {
      Run run;
      std::string bad;
      if (!parse_run(json_array_get(recent, i), run, bad)) {
        why = at + ".recent[" + std::to_string(i) + "]: " + bad;
        return false;
      }
      model.restore_recent(id, run);
    }
    for (std::size_t i = 0; i < json_array_size(seen); ++i) {
      json_t* s = json_array_get(seen, i);
      json_t* job = json_array_get(s, 0);
      json_t* end = json_array_get(s, 1);
      if (json_array_size(s) != 2 || !json_is_integer(job) || !json_is_integer(end)) {
        why = at + ".seen[" + std::to_string(i) + "]: expected [job_id, end]";
        return false;
      }
      model.restore_seen(id, static_cast<std::uint64_t>(json_integer_value(job)), json_integer_value(end));
    }
    model.restore_accuracy(id, json_number_value(acc_sum), static_cast<std::uint64_t>(json_integer_value(acc_count)));
    json_t* table = json_object_get(user, "by_estimate");
    if (table != nullptr && !json_is_array(table)) {
      why = at + ".by_estimate: expected an array";
      return false;
    }
    if (!extended) continue;
    if (table == nullptr) {
      model.rebuild_by_estimate(id);  // saved under another window type
      continue;
    }
    for (std::size_t i = 0; i < json_array_size(table); ++i) {
      Run run;
      std::string bad;
      if (!parse_run(json_array_get(table, i), run, bad)) {
        why = at + ".by_estimate[" + std::to_string(i) + "]: " + bad;
        return false;
      }
      model.restore_by_estimate(id, run);
    }
  }
  // Schema 2: the learned model; read only by a learned predictor (others ignore it).
  json_t* learned = json_object_get(root, "learned");
  if (learned != nullptr && model.learner() != nullptr) return learned_from_json(learned, model, why);
  return true;
}

// PATH.corrupt-YYYYmmddTHHMMSS (UTC), with -N appended if that name is taken.
std::string set_aside(const std::string& path, std::string& error) {
  char stamp[32];
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%S", &tm);
  std::string target = path + ".corrupt-" + stamp;
  struct stat st;
  for (int n = 1; ::lstat(target.c_str(), &st) == 0 && n < 100; ++n)
    target = path + ".corrupt-" + stamp + "-" + std::to_string(n);
  if (::rename(path.c_str(), target.c_str()) != 0) {
    error += "; could not set it aside: " + std::string(std::strerror(errno));
    return {};
  }
  return target;
}

}  // namespace

bool save_state(const RuntimeModel& model, const std::string& path, std::string& error) {
  const std::string kept = "; the previous state file is kept";
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode)) {
      error = path + ": is a symlink; refusing to write through it";
      return false;
    }
    if (!S_ISREG(st.st_mode)) {
      error = path + ": exists and is not a regular file";
      return false;
    }
    // Replacing it would hand the owner's file to us (mode 0600): its owner could no
    // longer read it. An admin's mistake or someone else's file; either way not ours.
    if (st.st_uid != ::geteuid()) {
      error = owner_mismatch(path, st.st_uid) + "; refusing to replace it (chown or remove it)";
      return false;
    }
  }
  Json doc = to_json(model);
  if (!doc) {
    error = path + ": could not build the JSON document (out of memory)" + kept;
    return false;
  }
  std::unique_ptr<char, decltype(&std::free)> text(json_dumps(doc.get(), JSON_COMPACT), &std::free);
  if (!text) {
    error = path + ": could not serialise the state (out of memory)" + kept;
    return false;
  }
  std::string tmp = path + ".tmp-XXXXXX";
  std::vector<char> tmpl(tmp.begin(), tmp.end());
  tmpl.push_back('\0');
  Fd fd(::mkostemp(tmpl.data(), O_CLOEXEC));  // O_EXCL, mode 0600: never follows a link
  tmp.assign(tmpl.data());
  if (fd.get() < 0) {
    error = sys_error(path, "cannot create a temporary file beside it") + kept;
    return false;
  }
  bool ok = ::fchmod(fd.get(), 0600) == 0 && write_all(fd.get(), text.get(), std::strlen(text.get())) &&
            write_all(fd.get(), "\n", 1) && ::fsync(fd.get()) == 0;
  if (!ok) {
    error = sys_error(path, "cannot write the new state") + kept;
    ::unlink(tmp.c_str());
    return false;
  }
  if (::close(fd.release()) != 0) {
    error = sys_error(path, "cannot close the new state") + kept;
    ::unlink(tmp.c_str());
    return false;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    error = sys_error(path, "cannot rename the temporary file into place") + kept;
    ::unlink(tmp.c_str());
    return false;
  }
  std::string dir = directory_of(path);
  Fd dirfd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dirfd.get() < 0 || ::fsync(dirfd.get()) != 0) {
    // Past the rename: unlike every other failure, the new file has replaced the old one.
    error = sys_error(dir, "cannot fsync the directory") + "; " + path +
            " is the new state, but a crash may still bring the previous one back";
    return false;
  }
  return true;
}

namespace {

// A newer easypp's document (our format, a schema above ours): its schema, else 0.
json_int_t newer_schema(json_t* root) {
  json_t* format = json_object_get(root, "format");
  json_t* schema = json_object_get(root, "schema");
  if (json_is_string(format) && std::strcmp(json_string_value(format), kFormat) == 0 && json_is_integer(schema) &&
      json_integer_value(schema) > kStateSchema)
    return json_integer_value(schema);
  return 0;
}

// Reads the rest of fd into text; false (errno set) on a read error.
bool read_all(int fd, std::string& text) {
  char buf[65536];
  while (true) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (n == 0) return true;
    text.append(buf, static_cast<std::size_t>(n));
  }
}

}  // namespace

ParseOutcome parse_state(std::string_view text, RuntimeModel& model, std::string& why, std::string& where) {
  json_error_t jerr;
  Json root(json_loadb(text.data(), text.size(), 0, &jerr));
  where.clear();
  if (!root) {
    why = "not valid JSON (" + std::string(jerr.text) + ")";
    where = ":" + std::to_string(jerr.line) + ":" + std::to_string(jerr.column);
    return ParseOutcome::Corrupt;
  }
  if (!json_is_object(root.get())) {
    why = "not a JSON object";
    return ParseOutcome::Corrupt;
  }
  // A newer easypp's file is not corrupt: a downgrade must leave it for the upgrade back.
  if (const json_int_t schema = newer_schema(root.get())) {
    why = "schema=" + std::to_string(schema) + ": written by a newer easypp (this library reads up to " +
          std::to_string(kStateSchema) + ")";
    return ParseOutcome::Newer;
  }
  RuntimeModel fresh(model.spec());
  if (!from_json(root.get(), fresh, why)) return ParseOutcome::Corrupt;
  model.adopt_state(std::move(fresh));
  return ParseOutcome::Ok;
}

bool copy_state(const RuntimeModel& from, RuntimeModel& to, std::string& error) {
  Json doc = to_json(from);
  std::unique_ptr<char, decltype(&std::free)> text(doc ? json_dumps(doc.get(), JSON_COMPACT) : nullptr,
                                                   &std::free);
  if (!text) {
    error = "could not serialise the history (out of memory)";
    return false;
  }
  std::string why, where;
  if (parse_state(text.get(), to, why, where) != ParseOutcome::Ok) {
    error = "the history does not fit the new predictor: " + why + where;
    return false;
  }
  return true;
}

std::optional<FileIdentity> identity_of(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileIdentity{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
}

bool KeptFile::named_by(const std::string& other) const {
  return held() && (path == other || (file && identity_of(other) == file));
}

bool newer_state_at(const std::string& path, std::string& why) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  struct stat st;
  std::string text;
  if (fd.get() < 0) {
    if (errno == ENOENT || errno == ELOOP) return false;
  } else if (::fstat(fd.get(), &st) == 0 && !S_ISREG(st.st_mode)) {
    return false;
  } else if (read_all(fd.get(), text)) {
    Json root(json_loadb(text.data(), text.size(), 0, nullptr));
    if (!root || !json_is_object(root.get()) || newer_schema(root.get()) == 0) return false;
    why = kHoldsNewerState;
    return true;
  }
  const int e = errno;
  why = std::string("could not be read to tell whether it still ") + kHoldsNewerState + " (" + std::strerror(e) + ")";
  return true;
}

namespace {
// Why a file that exists but could not be read is kept: a save would replace the history
// in it, unread, with this process's (a passing I/O error at start-up would lose it all).
std::string unreadable(std::string& error) {
  error += "; not overwritten until a load reads it or it is moved away";
  return "could not be read at the last load";
}
}  // namespace

LoadOutcome load_state(RuntimeModel& model, const std::string& path, std::string& error, LoadMode mode) {
  const bool read_only = mode == LoadMode::ReadOnly;
  if (!read_only) remove_stale_temporaries(path);
  Fd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) {
    if (errno == ENOENT) {
      error = path + ": no state file; starting empty";
      return {EPP_LOAD_MISSING};
    }
    if (errno == ELOOP) {
      error = path + ": is a symlink; refusing to read it";
      return {EPP_LOAD_ERROR};
    }
    error = sys_error(path, "cannot open");
    return {EPP_LOAD_ERROR, unreadable(error), identity_of(path)};
  }
  struct stat st;
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    error = path + ": not a regular file";
    return {EPP_LOAD_ERROR};
  }
  // Someone else's file in our place: its content is not ours to trust. Root (an admin
  // inspecting the plugin's file with easypp-predict) may read any.
  if (st.st_uid != ::geteuid() && ::geteuid() != 0) {
    error = owner_mismatch(path, st.st_uid) + "; refusing to read it (chown or remove it)";
    return {EPP_LOAD_ERROR};
  }
  const FileIdentity this_file{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
  std::string text;
  if (!read_all(fd.get(), text)) {
    error = sys_error(path, "cannot read");
    return {EPP_LOAD_ERROR, unreadable(error), this_file};
  }
  std::string why, where;
  switch (parse_state(text, model, why, where)) {
    case ParseOutcome::Ok:
      return {EPP_LOAD_OK};
    case ParseOutcome::Newer:
      error = path + ": " + why + "; left untouched and not overwritten (history is not saved until it is moved away)";
      return {EPP_LOAD_ERROR, kHoldsNewerState, this_file, true};
    case ParseOutcome::Corrupt:
      break;
  }
  // Reads "PATH:LINE:COLUMN: corrupt state: not valid JSON (...)" for a syntax error.
  error = path + where + ": corrupt state: " + why;
  if (read_only) {
    // An inspection must not move the file it inspects (an admin looking at the plugin's
    // file would take it from the plugin); kept, so a save of this handle does not
    // replace it unread either.
    error += "; left in place, unchanged (read-only load)";
    return {EPP_LOAD_CORRUPT, "was corrupt at the last load, which left it in place", this_file};
  }
  std::string aside = set_aside(path, error);
  if (!aside.empty()) error += "; set aside as " + aside;
  error += "; starting empty (rebuild it from accounting records)";
  return {EPP_LOAD_CORRUPT};
}

}  // namespace easypp::predictor
