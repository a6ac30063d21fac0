#include "plugin/owed_bootstrap.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
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
  FILE* f = std::fopen(tmp.c_str(), "w");
  bool ok = f && std::fprintf(f, "%lld\n", static_cast<long long>(since)) > 0;
  ok = ok && std::fflush(f) == 0 && ::fsync(fileno(f)) == 0;
  if (f && std::fclose(f) != 0) ok = false;
  if (ok && std::rename(tmp.c_str(), path.c_str()) == 0) return true;
  error = std::strerror(errno);
  std::remove(tmp.c_str());
  return false;
}

OwedMarker read_owed_marker(const std::string& path, time_t now) {
  OwedMarker marker;
  FILE* f = std::fopen(path.c_str(), "r");
  if (!f) return marker;
  marker.found = true;
  long long since = 0;
  char rest = 0;
  const bool read = std::fscanf(f, "%lld %c", &since, &rest) == 1;  // one number only
  std::fclose(f);
  if (read && since > 0 && since <= now) marker.since = static_cast<time_t>(since);
  return marker;
}

}  // namespace easypp::plugin
