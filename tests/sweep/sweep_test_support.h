// Helpers for the sweep tests: a temporary directory, and a small synthetic SWF trace
// whose users repeat a few estimates, so every window type, fullness and fallback of the
// predictor changes some prediction.
#ifndef EASYPP_TESTS_SWEEP_SUPPORT_H
#define EASYPP_TESTS_SWEEP_SUPPORT_H

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>

namespace easypp::sweep::testing {

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "easypp-sweep-test-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Writes `jobs` jobs for a 64-processor machine: 12 users, each with 3 habitual
// estimates, runtimes from 2% to 100% of the estimate, about 5% failed and 5% cancelled
// jobs, arrivals loading the machine to roughly 90%.
inline void write_synthetic_swf(const std::string& path, int jobs, std::uint32_t seed = 7) {
  std::mt19937 rng(seed);
  auto pick = [&](std::uint32_t n) { return static_cast<std::int64_t>(rng() % n); };
  const std::int64_t estimates[] = {300, 900, 1800, 3600, 7200, 14400};
  const int sizes[] = {1, 2, 4, 8, 16, 32};
  std::ostringstream out;
  out << "; Synthetic trace for easypp-sweep tests\n; MaxProcs: 64\n";
  std::int64_t submit = 0;
  for (int j = 1; j <= jobs; ++j) {
    submit += pick(900);
    const std::int64_t user = pick(12) + 1;
    // A user's three habitual estimates: a deterministic function of the user.
    const std::int64_t estimate = estimates[(user + pick(3) * 2) % 6];
    const std::int64_t runtime = std::max<std::int64_t>(1, estimate * (2 + pick(99)) / 100);
    const int procs = sizes[pick(6)];
    const std::uint32_t s = static_cast<std::uint32_t>(pick(20));
    const int status = s == 0 ? 0 : s == 1 ? 5 : 1;
    out << j << " " << submit << " -1 " << runtime << " " << procs << " -1 -1 " << procs << " "
        << estimate << " -1 " << status << " " << user << " 1 -1 1 1 -1 -1\n";
  }
  std::ofstream f(path);
  f << out.str();
  if (!f.flush()) throw std::runtime_error("cannot write " + path);
}

// A shell command's exit status (as pclose gives it) and its stdout and stderr together.
struct Finished {
  int status = -1;
  std::string out;
};

inline Finished run(const std::string& command) {
  Finished r;
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  std::size_t n = 0;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  r.status = pclose(p);
  return r;
}

// A whole file, bytes as they are ("" if it cannot be read).
inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace easypp::sweep::testing

#endif
