// Copying one error line into a caller's (err, errlen) buffer, truncating safely.
#ifndef EASYPP_PREDICTOR_ERROR_BUFFER_H
#define EASYPP_PREDICTOR_ERROR_BUFFER_H

#include <cstddef>
#include <string>

namespace easypp::predictor {

// Messages quote their input (a spec, a state file's bad token, an accounting line): a
// control character there would split the caller's log line (found by fuzzing), so each
// becomes '?'.
inline void set_error(char* err, std::size_t errlen, const std::string& message) {
  if (err == nullptr || errlen == 0) return;
  std::size_t n = message.size() < errlen - 1 ? message.size() : errlen - 1;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(message[i]);
    err[i] = c < 0x20 || c == 0x7f ? '?' : message[i];
  }
  err[n] = '\0';
}

}  // namespace easypp::predictor

#endif
