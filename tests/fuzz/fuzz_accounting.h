// sacct (--parsable2) and jobcomp/filetxt imports (src/tools/record_sources.cpp over the
// predictor's epp_parse_*_line): malformed lines are counted and reported, never fatal;
// every parsed record is learnt by a predictor, which then predicts.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "easypp/predictor.h"
#include "tools/record_sources.cpp"  // easypp-predict's reader (not a library of its own)

inline int fuzz_accounting(const std::uint8_t* data, std::size_t size, easypp::tools::AccountingFormat format) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::ostringstream diag;
  easypp::tools::ReadCounts counts;
  auto records = easypp::tools::read_accounting(in, "input", format, counts, diag);
  if (counts.records != records.size() || counts.records + counts.skipped + counts.malformed != counts.lines)
    __builtin_trap();
  char err[256];
  epp_predictor* p = epp_predictor_new("", err, sizeof err);
  for (const auto& r : records) epp_learn_record(p, &r);
  for (const auto& r : records) {
    epp_job job = r.job;
    if (epp_predict(p, &job) < 1) __builtin_trap();
  }
  epp_predictor_free(p);
  return 0;
}
