// Shared by the libFuzzer harnesses: parsers that take a path get the input through an
// in-memory file (memfd), reached as /proc/self/fd/N, so no file churns on disk.
#ifndef EASYPP_TESTS_FUZZ_SUPPORT_H
#define EASYPP_TESTS_FUZZ_SUPPORT_H

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace easypp::fuzz {

class MemFile {
 public:
  MemFile() : fd_(::memfd_create("easypp-fuzz", MFD_CLOEXEC)) {
    if (fd_ < 0) std::abort();
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  // Replaces the content; returns the path that opens it.
  const std::string& hold(const void* data, std::size_t size) {
    if (::ftruncate(fd_, 0) != 0) std::abort();
    if (size > 0 && ::pwrite(fd_, data, size, 0) != static_cast<ssize_t>(size)) std::abort();
    return path_;
  }

 private:
  int fd_;
  std::string path_;
};

// A process-wide one: harnesses run one input at a time.
inline MemFile& mem_file() {
  static MemFile f;
  return f;
}

}  // namespace easypp::fuzz

#endif
