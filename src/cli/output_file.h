// The files the tools write are whole or absent: written to a fresh temporary beside their
// place (PATH.XXXXXX, created exclusively, so never through a planted symlink), synced and
// renamed into it, so a failure (a full disk), an interruption or a crash never leaves a
// cut-off file that reads as complete, and a failed write is an error, not a success. The
// file gets mode 0666 minus the umask. A path that exists and is not a regular file
// (/dev/stdout, a pipe, a symbolic link) is written through in place instead: a rename
// would replace it.
#ifndef EASYPP_CLI_OUTPUT_FILE_H
#define EASYPP_CLI_OUTPUT_FILE_H

#include <cstdio>
#include <string>

namespace easypp::cli {

class OutputFile {
 public:
  // Creates PATH.XXXXXX (or opens PATH itself, see above); throws std::runtime_error naming PATH.
  explicit OutputFile(const std::string& path);
  ~OutputFile();  // an uncommitted temporary is removed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::FILE* get() const { return file_; }
  // Flushes, closes and renames into place; throws std::runtime_error naming the file
  // and the reason on any failure (an existing file at the path is then as it was).
  void commit();

 private:
  std::string path_;
  std::string written_;  // the temporary, or PATH when written in place
  std::FILE* file_ = nullptr;
};

// `text` as the whole of `path`, through an OutputFile.
void write_whole_file(const std::string& path, const std::string& text);

}  // namespace easypp::cli

#endif
