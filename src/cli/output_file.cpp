#include "cli/output_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace easypp::cli {

OutputFile::OutputFile(const std::string& path) : path_(path), written_(path + ".tmp") {
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) written_ = path;
  file_ = std::fopen(written_.c_str(), "w");
  if (file_ == nullptr) throw std::runtime_error(path_ + ": cannot write: " + std::strerror(errno));
}

OutputFile::~OutputFile() {
  if (file_ == nullptr) return;
  std::fclose(file_);
  if (written_ != path_) std::remove(written_.c_str());
}

void OutputFile::commit() {
  const bool flushed = std::fflush(file_) == 0 && std::ferror(file_) == 0;
  const int flush_errno = errno;
  const int closed = std::fclose(file_);
  const int close_errno = errno;
  file_ = nullptr;
  const bool in_place = written_ == path_;
  if (!flushed || closed != 0) {
    if (!in_place) std::remove(written_.c_str());
    throw std::runtime_error(path_ + ": cannot write: " + std::strerror(!flushed ? flush_errno : close_errno));
  }
  if (!in_place && std::rename(written_.c_str(), path_.c_str()) != 0) {
    const int why = errno;
    std::remove(written_.c_str());
    throw std::runtime_error(path_ + ": cannot rename " + written_ + " into place: " + std::strerror(why));
  }
}

void write_whole_file(const std::string& path, const std::string& text) {
  OutputFile out(path);
  std::fwrite(text.data(), 1, text.size(), out.get());  // errors stay in the stream: commit sees them
  out.commit();
}

}  // namespace easypp::cli
