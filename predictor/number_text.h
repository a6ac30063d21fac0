// Whether a spec value is written as a plain decimal number, before strtoll/strtod read
// it: they also take leading whitespace ("window= 3"), a '+', hexadecimal ("scale=0x10")
// and, for an unsigned type, a negated value ("seed= -1" became 2^64-1), none of which a
// spec means.
#ifndef EASYPP_PREDICTOR_NUMBER_TEXT_H
#define EASYPP_PREDICTOR_NUMBER_TEXT_H

#include <string_view>

namespace easypp::predictor {

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Digits, with a leading '-' if `negative_allowed`.
inline bool is_plain_integer(std::string_view text, bool negative_allowed) {
  if (negative_allowed && !text.empty() && text.front() == '-') text.remove_prefix(1);
  if (text.empty()) return false;
  for (const char c : text)
    if (!is_digit(c)) return false;
  return true;
}

// An optional '-', then a digit or '.', then digits, '.', and an exponent's e, E, + and -
// (strtod then checks the arrangement: it must read the whole text).
inline bool is_plain_real(std::string_view text) {
  if (!text.empty() && text.front() == '-') text.remove_prefix(1);
  if (text.empty() || !(is_digit(text.front()) || text.front() == '.')) return false;
  for (const char c : text)
    if (!(is_digit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) return false;
  return true;
}

}  // namespace easypp::predictor

#endif
