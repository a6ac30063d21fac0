#include "sweep/results_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
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
  // The file locked must still be the one at `path`: a merge may have renamed a new one
  // into place between the open and the lock (writes would go to the old, unlinked one).
  struct stat held, named;
  if (::fstat(fd_, &held) != 0 || ::stat(path.c_str(), &named) != 0 ||
      held.st_dev != named.st_dev || held.st_ino != named.st_ino) {
    close(fd_);
    fd_ = -1;
    throw std::runtime_error(path + ": replaced while it was being locked (an easypp-sweep merge?); run again");
  }
}

ResultsLock::~ResultsLock() {
  if (fd_ >= 0) close(fd_);
}

}  // namespace easypp::sweep
