// Copying one error line into a caller's (err, errlen) buffer, truncating safely.
#ifndef EASYPP_PREDICTOR_ERROR_BUFFER_H
#define EASYPP_PREDICTOR_ERROR_BUFFER_H

#include <cstddef>
#include <cstring>
#include <string>

namespace easypp::predictor {

inline void set_error(char* err, std::size_t errlen, const std::string& message) {
  if (err == nullptr || errlen == 0) return;
  std::size_t n = message.size() < errlen - 1 ? message.size() : errlen - 1;
  std::memcpy(err, message.data(), n);
  err[n] = '\0';
}

}  // namespace easypp::predictor

#endif
