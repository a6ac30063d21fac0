// How a spec writes numbers. Read: as plain decimals, checked before strtoll/strtod read
// them (they also take leading whitespace, "window= 3", a '+', hexadecimal, "scale=0x10",
// and for an unsigned type a negated value: "seed= -1" became 2^64-1). Written: so they
// read back as the same double (canonical(parse(s)) is s's canonical form).
#ifndef EASYPP_PREDICTOR_NUMBER_TEXT_H
#define EASYPP_PREDICTOR_NUMBER_TEXT_H

#include <cstdio>
#include <cstdlib>
#include <string>
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

// v with %.<precision>g, or with more digits if that does not read back as v (17 always
// does): the canonical specs of values that already round-trip keep their text.
inline std::string number_text(double v, int precision) {
  char buf[64];
  for (int p = precision; p < 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, v);
    if (std::strtod(buf, nullptr) == v) return buf;
  }
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace easypp::predictor

#endif
