#include "replay/slice.h"

#include <string>

namespace easypp::replay {

swf::Trace select_slice(const swf::Trace& trace, const SliceOptions& o) {
  if (o.jobs == 0 || o.jobs < -1) {
    throw std::invalid_argument("jobs=" + std::to_string(o.jobs) + ": must be >= 1");
  }
  if (o.window_start >= 0 && o.window_end >= 0 && o.window_end <= o.window_start) {
    throw std::invalid_argument("window=" + std::to_string(o.window_start) + ":" +
                                std::to_string(o.window_end) + ": end must be after start");
  }
  swf::Trace out;
  out.path = trace.path;
  out.header = trace.header;
  out.skipped_lines = trace.skipped_lines;
  bool started = o.first_job < 0;
  for (const swf::Record& r : trace.records) {
    if (!started) {
      // Records are sorted by submit, not by number: a larger number may come before K,
      // so start at the record carrying K itself.
      if (r.job_number != o.first_job) continue;
      started = true;
    }
    if (o.window_start >= 0 && r.submit < o.window_start) continue;
    if (o.window_end >= 0 && r.submit >= o.window_end) continue;
    out.records.push_back(r);
    if (o.jobs > 0 && static_cast<std::int64_t>(out.records.size()) >= o.jobs) break;
  }
  if (!started) {
    throw std::invalid_argument(trace.path + ": first-job=" + std::to_string(o.first_job) + ": no job " +
                                std::to_string(o.first_job) + " in the trace");
  }
  if (out.records.empty()) {
    std::string what = trace.path + ": the slice is empty (";
    what += "first-job=" + std::to_string(o.first_job) + ", jobs=" + std::to_string(o.jobs);
    if (o.window_start >= 0 || o.window_end >= 0) {
      what += ", window=" + std::to_string(o.window_start) + ":" + std::to_string(o.window_end);
    }
    throw std::invalid_argument(what + ")");
  }
  return out;
}

}  // namespace easypp::replay
