// Persistence: round trip, atomic write, mode 0600, symlinks refused, corrupt recovery.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

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

}  // namespace
}  // namespace easypp::test
