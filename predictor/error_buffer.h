// Copying one error line into a caller's (err, errlen) buffer, truncating safely.
#ifndef EASYPP_PREDICTOR_ERROR_BUFFER_H
#define EASYPP_PREDICTOR_ERROR_BUFFER_H

#include <cstddef>
#include <string_view>

namespace easypp::predictor {

// Messages quote their input (a spec, a state file's bad token, an accounting line): a
// control character there would split the caller's log line (found by fuzzing), so each
// becomes '?'. Never allocates: catch handlers call it when memory has run out.
inline void set_error(char* err, std::size_t errlen, std::string_view message) noexcept {
  if (err == nullptr || errlen == 0) return;
  std::size_t n = message.size() < errlen - 1 ? message.size() : errlen - 1;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(message[i]);
    err[i] = c < 0x20 || c == 0x7f ? '?' : message[i];
  }
  err[n] = '\0';
}

// "<context>: <what>", the same way, without building the string (an exception's message
// in a catch handler: joining them with std::string could throw again, out of the C ABI).
inline void set_error(char* err, std::size_t errlen, std::string_view context, std::string_view what) noexcept {
  if (err == nullptr || errlen == 0) return;
  set_error(err, errlen, context);
  std::size_t n = context.size() < errlen - 1 ? context.size() : errlen - 1;
  for (std::string_view part : {std::string_view(": "), what}) {
    set_error(err + n, errlen - n, part);
    n += part.size() < errlen - 1 - n ? part.size() : errlen - 1 - n;
  }
}

}  // namespace easypp::predictor

#endif
