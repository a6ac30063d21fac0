// The exclusive flock on DIR/results.csv that marks a directory as being written by one
// easypp-sweep: a sweep holds it while it appends, merge while it replaces the file.
#ifndef EASYPP_SWEEP_RESULTS_LOCK_H
#define EASYPP_SWEEP_RESULTS_LOCK_H

#include <string>

namespace easypp::sweep {

class ResultsLock {
 public:
  // Opens `path` with open(2) `flags` (mode 0644 if created) and takes the flock without
  // waiting. Throws std::runtime_error "PATH: in use by another easypp-sweep (flock held)"
  // if another process holds it, or naming the path and errno on any other failure.
  ResultsLock(const std::string& path, int flags);
  ~ResultsLock();
  ResultsLock(const ResultsLock&) = delete;
  ResultsLock& operator=(const ResultsLock&) = delete;

  int fd() const { return fd_; }

 private:
  int fd_ = -1;
};

}  // namespace easypp::sweep

#endif
