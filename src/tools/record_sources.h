// Where accounting records come from: sacct (run or saved), jobcomp/filetxt, SWF traces.
#ifndef EASYPP_TOOLS_RECORD_SOURCES_H
#define EASYPP_TOOLS_RECORD_SOURCES_H

#include <cstddef>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

#include "easypp/predictor.h"
#include "sim/swf.h"

namespace easypp::tools {

struct ReadCounts {
  std::size_t lines = 0;      // lines (or SWF records) read
  std::size_t records = 0;    // ended jobs parsed
  std::size_t skipped = 0;    // steps, unfinished jobs, unknown limits, no estimate
  std::size_t malformed = 0;  // lines that did not parse (each reported as FILE:LINE)
};

// The source could not be read at all (missing file, sacct failed); what() says why.
class SourceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class AccountingFormat { Sacct, Jobcomp };

// Parses every line; malformed ones are reported on `diag` as "NAME:LINE: message".
std::vector<epp_record> read_accounting(std::istream& in, const std::string& name, AccountingFormat format,
                                        ReadCounts& counts, std::ostream& diag);
std::vector<epp_record> read_accounting_file(const std::string& path, AccountingFormat format, ReadCounts& counts,
                                             std::ostream& diag);

// The sacct command line easypp-predict runs: the fixed --format plus the user's args.
std::vector<std::string> sacct_command(const std::vector<std::string>& user_args);
// Runs sacct (program from $EASYPP_SACCT, default "sacct") and parses its output.
std::vector<epp_record> run_sacct(const std::vector<std::string>& user_args, ReadCounts& counts, std::ostream& diag);

// One SWF record as an ended job; false if it has no usable estimate or times.
// Status: 1 completed, 0 failed, 5 cancelled, anything else (unknown) completed.
bool swf_to_record(const swf::Record& in, epp_record& out);
// Times are shifted by the header's UnixStartTime (when given) to epoch seconds.
std::vector<epp_record> read_swf(const std::string& path, ReadCounts& counts, std::ostream& diag);

}  // namespace easypp::tools

#endif
