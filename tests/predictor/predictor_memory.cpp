// The predictor's memory after many jobs (issue 17, point 5): each scenario runs in a
// fresh child process, teaches JOBS ended jobs spread over USERS users through the C ABI,
// and reports the heap in use (mallinfo2), the peak RSS (getrusage) before and after one
// save, the history records kept and the state file's size. Not a test (numbers depend on the allocator): run by
// `make bench`, or directly: predictor/predictor_memory [JOBS_SCALE]. The results are in
// doc/results/reliability/resource-bounds.md.
#include <malloc.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "easypp/predictor.h"

namespace {

struct Scenario {
  const char* name;
  const char* spec;
  long jobs;
  long users;
  long estimates;  // distinct estimates per user (the extended table keeps up to 64)
};

// Deterministic pseudo-random numbers (splitmix64), so every run teaches the same jobs.
std::uint64_t next(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void run(const Scenario& sc) {
  const std::size_t heap0 = mallinfo2().uordblks;
  char err[256];
  epp_predictor* p = epp_predictor_new(sc.spec, err, sizeof err);
  if (p == nullptr) {
    std::fprintf(stderr, "%s: %s\n", sc.spec, err);
    std::exit(1);
  }
  std::uint64_t seed = 17;
  std::int64_t now = 1000000;
  for (long j = 0; j < sc.jobs; ++j) {
    epp_job job{};
    job.job_id = static_cast<std::uint64_t>(j + 1);
    job.user_id = static_cast<std::uint32_t>(j < sc.users ? j : next(seed) % sc.users);  // every user appears
    job.estimate = 600 * static_cast<std::int64_t>(1 + next(seed) % sc.estimates);
    job.procs = 1;
    job.submit = now;
    const std::int64_t runtime = 1 + static_cast<std::int64_t>(next(seed) % job.estimate);
    now += 7;
    epp_learn(p, &job, now, now + runtime, EPP_END_COMPLETED);
  }
  const std::size_t heap = mallinfo2().uordblks - heap0;
  struct rusage before_save;
  getrusage(RUSAGE_SELF, &before_save);
  char path[] = "/tmp/epp-memory-XXXXXX";
  int fd = mkstemp(path);
  close(fd);
  long file_bytes = -1;
  if (epp_save(p, path, err, sizeof err) == 0) {
    struct stat st;
    if (stat(path, &st) == 0) file_bytes = st.st_size;
  }
  unlink(path);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  const std::size_t users = epp_predictor_users(p), records = epp_predictor_records(p);
  std::printf("| %s | %ld | %ld | %zu | %zu | %.1f | %.0f | %.1f | %.1f | %.1f | %.1f |\n", sc.name, sc.jobs, sc.users,
              users, records, static_cast<double>(records) / static_cast<double>(users),
              static_cast<double>(heap) / static_cast<double>(users), static_cast<double>(heap) / 1048576.0,
              static_cast<double>(before_save.ru_maxrss) / 1024.0, static_cast<double>(ru.ru_maxrss) / 1024.0,
              static_cast<double>(file_bytes) / 1048576.0);
  epp_predictor_free(p);
}

}  // namespace

int main(int argc, char** argv) {
  const long scale = argc > 1 ? std::atol(argv[1]) : 1;  // 2: twice the jobs, same users
  const Scenario scenarios[] = {
      {"history, 1,000 users", "", 100000 * scale, 1000, 8},
      {"history, 10,000 users", "", 100000 * scale, 10000, 8},
      {"history, every job a new user", "", 100000 * scale, 100000 * scale, 8},
      {"extended, 1,000 users, 100 estimates each", "history:type=extended,window=30", 100000 * scale, 1000, 100},
  };
  std::printf("| scenario | jobs | users | users kept | records | records/user | heap bytes/user | heap MB "
              "| peak RSS MB before save | peak RSS MB after save | state file MB |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  std::fflush(stdout);
  for (const Scenario& sc : scenarios) {
    pid_t pid = fork();  // a fresh process each: peak RSS is the scenario's own
    if (pid == 0) {
      run(sc);
      std::fflush(stdout);
      _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 1;
  }
  return 0;
}
