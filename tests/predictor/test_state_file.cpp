// Persistence: round trip, atomic write, mode 0600, symlinks refused, corrupt recovery.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "predictor_fixture.h"
#include "state_file_fixture.h"

namespace easypp::test {
namespace {

namespace fs = std::filesystem;

using StateFile = StateFileDir;

TEST_F(StateFile, RoundTripKeepsHistoryAccuracyAndSeenIds) {
  auto a = make_predictor("history:fallback=relative,fullness=full,window=3");
  teach(a.get(), 1, 7, 3600, 900, 10000);
  teach(a.get(), 2, 7, 1800, 900, 10100);
  teach(a.get(), 3, 8, 600, 60, 10200);
  ASSERT_EQ(epp_save(a.get(), path_.c_str(), err_, sizeof err_), 0) << err_;

  auto b = make_predictor("history:fallback=relative,fullness=full,window=3");
  ASSERT_EQ(load(b.get()), EPP_LOAD_OK) << err_;
  EXPECT_EQ(epp_predictor_users(b.get()), 2u);
  EXPECT_EQ(epp_predictor_records(b.get()), 3u);
  EXPECT_EQ(predict(b.get(), 7, 1000), predict(a.get(), 7, 1000));
  EXPECT_EQ(predict(b.get(), 7, 1000), 375);  // relative fallback survived
  EXPECT_EQ(teach(b.get(), 2, 7, 1800, 900, 10100), 0);  // already seen before the save
  teach(b.get(), 4, 7, 3600, 300, 10300);
  EXPECT_EQ(predict(b.get(), 7, 3600), 700);  // (900 + 900 + 300) / 3
}

// A reconfigure's handover (epp_copy_history): the same history as a save + load, with no
// file written, and the copy is independent of the original afterwards. Numbers as in the
// round trip above: user 7 ran 900 s twice, so with a third 300 s run the mean is 700.
TEST_F(StateFile, CopyHistoryInMemoryIsTheRoundTripWithoutTheDisk) {
  auto a = make_predictor("history:fallback=relative,fullness=full,window=3");
  teach(a.get(), 1, 7, 3600, 900, 10000);
  teach(a.get(), 2, 7, 1800, 900, 10100);
  teach(a.get(), 3, 8, 600, 60, 10200);
  auto b = make_predictor("history:fallback=relative,fullness=full,window=3");
  ASSERT_EQ(epp_copy_history(b.get(), a.get(), err_, sizeof err_), 0) << err_;
  EXPECT_TRUE(others().empty());
  EXPECT_FALSE(fs::exists(path_));
  EXPECT_EQ(epp_predictor_users(b.get()), 2u);
  EXPECT_EQ(epp_predictor_records(b.get()), 3u);
  EXPECT_EQ(predict(b.get(), 7, 1000), 375);  // relative fallback came along
  EXPECT_EQ(teach(b.get(), 2, 7, 1800, 900, 10100), 0);  // seen ids came along
  teach(b.get(), 4, 7, 3600, 300, 10300);
  EXPECT_EQ(predict(b.get(), 7, 3600), 700);  // (900 + 900 + 300) / 3
  EXPECT_EQ(epp_predictor_records(a.get()), 3u) << "the original is untouched";
  EXPECT_EQ(epp_copy_history(b.get(), b.get(), err_, sizeof err_), -1);
  EXPECT_EQ(epp_copy_history(b.get(), nullptr, err_, sizeof err_), -1);
}

// A predictor that refused a newer easypp's state file hands that refusal over too:
// the new one must not overwrite the file either.
TEST_F(StateFile, CopyHistoryKeepsTheRefusalOfANewerFile) {
  const std::string newer = R"({"format":"easypp-predictor-state","schema":99,"spec":"","users":[]})";
  write(newer);
  auto a = make_predictor("history:fallback=relative,fullness=full,window=3");
  ASSERT_EQ(load(a.get()), EPP_LOAD_ERROR);
  auto b = make_predictor("history:fallback=relative,fullness=full,window=3");
  ASSERT_EQ(epp_copy_history(b.get(), a.get(), err_, sizeof err_), 0) << err_;
  EXPECT_EQ(epp_save(b.get(), path_.c_str(), err_, sizeof err_), -1);
  EXPECT_EQ(read(path_), newer) << "left untouched";
}

TEST_F(StateFile, RoundTripOfTheExtendedTable) {
  auto a = make_predictor("history:type=extended,window=2");
  teach(a.get(), 1, 7, 3600, 100, 10000);
  for (int i = 2; i < 40; ++i) teach(a.get(), i, 7, 60, 30, 10000 + i);  // push run 1 out of the ring
  ASSERT_EQ(epp_save(a.get(), path_.c_str(), err_, sizeof err_), 0) << err_;
  auto b = make_predictor("history:type=extended,window=2");
  ASSERT_EQ(load(b.get()), EPP_LOAD_OK) << err_;
  EXPECT_EQ(predict(b.get(), 7, 3600), 100);
}

TEST_F(StateFile, WrittenWithMode0600AndNoTemporaryLeftBehind) {
  auto a = make_predictor("");
  teach(a.get(), 1, 7, 3600, 900, 10000);
  ::umask(022);
  ASSERT_EQ(epp_save(a.get(), path_.c_str(), err_, sizeof err_), 0) << err_;
  ASSERT_EQ(epp_save(a.get(), path_.c_str(), err_, sizeof err_), 0) << err_;  // replaces
  struct stat st;
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_TRUE(others().empty());
  EXPECT_NE(read(path_).find("\"schema\":1"), std::string::npos);
}

TEST_F(StateFile, MissingFileStartsEmpty) {
  auto p = make_predictor("");
  EXPECT_EQ(load(p.get()), EPP_LOAD_MISSING);
  EXPECT_EQ(epp_predictor_users(p.get()), 0u);
}

TEST_F(StateFile, SaveRefusesASymlinkedTarget) {
  std::string victim = (dir_ / "victim").string();
  std::ofstream(victim) << "keep me";
  fs::create_symlink(victim, path_);
  auto p = make_predictor("");
  EXPECT_EQ(epp_save(p.get(), path_.c_str(), err_, sizeof err_), -1);
  EXPECT_EQ(std::string(err_), path_ + ": is a symlink; refusing to write through it");
  EXPECT_EQ(read(victim), "keep me");
}

TEST_F(StateFile, LoadRefusesASymlink) {
  auto a = make_predictor("");
  std::string real = (dir_ / "real.json").string();
  ASSERT_EQ(epp_save(a.get(), real.c_str(), err_, sizeof err_), 0) << err_;
  fs::create_symlink(real, path_);
  auto p = make_predictor("");
  EXPECT_EQ(load(p.get()), EPP_LOAD_ERROR);
  EXPECT_EQ(std::string(err_), path_ + ": is a symlink; refusing to read it");
  EXPECT_TRUE(fs::is_symlink(path_));  // left alone, not "set aside"
}

// Job ids are uint64 and JSON integers int64: an id of 2^63 or more is written negative
// and must come back as itself (it once made the file unreadable: all history set aside).
TEST_F(StateFile, JobIdsOfTwoToTheSixtyThreeAndAboveRoundTrip) {
  auto a = make_predictor("");
  const std::uint64_t big = (std::uint64_t{1} << 63) + 5;
  ASSERT_EQ(teach(a.get(), big, 7, 3600, 900, 10000), 1);
  ASSERT_EQ(teach(a.get(), 2, 7, 3600, 300, 10100), 1);
  ASSERT_EQ(epp_save(a.get(), path_.c_str(), err_, sizeof err_), 0) << err_;
  auto b = make_predictor("");
  ASSERT_EQ(load(b.get()), EPP_LOAD_OK) << err_;
  epp_run runs[2];
  ASSERT_EQ(epp_user_runs(b.get(), 7, runs, 2), 2u);
  EXPECT_EQ(runs[0].job_id, big);
  EXPECT_EQ(teach(b.get(), big, 7, 3600, 900, 10000), 0);  // still seen
}

// Loading must not add the recent runs' ids to the seen set a second time: six save/load
// cycles used to fill the 128 slots with copies of the 30 recent ids, so an older job
// reported again (ending after everything kept) was learnt twice after restarts. The
// never-restarted and the restarted predictor refuse it alike.
TEST_F(StateFile, SeenIdsSurviveRepeatedRestartsWithoutDuplicates) {
  auto straight = make_predictor("history:window=30");
  auto restarted = make_predictor("history:window=30");
  for (std::uint64_t id = 1; id <= 128; ++id) {
    teach(straight.get(), id, 7, 3600, 100, 10000 + 10 * static_cast<std::int64_t>(id));
    teach(restarted.get(), id, 7, 3600, 100, 10000 + 10 * static_cast<std::int64_t>(id));
  }
  for (int cycle = 0; cycle < 6; ++cycle) {
    ASSERT_EQ(epp_save(restarted.get(), path_.c_str(), err_, sizeof err_), 0) << err_;
    ASSERT_EQ(load(restarted.get()), EPP_LOAD_OK) << err_;
  }
  // Job 50 again, with a later end: its id is what makes it a duplicate.
  EXPECT_EQ(teach(straight.get(), 50, 7, 3600, 100, 20000), 0);
  EXPECT_EQ(teach(restarted.get(), 50, 7, 3600, 100, 20000), 0);
  EXPECT_EQ(epp_predictor_records(restarted.get()), epp_predictor_records(straight.get()));
}

// type=extended keeps at most 64 estimates per user and drops the least recently learnt
// one. The file keeps that order: estimate 1000, made first but learnt last, must survive
// a 65th estimate after a restart as it does without one (window=1: its prediction is
// its own last run, 7 s, not the estimate).
TEST_F(StateFile, ExtendedTableDropsTheSameEstimateAfterARestart) {
  const std::string spec = "history:type=extended,window=1";
  auto straight = make_predictor(spec), a = make_predictor(spec);
  std::uint64_t id = 1;
  std::int64_t end = 10000;
  auto learn_both = [&](std::int64_t estimate, std::int64_t runtime) {
    for (auto* p : {straight.get(), a.get()}) teach(p, id, 7, estimate, runtime, end);
    ++id;
    end += 10;
  };
  learn_both(1000, 5);
  for (std::int64_t e = 2000; e < 2000 + 63; ++e) learn_both(e, 5);
  learn_both(1000, 7);  // estimate 1000 is now the most recently learnt
  ASSERT_EQ(epp_save(a.get(), path_.c_str(), err_, sizeof err_), 0) << err_;
  auto restarted = make_predictor(spec);
  ASSERT_EQ(load(restarted.get()), EPP_LOAD_OK) << err_;
  for (auto* p : {straight.get(), restarted.get()}) teach(p, id, 7, 5000, 5, end);  // the 65th
  EXPECT_EQ(predict(straight.get(), 7, 1000), 7);
  EXPECT_EQ(predict(restarted.get(), 7, 1000), 7);
  EXPECT_EQ(predict(restarted.get(), 7, 2000), predict(straight.get(), 7, 2000));  // the one dropped
}

// A load replaces what was learnt, not the predictor: the spec text handed out earlier
// stays valid (other threads read it without the lock), and an evaluation kind keeps
// its workload.
TEST_F(StateFile, LoadKeepsTheSpecTextAndTheWorkload) {
  auto q = make_predictor("quant:error=1000,stdev=0");
  std::vector<epp_workload_job> w;
  for (int i = 1; i <= 100; ++i) w.push_back({static_cast<std::uint64_t>(i), 10 * i, 1 + i % 4, -1});
  ASSERT_EQ(epp_set_workload(q.get(), w.data(), w.size(), err_, sizeof err_), 0) << err_;
  epp_job j = job(40, 3, 36000, 1000, 400);
  const std::int64_t before = epp_predict(q.get(), &j);
  const char* spec = epp_predictor_spec(q.get());
  ASSERT_EQ(epp_save(q.get(), path_.c_str(), err_, sizeof err_), 0) << err_;
  ASSERT_EQ(load(q.get()), EPP_LOAD_OK) << err_;
  epp_workload_bounds b{};
  EXPECT_EQ(epp_get_workload_bounds(q.get(), &b), 1);
  EXPECT_EQ(epp_predict(q.get(), &j), before);
  EXPECT_EQ(epp_predictor_spec(q.get()), spec);
  auto h = make_predictor("");
  teach(h.get(), 1, 7, 3600, 900, 10000);
  const char* text = epp_predictor_spec(h.get());
  ASSERT_EQ(epp_save(h.get(), path_.c_str(), err_, sizeof err_), 0) << err_;
  ASSERT_EQ(load(h.get()), EPP_LOAD_OK) << err_;
  EXPECT_EQ(epp_predictor_spec(h.get()), text);
  EXPECT_STREQ(text, epp_predictor_spec(h.get()));
}

class CorruptState : public StateFile {
 protected:
  // Loads `text`, expects EPP_LOAD_CORRUPT, the predictor's history unchanged, and the
  // file set aside.
  void expect_corrupt(const std::string& text, const std::string& reason) {
    write(text);
    auto p = make_predictor("");
    teach(p.get(), 99, 1, 100, 10, 5000);  // history before the load is kept
    EXPECT_EQ(load(p.get()), EPP_LOAD_CORRUPT);
    std::string err = err_;
    EXPECT_EQ(err.rfind(path_, 0), 0u) << err;
    EXPECT_NE(err.find(reason), std::string::npos) << err;
    EXPECT_NE(err.find("set aside as " + path_ + ".corrupt-"), std::string::npos) << err;
    EXPECT_EQ(err.find('\n'), std::string::npos);
    EXPECT_EQ(epp_predictor_users(p.get()), 1u);
    EXPECT_FALSE(fs::exists(path_));
    auto rest = others();
    ASSERT_EQ(rest.size(), 1u);
    EXPECT_EQ(rest[0].size(), std::string("state.json.corrupt-20261122T023300").size()) << rest[0];
    EXPECT_EQ(read((dir_ / rest[0]).string()), text);  // kept for a post-mortem
    EXPECT_EQ(load(p.get()), EPP_LOAD_MISSING);         // next start: empty, no error
  }
};

TEST_F(CorruptState, TruncatedFile) {
  auto a = make_predictor("");
  teach(a.get(), 1, 7, 3600, 900, 10000);
  ASSERT_EQ(epp_save(a.get(), path_.c_str(), err_, sizeof err_), 0);
  std::string whole = read(path_);
  expect_corrupt(whole.substr(0, whole.size() / 2), "not valid JSON");
}

TEST_F(CorruptState, Garbage) { expect_corrupt("\x01\x02garbage{", "not valid JSON"); }

TEST_F(CorruptState, EmptyFile) { expect_corrupt("", "not valid JSON"); }

// A newer schema is not corrupt (test_state_file_faults.cpp); an older or bogus one is.
TEST_F(CorruptState, WrongSchemaVersion) {
  expect_corrupt(R"({"format":"easypp-predictor-state","schema":0,"spec":"","users":[]})",
                 "schema=0: unsupported schema version (this library reads 1-2)");
}

TEST_F(CorruptState, NotOurFormat) { expect_corrupt(R"({"hello":"world"})", "format: expected"); }

TEST_F(CorruptState, BadRunNamesItsPlace) {
  expect_corrupt(R"({"format":"easypp-predictor-state","schema":1,"spec":"","users":[)"
                 R"({"uid":7,"accuracy_sum":0.5,"accuracy_count":1,"seen":[1],"recent":[[1,2,3,4]]}]})",
                 "users[0].recent[0]: expected [job_id, submit, end, estimate, runtime]");
}

// Each learnt runtime/estimate is at most 2^40 (runtime <= 2^40 s, estimate >= 1 s): a
// larger or non-number sum was never written by the library.
TEST_F(CorruptState, AbsurdAccuracySum) {
  expect_corrupt(R"({"format":"easypp-predictor-state","schema":1,"spec":"","users":[)"
                 R"({"uid":7,"accuracy_sum":1e300,"accuracy_count":1,"seen":[1],"recent":[[1,2,3,4,5]]}]})",
                 "users[0]: accuracy_sum/accuracy_count: expected");
}

// easypp-predict show and stats inspect the plugin's file: a read-only load of a corrupt
// file names it and what is wrong, and leaves it where and as it was, with nothing beside
// it; that handle's save does not replace it unread; a load that may repair (the plugin's,
// import's) still sets it aside.
class CorruptStateReadOnly : public StateFile {
 protected:
  static ino_t inode_of(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? st.st_ino : 0;
  }
  void expect_left_in_place(const std::string& text, const std::string& reason) {
    write(text);
    const ino_t inode = inode_of(path_);
    auto p = make_predictor("");
    teach(p.get(), 99, 1, 100, 10, 5000);  // history before the load is kept
    EXPECT_EQ(load_read_only(p.get()), EPP_LOAD_CORRUPT);
    const std::string err = err_;
    EXPECT_EQ(err.rfind(path_, 0), 0u) << err;
    EXPECT_NE(err.find("corrupt state: "), std::string::npos) << err;
    EXPECT_NE(err.find(reason), std::string::npos) << err;
    EXPECT_NE(err.find("; left in place, unchanged (read-only load)"), std::string::npos) << err;
    EXPECT_EQ(err.find("set aside"), std::string::npos) << err;
    EXPECT_EQ(err.find('\n'), std::string::npos);
    EXPECT_EQ(epp_predictor_users(p.get()), 1u);
    EXPECT_EQ(read(path_), text);
    EXPECT_EQ(inode_of(path_), inode);
    EXPECT_TRUE(others().empty());
    EXPECT_EQ(save(p.get()), -1);
    EXPECT_NE(std::string(err_).find(path_ + ": was corrupt at the last load, which left it in place; not overwriting"),
              std::string::npos)
        << err_;
    EXPECT_EQ(read(path_), text);
    EXPECT_EQ(inode_of(path_), inode);
    EXPECT_TRUE(others().empty());
    EXPECT_EQ(load(p.get()), EPP_LOAD_CORRUPT);
    EXPECT_NE(std::string(err_).find("set aside as " + path_ + ".corrupt-"), std::string::npos) << err_;
    EXPECT_FALSE(fs::exists(path_));
    const auto rest = others();
    ASSERT_EQ(rest.size(), 1u);
    EXPECT_EQ(read((dir_ / rest[0]).string()), text);
    EXPECT_EQ(save(p.get()), 0) << err_;  // set aside: no longer kept
  }
};

TEST_F(CorruptStateReadOnly, TruncatedFile) {
  auto a = make_predictor("");
  teach(a.get(), 1, 7, 3600, 900, 10000);
  ASSERT_EQ(epp_save(a.get(), path_.c_str(), err_, sizeof err_), 0);
  std::string whole = read(path_);
  expect_left_in_place(whole.substr(0, whole.size() / 2), "not valid JSON");
}

TEST_F(CorruptStateReadOnly, Garbage) { expect_left_in_place("\x01\x02garbage{", "not valid JSON"); }

TEST_F(CorruptStateReadOnly, EmptyFile) { expect_left_in_place("", "not valid JSON"); }

TEST_F(CorruptStateReadOnly, WrongSchemaVersion) {
  expect_left_in_place(R"({"format":"easypp-predictor-state","schema":0,"spec":"","users":[]})",
                       "schema=0: unsupported schema version (this library reads 1-2)");
}

TEST_F(CorruptStateReadOnly, BadRunNamesItsPlace) {
  expect_left_in_place(R"({"format":"easypp-predictor-state","schema":1,"spec":"","users":[)"
                       R"({"uid":7,"accuracy_sum":0.5,"accuracy_count":1,"seen":[1],"recent":[[1,2,3,4]]}]})",
                       "users[0].recent[0]: expected [job_id, submit, end, estimate, runtime]");
}

// A good file loads as with epp_load (nothing kept: the handle saves over it), and a
// missing one is not created.
TEST_F(StateFile, ReadOnlyLoadOfAGoodOrMissingFile) {
  auto p = make_predictor("");
  EXPECT_EQ(load_read_only(p.get()), EPP_LOAD_MISSING);
  EXPECT_TRUE(fs::is_empty(dir_));
  teach(p.get(), 1, 7, 3600, 900, 10000);
  teach(p.get(), 2, 8, 3600, 300, 11000);
  ASSERT_EQ(save(p.get()), 0) << err_;
  const std::string saved = read(path_);
  auto q = make_predictor("");
  ASSERT_EQ(load_read_only(q.get()), EPP_LOAD_OK) << err_;
  EXPECT_EQ(epp_predictor_users(q.get()), 2u);
  EXPECT_EQ(predict(q.get(), 7, 3600), predict(p.get(), 7, 3600));
  EXPECT_EQ(read(path_), saved);
  EXPECT_TRUE(others().empty());
  EXPECT_EQ(save(q.get()), 0) << err_;
}

// Flags of a later interface are refused, not ignored, and nothing is loaded or touched.
TEST_F(StateFile, UnknownLoadFlagsAreRefused) {
  write("{\"trunc");
  auto p = make_predictor("");
  EXPECT_EQ(epp_load_with_flags(p.get(), path_.c_str(), EPP_LOAD_READ_ONLY | 2u, err_, sizeof err_),
            EPP_LOAD_ERROR);
  EXPECT_EQ(std::string(err_), path_ + ": epp_load_with_flags: unknown flags 2; nothing loaded");
  EXPECT_EQ(read(path_), "{\"trunc");
  EXPECT_TRUE(others().empty());
}

}  // namespace
}  // namespace easypp::test
