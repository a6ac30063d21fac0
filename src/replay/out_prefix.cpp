#include "replay/out_prefix.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace easypp::replay {

void check_out_prefix(const std::string& prefix) {
  const auto slash = prefix.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : prefix.substr(0, slash);
  const std::string what = "--out " + prefix + ": directory " + dir;
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0) throw std::invalid_argument(what + ": " + std::strerror(errno));
  if (!S_ISDIR(st.st_mode)) throw std::invalid_argument(what + ": not a directory");
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    throw std::invalid_argument(what + ": not writable: " + std::strerror(errno));
  }
}

}  // namespace easypp::replay
