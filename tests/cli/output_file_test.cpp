// Output files of the tools (cli/output_file.h): whole or absent, failures named, and a
// path that is not a regular file written through, never replaced.
#include "cli/output_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>

namespace easypp::cli {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string error_of(const std::string& path, const std::string& text) {
  try {
    write_whole_file(path, text);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "no error";
}

TEST(OutputFile, ReplacesAWholeFileAndLeavesNoTemporary) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("easypp_output_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path f = dir / "out.csv";
  std::ofstream(f) << "old\n";
  write_whole_file(f.string(), "a,b\n1,2\n");
  EXPECT_EQ(read(f), "a,b\n1,2\n");
  // Nothing but the file: the temporary (out.csv.XXXXXX) was renamed into place, and
  // one never committed is removed.
  { OutputFile dropped((dir / "out.csv").string()); }
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  EXPECT_EQ(read(f), "a,b\n1,2\n");
  // Not written: named, and nothing made.
  EXPECT_EQ(error_of((dir / "no" / "x.csv").string(), "x"),
            (dir / "no" / "x.csv").string() + ": cannot write: No such file or directory");
  EXPECT_FALSE(fs::exists(dir / "no"));
  fs::remove_all(dir);
}

// A symlink planted at the old fixed temporary name (PATH.tmp) is neither followed nor
// moved into place; the file gets fopen's mode (0666 minus the umask) and no temporary
// is left behind.
TEST(OutputFile, APlantedSymlinkIsNotFollowedAndNoTemporaryRemains) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("easypp_output_link_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path victim = dir / "victim";
  std::ofstream(victim) << "precious\n";
  const fs::path f = dir / "out.json";
  fs::create_symlink(victim, dir / "out.json.tmp");
  const mode_t old_mask = ::umask(027);
  write_whole_file(f.string(), "{}\n");
  ::umask(old_mask);
  EXPECT_EQ(read(victim), "precious\n");
  EXPECT_TRUE(fs::is_symlink(dir / "out.json.tmp"));
  EXPECT_FALSE(fs::is_symlink(f));
  EXPECT_EQ(read(f), "{}\n");
  struct stat st;
  ASSERT_EQ(::stat(f.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 3u);  // victim, the planted link, out.json
  fs::remove_all(dir);
}

// /dev/full: every write fails (a full disk). The error says so, and the device stays a
// device: an earlier version renamed its temporary over it (run as root, that replaced
// /dev/full with a regular file).
TEST(OutputFile, AFullDeviceIsAnErrorAndStaysADevice) {
  struct stat st;
  if (::stat("/dev/full", &st) != 0 || !S_ISCHR(st.st_mode)) GTEST_SKIP() << "no /dev/full";
  EXPECT_EQ(error_of("/dev/full", std::string(1 << 16, 'x')), "/dev/full: cannot write: No space left on device");
  ASSERT_EQ(::stat("/dev/full", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  EXPECT_FALSE(fs::exists("/dev/full.tmp"));
}

}  // namespace
}  // namespace easypp::cli
