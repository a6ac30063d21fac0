#include "cli/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

namespace easypp::cli {
namespace {

// The process's umask without changing it (umask(2) can only be read by setting it,
// which races with threads creating files): Linux reports it in /proc/self/status.
mode_t current_umask() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
  }
  const mode_t mask = ::umask(022);
  ::umask(mask);
  return mask;
}

}  // namespace

OutputFile::OutputFile(const std::string& path) : path_(path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    written_ = path;
    file_ = std::fopen(written_.c_str(), "w");
    if (file_ == nullptr) throw std::runtime_error(path_ + ": cannot write: " + std::strerror(errno));
    return;
  }
  // A fresh name per writer, created exclusively: two writers never share a temporary,
  // and a symlink planted at a predictable name is never followed (tools run as root).
  // mkstemp makes 0600: the file gets the mode fopen would have given it (0666 minus the
  // umask), read first, so nothing can throw between mkstemp and fdopen. Best effort: a
  // file system without modes (vfat) keeps what it has.
  const mode_t mode = 0666 & ~current_umask();
  std::string name = path + ".XXXXXX";
  const int fd = ::mkstemp(name.data());
  if (fd < 0) throw std::runtime_error(path_ + ": cannot write: " + std::strerror(errno));
  written_ = name;
  (void)::fchmod(fd, mode);
  if ((file_ = ::fdopen(fd, "w")) == nullptr) {
    const int why = errno;
    ::close(fd);
    ::unlink(written_.c_str());
    throw std::runtime_error(path_ + ": cannot write: " + std::strerror(why));
  }
}

OutputFile::~OutputFile() {
  if (file_ == nullptr) return;
  std::fclose(file_);
  if (written_ != path_) ::unlink(written_.c_str());
}

void OutputFile::commit() {
  const bool in_place = written_ == path_;
  bool written = std::fflush(file_) == 0 && std::ferror(file_) == 0;
  int why = errno;
  // On disk before the rename, so a crash leaves the old file or the whole new one.
  if (written && !in_place && ::fsync(fileno(file_)) != 0) {
    written = false;
    why = errno;
  }
  const int closed = std::fclose(file_);
  if (written && closed != 0) why = errno;
  file_ = nullptr;
  if (!written || closed != 0) {
    if (!in_place) ::unlink(written_.c_str());
    throw std::runtime_error(path_ + ": cannot write: " + std::strerror(why));
  }
  if (!in_place && std::rename(written_.c_str(), path_.c_str()) != 0) {
    why = errno;
    ::unlink(written_.c_str());
    throw std::runtime_error(path_ + ": cannot rename " + written_ + " into place: " + std::strerror(why));
  }
}

void write_whole_file(const std::string& path, const std::string& text) {
  OutputFile out(path);
  std::fwrite(text.data(), 1, text.size(), out.get());  // errors stay in the stream: commit sees them
  out.commit();
}

}  // namespace easypp::cli
