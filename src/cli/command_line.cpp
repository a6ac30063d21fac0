#include "cli/command_line.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace easypp::cli {

OptionScanner::OptionScanner(const std::vector<std::string>& args, std::size_t first)
    : args_(args), i_(first) {}

bool OptionScanner::next() {
  if (i_ >= args_.size()) return false;
  name_ = args_[i_++];
  inline_value_.clear();
  has_inline_value_ = false;
  // Only long options carry "=value"; a positional argument may contain '=' freely.
  if (const auto eq = name_.find('='); name_.rfind("--", 0) == 0 && eq != std::string::npos) {
    inline_value_ = name_.substr(eq + 1);
    name_.resize(eq);
    has_inline_value_ = true;
  }
  return true;
}

bool OptionScanner::is_option() const { return name_.size() > 1 && name_[0] == '-'; }

std::string OptionScanner::value() {
  if (has_inline_value_) return inline_value_;
  if (i_ >= args_.size()) throw UsageError(name_ + ": needs a value");
  return args_[i_++];
}

void OptionScanner::flag() const {
  if (has_inline_value_) bad(inline_value_, "takes no value");
}

std::vector<std::string> OptionScanner::rest() {
  std::vector<std::string> out(args_.begin() + static_cast<std::ptrdiff_t>(i_), args_.end());
  i_ = args_.size();
  return out;
}

void OptionScanner::bad(const std::string& value, const std::string& why) const {
  throw UsageError(name_ + "=" + value + ": " + why);
}

void OptionScanner::unknown() const {
  throw UsageError(name_ + ": unknown option (see --help)");
}

std::int64_t parse_integer(const std::string& option, const std::string& value, std::int64_t min,
                           std::int64_t max) {
  std::int64_t x = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), x);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size() || x < min ||
      x > max) {
    throw UsageError(option + "=" + value + ": expected an integer in [" + std::to_string(min) +
                     ", " + std::to_string(max) + "]");
  }
  return x;
}

double parse_number(const std::string& option, const std::string& value, double min,
                    bool min_allowed) {
  double x = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), x);
  const bool ok = !value.empty() && ec == std::errc() && end == value.data() + value.size() &&
                  std::isfinite(x) && (min_allowed ? x >= min : x > min);
  if (!ok) {
    char bound[32];
    std::snprintf(bound, sizeof bound, "%g", min);
    throw UsageError(option + "=" + value + ": expected a number " + (min_allowed ? ">= " : "> ") +
                     bound);
  }
  return x;
}

int exit_status_after_output(const char* program, int status) {
  std::cout.flush();
  const bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
  if (!failed) return status;
  const int saved = errno;
  std::fprintf(stderr, "%s: cannot write the output: %s\n", program,
               saved != 0 ? std::strerror(saved) : "write error");
  return status == 0 ? 1 : status;
}

}  // namespace easypp::cli
