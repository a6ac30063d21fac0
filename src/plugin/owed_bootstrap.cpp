#include "plugin/owed_bootstrap.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace easypp::plugin {

OwedBootstrap::Failure OwedBootstrap::failed(time_t now, int days) {
  const Failure kind = delay_ == 0 ? Failure::first : Failure::again;
  delay_ = delay_ == 0 ? kFirstRetry : std::min(2 * delay_, kLastRetry);
  next_ = now + delay_;
  // After that long, live learning has seen as long a span as the bootstrap would give.
  if (next_ > since_ + static_cast<time_t>(days) * 86400) return Failure::given_up;
  return kind;
}

bool write_owed_marker(const std::string& path, time_t since, std::string& error) {
  const std::string tmp = path + ".tmp";
  const std::string text = std::to_string(static_cast<long long>(since)) + "\n";
  const auto failed = [&](const char* step) {
    error = std::string(step) + ": " + std::strerror(errno);  // before unlink may change errno
    ::unlink(tmp.c_str());
    return false;
  };
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return failed("cannot create the temporary file");
  if (::write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size()) || ::fsync(fd) != 0) {
    const int saved = errno;
    ::close(fd);
    errno = saved;
    return failed("cannot write the temporary file");
  }
  if (::close(fd) != 0) return failed("cannot close the temporary file");
  if (::rename(tmp.c_str(), path.c_str()) != 0) return failed("cannot rename it into place");
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const int dirfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const bool synced = dirfd >= 0 && ::fsync(dirfd) == 0;
  const int saved = errno;
  if (dirfd >= 0) ::close(dirfd);
  if (!synced) {
    error = std::string("cannot sync the directory: ") + std::strerror(saved);
    return false;
  }
  return true;
}

OwedMarker read_owed_marker(const std::string& path, time_t now) {
  OwedMarker marker;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) return marker;
  // Only a marker that is not there is not owed; one that cannot be read may be.
  marker.found = true;
  std::string text;
  char buf[64];
  ssize_t got = 0;
  while (fd >= 0 && text.size() < 4096 && (got = ::read(fd, buf, sizeof buf)) > 0) text.append(buf, got);
  const int saved = errno;
  if (fd >= 0) ::close(fd);
  if (fd < 0 || got < 0) {
    marker.problem = std::string("cannot be read: ") + std::strerror(saved);
    return marker;
  }
  // One decimal number, whitespace around it allowed (strtoll: overflow is ERANGE).
  const char* begin = text.c_str();
  char* end = nullptr;
  errno = 0;
  const long long since = std::strtoll(begin, &end, 10);
  const bool number = end != begin && errno == 0 &&
                      std::all_of(static_cast<const char*>(end), begin + text.size(),
                                  [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
  if (!number)
    marker.problem = "is not one epoch second";
  else if (since <= 0)
    marker.problem = "holds no time (" + std::to_string(since) + ")";
  else if (since > now)
    marker.problem = "holds a time in the future (" + std::to_string(since) + ")";
  else
    marker.since = static_cast<time_t>(since);
  return marker;
}

}  // namespace easypp::plugin
