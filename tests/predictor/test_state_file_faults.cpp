// The state file under faults and attack (issue 17, point 4): killed during a save, a full
// disk, a read-only directory, a symlink, a FIFO or another user's file in its place, a
// newer schema. Each gives one error line naming the path, keeps the last good history in
// memory and on disk, never follows a link and never widens permissions.
//
// Some cases need root (a private tmpfs mount, files of another user); they run in a
// forked child (in its own mount namespace where one is made) and skip cleanly without.
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "predictor_fixture.h"
#include "state_file_fixture.h"

namespace easypp::test {
namespace {

namespace fs = std::filesystem;

constexpr uid_t kNobody = 65534;

// Teaches `users` users `runs` runs each (job ids from `first_id`), so the saved JSON
// grows with users * runs.
void teach_many(epp_predictor* p, int users, int runs, std::uint64_t first_id = 1) {
  std::uint64_t id = first_id;
  for (int u = 0; u < users; ++u)
    for (int r = 0; r < runs; ++r, ++id) teach(p, id, 1000 + u, 3600, 100 + r, 100000 + static_cast<std::int64_t>(id));
}

class StateFileFaults : public StateFileDir {
 protected:
  // Records a new handle finds in the file (-1 if it does not load).
  long records_on_disk() {
    auto q = make_predictor("");
    char err[512];
    if (epp_load(q.get(), path_.c_str(), err, sizeof err) != EPP_LOAD_OK) return -1;
    return static_cast<long>(epp_predictor_records(q.get()));
  }
  // One line, starting with the path.
  void expect_one_line_naming_the_path(const std::string& what) {
    std::string e = err_;
    EXPECT_EQ(e.rfind(path_, 0), 0u) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    EXPECT_NE(e.find(what), std::string::npos) << e;
  }
};

// Runs `body` in a forked child; its return value is the exit status (77: skip) and what
// it writes to `say` comes back in `said`. The child never returns into gtest.
int in_child(const std::function<int(std::string& say)>& body, std::string& said) {
  int fds[2];
  if (::pipe(fds) != 0) return -1;
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    std::string say;
    int rc = body(say);
    [[maybe_unused]] ssize_t w = ::write(fds[1], say.data(), say.size());
    ::_exit(rc);
  }
  ::close(fds[1]);
  char buf[4096];
  ssize_t n;
  said.clear();
  while ((n = ::read(fds[0], buf, sizeof buf)) > 0) said.append(buf, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// `body` in a child that cannot read a mode-0 file: as root (who reads any file) the file
// and its directory go to nobody and the child becomes nobody first. Statuses as in_child.
int in_child_without_root(const std::string& path, const std::string& dir,
                          const std::function<int(std::string& say)>& body, std::string& said) {
  const bool root = ::geteuid() == 0;
  if (root && (::chown(path.c_str(), kNobody, kNobody) != 0 || ::chown(dir.c_str(), kNobody, kNobody) != 0))
    return said = "cannot chown to nobody", 1;
  return in_child(
      [&](std::string& say) {
        if (root && (::setgid(kNobody) != 0 || ::setuid(kNobody) != 0)) return say = "cannot become nobody", 77;
        return body(say);
      },
      said);
}

// A private mount namespace with a tmpfs of `size` on `dir` (root only): 0, or 77.
int private_tmpfs(const std::string& dir, const char* size, std::string& say) {
  if (::geteuid() != 0) {
    say = "needs root";
    return 77;
  }
  if (::unshare(CLONE_NEWNS) != 0 || ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
      ::mount("tmpfs", dir.c_str(), "tmpfs", 0, (std::string("size=") + size + ",mode=0700").c_str()) != 0) {
    say = std::string("cannot mount a private tmpfs: ") + std::strerror(errno);
    return 77;
  }
  return 0;
}

// Killed during a save: a child saves two different histories in turn, forever, and is
// killed with SIGKILL at random moments. Every time, the file loads whole as one of them.
TEST_F(StateFileFaults, KilledDuringSaveLeavesAWholeFile) {
  auto a = make_predictor("");
  auto b = make_predictor("");
  teach_many(a.get(), 60, 30);          // 1,800 records
  teach_many(b.get(), 40, 30, 500000);  // 1,200 records
  ASSERT_EQ(save(a.get()), 0) << err_;
  const long ra = static_cast<long>(epp_predictor_records(a.get()));
  const long rb = static_cast<long>(epp_predictor_records(b.get()));
  std::srand(17);
  int as = 0, bs = 0;
  for (int round = 0; round < 20; ++round) {
    pid_t pid = ::fork();
    if (pid == 0) {
      char err[512];
      for (int i = 0;; ++i) epp_save(i % 2 ? a.get() : b.get(), path_.c_str(), err, sizeof err);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(1000 + std::rand() % 30000));
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    const long r = records_on_disk();
    ASSERT_TRUE(r == ra || r == rb) << "round " << round << ": " << r << " records";
    (r == ra ? as : bs)++;
  }
  std::cout << "20 kills: the file held history A " << as << " times, B " << bs << " times\n";
  // Temporaries of killed saves are removed by a later load once they are stale.
  std::cout << others().size() << " temporaries left by killed saves\n";
  for (const auto& name : others()) {
    EXPECT_EQ(name.rfind("state.json.tmp-", 0), 0u) << name;
    auto old = fs::file_time_type::clock::now() - std::chrono::hours(1);
    fs::last_write_time(dir_ / name, old);
  }
  auto c = make_predictor("");
  EXPECT_EQ(load(c.get()), EPP_LOAD_OK) << err_;
  EXPECT_TRUE(others().empty());
}

// A temporary file younger than kStaleTemporarySeconds may be another save in progress:
// it is left alone.
TEST_F(StateFileFaults, FreshTemporaryIsLeftAlone) {
  std::ofstream(dir_ / "state.json.tmp-AbCdEf") << "{";
  std::ofstream(dir_ / "other.json.tmp-AbCdEf") << "{";  // another file's: never touched
  auto p = make_predictor("");
  EXPECT_EQ(load(p.get()), EPP_LOAD_MISSING);
  EXPECT_EQ(others().size(), 2u);
  fs::last_write_time(dir_ / "other.json.tmp-AbCdEf", fs::file_time_type::clock::now() - std::chrono::hours(1));
  EXPECT_EQ(load(p.get()), EPP_LOAD_MISSING);
  EXPECT_EQ(others().size(), 2u);
}

// An inspection's load removes nothing, not even a stale temporary of ours.
TEST_F(StateFileFaults, ReadOnlyLoadLeavesAStaleTemporary) {
  std::ofstream(dir_ / "state.json.tmp-AbCdEf") << "{";
  fs::last_write_time(dir_ / "state.json.tmp-AbCdEf", fs::file_time_type::clock::now() - std::chrono::hours(1));
  auto p = make_predictor("");
  EXPECT_EQ(load_read_only(p.get()), EPP_LOAD_MISSING);
  EXPECT_EQ(others(), std::vector<std::string>{"state.json.tmp-AbCdEf"});
  EXPECT_EQ(load(p.get()), EPP_LOAD_MISSING);  // a driver's load still cleans up
  EXPECT_TRUE(others().empty());
}

// A full disk, without root: a file size limit makes write() fail (EFBIG) midway.
TEST_F(StateFileFaults, WriteFailingMidwayKeepsThePreviousFile) {
  auto p = make_predictor("");
  teach(p.get(), 1, 7, 3600, 900, 10000);
  ASSERT_EQ(save(p.get()), 0) << err_;
  const std::string before = read(path_);
  teach_many(p.get(), 100, 30, 1000);  // about 100 KB of JSON
  struct rlimit old;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  struct rlimit small = old;
  small.rlim_cur = 16384;
  auto old_handler = ::signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  const int rc = save(p.get());
  ::setrlimit(RLIMIT_FSIZE, &old);
  ::signal(SIGXFSZ, old_handler);
  EXPECT_EQ(rc, -1);
  expect_one_line_naming_the_path("cannot write the new state: File too large; the previous state file is kept");
  EXPECT_EQ(read(path_), before);
  EXPECT_TRUE(others().empty());                        // the partial temporary is gone
  EXPECT_EQ(epp_predictor_records(p.get()), 3001u);     // memory keeps all it learnt
  EXPECT_EQ(save(p.get()), 0) << err_;                  // and saves once there is room
  EXPECT_EQ(records_on_disk(), 3001);
}

// The real thing (root): a 64 KiB tmpfs fills up.
TEST_F(StateFileFaults, FullDiskKeepsThePreviousFile) {
  std::string said;
  int rc = in_child(
      [&](std::string& say) {
        if (int skip = private_tmpfs(dir_.string(), "64k", say)) return skip;
        auto p = make_predictor("");
        teach(p.get(), 1, 7, 3600, 900, 10000);
        if (save(p.get()) != 0) return say = err_, 1;
        const std::string before = read(path_);
        teach_many(p.get(), 100, 30, 1000);  // about 100 KB of JSON: does not fit
        if (save(p.get()) != -1) return say = "saved on a full disk?", 1;
        say = err_;
        if (read(path_) != before) return say += " / previous file changed", 1;
        if (!others().empty()) return say += " / temporary left: " + others()[0], 1;
        if (records_on_disk() != 1) return say += " / the previous file does not load", 1;
        if (epp_predictor_records(p.get()) != 3001u) return say += " / memory lost history", 1;
        return 0;
      },
      said);
  if (rc == 77) GTEST_SKIP() << said;
  ASSERT_EQ(rc, 0) << said;
  EXPECT_EQ(said.rfind(path_ + ": cannot write the new state: No space left on device; the previous state file is kept",
                       0),
            0u)
      << said;
}

// A read-only directory: a read-only mount as root (root ignores mode bits), mode 0500
// otherwise. The save fails with one line; file and memory keep their history.
TEST_F(StateFileFaults, ReadOnlyDirectoryKeepsFileAndMemory) {
  std::string said;
  int rc = in_child(
      [&](std::string& say) {
        const bool root = ::geteuid() == 0;
        if (root)
          if (int skip = private_tmpfs(dir_.string(), "1m", say)) return skip;
        auto p = make_predictor("");
        teach(p.get(), 1, 7, 3600, 900, 10000);
        if (save(p.get()) != 0) return say = err_, 1;
        if (root ? ::mount(nullptr, dir_.c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr) != 0
                 : ::chmod(dir_.c_str(), 0500) != 0)
          return say = std::string("cannot make it read-only: ") + std::strerror(errno), 77;
        teach(p.get(), 2, 7, 3600, 300, 10100);
        if (save(p.get()) != -1) return say = "saved into a read-only directory?", 1;
        say = err_;
        if (records_on_disk() != 1) return say += " / the previous file does not load", 1;
        if (predict(p.get(), 7, 3600) != 600) return say += " / memory lost history", 1;
        return 0;
      },
      said);
  if (rc == 77) GTEST_SKIP() << said;
  ASSERT_EQ(rc, 0) << said;
  const bool root = ::geteuid() == 0;
  EXPECT_EQ(said, path_ + ": cannot create a temporary file beside it: " +
                      (root ? "Read-only file system" : "Permission denied") + "; the previous state file is kept");
}

// A symlink in its place: neither load nor save follows it, the target is untouched, the
// link stays, and the history in memory is kept.
TEST_F(StateFileFaults, SymlinkInPlaceIsNeverFollowed) {
  const std::string victim = (dir_ / "victim").string();
  std::ofstream(victim) << "keep me";
  ::chmod(victim.c_str(), 0644);
  fs::create_symlink(victim, path_);
  auto p = make_predictor("");
  teach(p.get(), 1, 7, 3600, 900, 10000);
  EXPECT_EQ(load(p.get()), EPP_LOAD_ERROR);
  expect_one_line_naming_the_path("is a symlink; refusing to read it");
  EXPECT_EQ(save(p.get()), -1);
  expect_one_line_naming_the_path("is a symlink; refusing to write through it");
  EXPECT_EQ(read(victim), "keep me");
  EXPECT_TRUE(fs::is_symlink(path_));
  EXPECT_EQ(fs::status(victim).permissions(), fs::perms(0644));
  EXPECT_EQ(predict(p.get(), 7, 3600), 900);
  // A dangling link: nothing is created where it points.
  fs::remove(path_);
  fs::create_symlink(dir_ / "nowhere", path_);
  EXPECT_EQ(save(p.get()), -1);
  EXPECT_FALSE(fs::exists(dir_ / "nowhere"));
}

// A FIFO in its place would block a plain open() for ever (inside slurmctld).
TEST_F(StateFileFaults, FifoInPlaceDoesNotHang) {
  ASSERT_EQ(::mkfifo(path_.c_str(), 0600), 0);
  auto p = make_predictor("");
  EXPECT_EQ(load(p.get()), EPP_LOAD_ERROR);
  expect_one_line_naming_the_path("not a regular file");
  EXPECT_EQ(save(p.get()), -1);
  expect_one_line_naming_the_path("exists and is not a regular file");
}

// Another user's file in its place (root: chown makes one). A save never replaces it
// (that would hand its owner's file to us); a non-root load refuses to read it.
TEST_F(StateFileFaults, AnotherUsersFileIsNeitherReplacedNorRead) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to make a file owned by another user";
  auto a = make_predictor("");
  teach(a.get(), 1, 7, 3600, 900, 10000);
  ASSERT_EQ(save(a.get()), 0) << err_;
  const std::string before = read(path_);
  ASSERT_EQ(::chown(path_.c_str(), kNobody, kNobody), 0);
  teach(a.get(), 2, 7, 3600, 300, 10100);
  EXPECT_EQ(save(a.get()), -1);
  expect_one_line_naming_the_path("owned by uid 65534, not by uid 0 (this process); refusing to replace it");
  EXPECT_EQ(read(path_), before);
  struct stat st;
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, kNobody);
  EXPECT_EQ(st.st_mode & 0777, 0600u);

