// The command-line conventions every easypp tool shares: "--opt value" and "--opt=value",
// flags that take no value, and every bad value reported as "--opt=value: reason" (a
// UsageError; the tool prints it with its usage and exits with its usage code).
#ifndef EASYPP_CLI_COMMAND_LINE_H
#define EASYPP_CLI_COMMAND_LINE_H

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace easypp::cli {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Walks argv one argument at a time:
//
//   for (OptionScanner s(args, 1); s.next();) {
//     if (s.is("--trace")) o.trace = s.value();
//     else if (s.is("--quiet")) { s.flag(); o.quiet = true; }
//     else if (s.is_option()) s.unknown();
//     else o.files.push_back(s.arg());
//   }
class OptionScanner {
 public:
  // Starts before args[first] (argv[0], or a subcommand, is skipped by the caller's choice).
  OptionScanner(const std::vector<std::string>& args, std::size_t first);

  // Moves to the next argument; false when none is left.
  bool next();
  // The current argument: an option's name without "=value", or a positional argument.
  const std::string& arg() const { return name_; }
  bool is(const char* option) const { return name_ == option; }
  // Starts with "-" and is not just "-" (standard input).
  bool is_option() const;
  // The option's value: the text after "=", else the next argument.
  std::string value();
  // The current option takes no value: "--flag=x" is an error.
  void flag() const;
  // Every argument after the current one, consumed (e.g. arguments passed on to sacct).
  std::vector<std::string> rest();

  [[noreturn]] void bad(const std::string& value, const std::string& why) const;
  [[noreturn]] void unknown() const;

 private:
  const std::vector<std::string>& args_;
  std::size_t i_;
  std::string name_, inline_value_;
  bool has_inline_value_ = false;
};

// "option=value: expected an integer in [min, max]" unless value is one.
std::int64_t parse_integer(const std::string& option, const std::string& value, std::int64_t min,
                           std::int64_t max);
// A finite number > min (strictly) or >= min; "option=value: expected a number > min".
double parse_number(const std::string& option, const std::string& value, double min,
                    bool min_allowed);

// A tool's exit status once what it wrote to standard output is flushed: output that
// could not be written (a full disk) turns a status of 0 into 1, with one line on
// stderr naming the program, never a success over a cut-off result.
int exit_status_after_output(const char* program, int status);

}  // namespace easypp::cli

#endif
