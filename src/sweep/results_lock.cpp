#include "sweep/results_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace easypp::sweep {

ResultsLock::ResultsLock(const std::string& path, int flags) {
  fd_ = open(path.c_str(), flags | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
  if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int saved = errno;
    close(fd_);
    fd_ = -1;
    if (saved == EWOULDBLOCK) {
      throw std::runtime_error(path + ": in use by another easypp-sweep (flock held)");
    }
    throw std::runtime_error(path + ": cannot lock: " + std::strerror(saved));
  }
}

ResultsLock::~ResultsLock() {
  if (fd_ >= 0) close(fd_);
}

}  // namespace easypp::sweep