  // As an unprivileged user (slurmctld runs as SlurmUser), a root-owned file is refused
  // even when its mode lets everybody read it.
  ASSERT_EQ(::chown(path_.c_str(), 0, 0), 0);
  ASSERT_EQ(::chmod(path_.c_str(), 0644), 0);
  ASSERT_EQ(::chown(dir_.c_str(), kNobody, kNobody), 0);
  std::string said;
  int rc = in_child(
      [&](std::string& say) {
        if (::setgid(kNobody) != 0 || ::setuid(kNobody) != 0) return say = "cannot become nobody", 77;
        auto p = make_predictor("");
        teach(p.get(), 5, 9, 3600, 60, 10000);
        if (load(p.get()) != EPP_LOAD_ERROR) return say = "loaded another user's file", 1;
        say = err_;
        if (epp_predictor_users(p.get()) != 1 || predict(p.get(), 9, 3600) != 60)
          return say += " / memory lost history", 1;
        return 0;
      },
      said);
  if (rc == 77) GTEST_SKIP() << said;
  ASSERT_EQ(rc, 0) << said;
  EXPECT_EQ(said, path_ + ": owned by uid 0, not by uid 65534 (this process); refusing to read it (chown or remove it)");
}

// A file there that cannot be read (an I/O error, here no permission: mode 0000 as its
// non-root owner) is not replaced by the next save: the history in it, unread, would be
// lost. Once a load reads it (the mode back), saving works again.
TEST_F(StateFileFaults, UnreadableFileIsNotOverwritten) {
  auto a = make_predictor("");
  teach(a.get(), 1, 7, 3600, 900, 10000);
  ASSERT_EQ(save(a.get()), 0) << err_;
  const std::string before = read(path_);
  std::string said;
  int rc = in_child_without_root(
      path_, dir_,
      [&](std::string& say) {
        if (::chmod(path_.c_str(), 0) != 0) return say = "cannot chmod", 77;
        auto p = make_predictor("");
        teach(p.get(), 5, 9, 3600, 60, 10000);
        if (load(p.get()) != EPP_LOAD_ERROR) return say = "loaded an unreadable file", 1;
        say = std::string(err_) + "\n";
        if (save(p.get()) != -1) return say += "saved over it", 1;
        say += err_;
        if (::chmod(path_.c_str(), 0600) != 0) return say += " / cannot chmod back", 77;
        if (read(path_) != before) return say += " / the file changed", 1;
        if (load(p.get()) != EPP_LOAD_OK) return say += std::string(" / no load once readable: ") + err_, 1;
        if (save(p.get()) != 0) return say += std::string(" / no save once read: ") + err_, 1;
        return 0;
      },
      said);
  if (rc == 77) GTEST_SKIP() << said;
  ASSERT_EQ(rc, 0) << said;
  EXPECT_EQ(said, path_ + ": cannot open: Permission denied; not overwritten until a load reads it or it is moved away\n" +
                      path_ + ": could not be read at the last load; not overwriting it (move it away to save this history there)");
}

// A newer easypp's file (a downgrade): not corrupt, so not set aside; left untouched and
// never overwritten by this handle, whose history stays as it was.
TEST_F(StateFileFaults, NewerSchemaIsLeftUntouched) {
  const std::string newer = R"({"format":"easypp-predictor-state","schema":99,"spec":"","users":[],"more":1})";
  std::ofstream(path_) << newer;
  auto p = make_predictor("");
  teach(p.get(), 1, 7, 3600, 900, 10000);
  EXPECT_EQ(load(p.get()), EPP_LOAD_ERROR);
  expect_one_line_naming_the_path("schema=99: written by a newer easypp (this library reads up to 2); left untouched");
  EXPECT_EQ(predict(p.get(), 7, 3600), 900);
  EXPECT_EQ(save(p.get()), -1);
  expect_one_line_naming_the_path("holds a newer easypp's state; not overwriting it");
  EXPECT_EQ(read(path_), newer);
  EXPECT_TRUE(others().empty());
  // Moved away by the admin: the next load finds no file and saving works again.
  fs::rename(path_, dir_ / "newer.json");
  EXPECT_EQ(load(p.get()), EPP_LOAD_MISSING);
  EXPECT_EQ(save(p.get()), 0) << err_;
  EXPECT_EQ(records_on_disk(), 1);
}

// The directory cannot be opened for its fsync (mode 0300: files can be made and renamed
// in it, it cannot be read), after the rename: -1, and the message says the new file is
// in place (it said nothing of the kind, as if the previous one were kept). As root, the
// child first becomes nobody, owning the directory (root ignores mode bits).
TEST_F(StateFileFaults, DirectoryFsyncFailureSaysTheNewFileIsInPlace) {
  std::string said;
  int rc = in_child(
      [&](std::string& say) {
        if (::geteuid() == 0 && (::chown(dir_.c_str(), 65534, 65534) != 0 || ::setgid(65534) != 0 ||
                                 ::setuid(65534) != 0))
          return say = std::string("cannot become nobody: ") + std::strerror(errno), 77;
        auto p = make_predictor("");
        teach(p.get(), 1, 7, 3600, 900, 10000);
        if (save(p.get()) != 0) return say = err_, 1;
        if (::chmod(dir_.c_str(), 0300) != 0) return say = std::string("cannot chmod: ") + std::strerror(errno), 77;
        teach(p.get(), 2, 7, 3600, 300, 10100);
        const int saved = save(p.get());
        say = err_;
        if (saved != -1) return say += " / returned " + std::to_string(saved), 1;
        if (records_on_disk() != 2) return say += " / the new file is not in place", 1;
        return 0;
      },
      said);
  if (rc == 77) GTEST_SKIP() << said;
  ASSERT_EQ(rc, 0) << said;
  EXPECT_EQ(said, dir_.string() + ": cannot fsync the directory: Permission denied; " + path_ +
                      " is the new state, but a crash may still bring the previous one back");
}

// The refusal follows the file, not the spelling of its path: "dir/./state.json" or a
// hard link name the same newer file (the guard once compared path strings).
TEST_F(StateFileFaults, NewerSchemaIsLeftUntouchedWhateverItsPathIsCalled) {
  const std::string newer = R"({"format":"easypp-predictor-state","schema":99,"spec":"","users":[],"more":1})";
  std::ofstream(path_) << newer;
  const std::string name = fs::path(path_).filename().string();
  const std::string dotted = (dir_ / "." / name).string();
  const std::string linked = (dir_ / "link.json").string();
  ASSERT_EQ(::link(path_.c_str(), linked.c_str()), 0);
  auto p = make_predictor("");
  teach(p.get(), 1, 7, 3600, 900, 10000);
  EXPECT_EQ(load(p.get()), EPP_LOAD_ERROR);
  for (const std::string& other : {dotted, linked}) {
    EXPECT_EQ(epp_save(p.get(), other.c_str(), err_, sizeof err_), -1) << other;
    EXPECT_EQ(std::string(err_), other + ": holds a newer easypp's state; not overwriting it "
                                         "(move it away to save this history there)");
    EXPECT_EQ(read(path_), newer) << other;
  }
  // Read through another spelling once it is gone: saving there works again.
  fs::remove(linked);
  fs::rename(path_, dir_ / "newer.json");
  EXPECT_EQ(epp_load(p.get(), dotted.c_str(), err_, sizeof err_), EPP_LOAD_MISSING);
  EXPECT_EQ(epp_save(p.get(), dotted.c_str(), err_, sizeof err_), 0) << err_;
}

// The refusal is of the file now at the path, read again before each save: a newer file
// there is refused under any name, even one put there after the refused load (another
// inode); a current one is saved over, even with the newer file's inode (rewritten in
// place, as a file deleted and recreated may get it) or through the path as loaded (the
// guard once held that spelling until a load, and the inode for good).
TEST_F(StateFileFaults, NewerSchemaRefusalFollowsWhatIsAtThePath) {
  const std::string newer = R"({"format":"easypp-predictor-state","schema":99,"spec":"","users":[],"more":1})";
  const std::string current = R"({"format":"easypp-predictor-state","schema":1,"spec":"","users":[]})";
  const std::string dotted = (dir_ / "." / fs::path(path_).filename()).string();
  write(newer);
  auto p = make_predictor("");
  teach(p.get(), 1, 7, 3600, 900, 10000);
  ASSERT_EQ(load(p.get()), EPP_LOAD_ERROR);
  const auto expect_refused = [&](const std::string& where) {
    for (const std::string& name : {path_, dotted}) {
      EXPECT_EQ(epp_save(p.get(), name.c_str(), err_, sizeof err_), -1) << where << ", " << name;
      EXPECT_EQ(std::string(err_), name + ": holds a newer easypp's state; not overwriting it "
                                          "(move it away to save this history there)")
          << where;
      EXPECT_EQ(read(path_), newer) << where << ", " << name;
    }
  };
  expect_refused("as loaded");
  // Rewritten in place as a current file: the same inode, no longer newer.
  struct stat before, after;
  ASSERT_EQ(::stat(path_.c_str(), &before), 0);
  write(current);
  ASSERT_EQ(::stat(path_.c_str(), &after), 0);
  ASSERT_EQ(before.st_ino, after.st_ino);
  for (const std::string& name : {path_, dotted}) {
    write(current);  // the save before replaced it (another inode)
    EXPECT_EQ(epp_save(p.get(), name.c_str(), err_, sizeof err_), 0) << name << ": " << err_;
    EXPECT_EQ(records_on_disk(), 1) << name;
  }
  // A newer file again, put in place by a rename (another inode): refused under any name.
  const std::string put = (dir_ / "put.json").string();
  std::ofstream(put, std::ios::binary) << newer;
  ASSERT_EQ(::rename(put.c_str(), path_.c_str()), 0);
  expect_refused("put in place again");
  // Gone: saved through the path as loaded, without a load first.
  fs::remove(path_);
  EXPECT_EQ(save(p.get()), 0) << err_;
  EXPECT_EQ(records_on_disk(), 1);
  // Deleted and recreated as a current file: saved over.
  fs::remove(path_);
  write(current);
  EXPECT_EQ(save(p.get()), 0) << err_;
  EXPECT_EQ(records_on_disk(), 1);
}

// A refused newer file that can no longer be read (mode 0) cannot be told from ours: still
// refused, saying so. As root, the child first becomes nobody (root reads any file).
TEST_F(StateFileFaults, NewerSchemaRefusalHoldsWhenTheFileCannotBeReadAgain) {
  const std::string newer = R"({"format":"easypp-predictor-state","schema":99,"spec":"","users":[]})";
  write(newer);
  std::string said;
  int rc = in_child_without_root(
      path_, dir_,
      [&](std::string& say) {
        auto p = make_predictor("");
        teach(p.get(), 5, 9, 3600, 60, 10000);
        if (load(p.get()) != EPP_LOAD_ERROR) return say = "loaded a newer file", 1;
        if (::chmod(path_.c_str(), 0) != 0) return say = "cannot chmod", 77;
        if (save(p.get()) != -1) return say = "saved over it", 1;
        say = err_;
        if (::chmod(path_.c_str(), 0600) != 0) return say += " / cannot chmod back", 77;
        if (read(path_) != newer) return say += " / the file changed", 1;
        return 0;
      },
      said);
  if (rc == 77) GTEST_SKIP() << said;
  ASSERT_EQ(rc, 0) << said;
  EXPECT_EQ(said, path_ + ": could not be read to tell whether it still holds a newer easypp's state "
                          "(Permission denied); not overwriting it (move it away to save this history there)");
}

// Never widens permissions: whatever the umask or the old file's mode, the result is 0600.
TEST_F(StateFileFaults, SaveNarrowsAWideFileTo0600) {
  std::ofstream(path_) << "{}";
  ASSERT_EQ(::chmod(path_.c_str(), 0666), 0);
  const mode_t old_umask = ::umask(0);
  auto p = make_predictor("");
  teach(p.get(), 1, 7, 3600, 900, 10000);
  EXPECT_EQ(save(p.get()), 0) << err_;
  ::umask(old_umask);
  struct stat st;
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

}  // namespace
}  // namespace easypp::test
