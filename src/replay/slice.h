// Which records of a trace a replay uses: a run of consecutive jobs (from an SWF job
// number, N of them) and/or a window of submit times. Records keep their trace order.
#ifndef EASYPP_REPLAY_SLICE_H
#define EASYPP_REPLAY_SLICE_H

#include <cstdint>
#include <stdexcept>

#include "core/job.h"
#include "sim/swf.h"

namespace easypp::replay {

struct SliceOptions {
  std::int64_t first_job = -1;  // the SWF job number to start at (-1: from the start)
  std::int64_t jobs = -1;       // at most this many records (-1: all)
  Time window_start = -1;       // submit >= window_start (trace seconds; -1: unbounded)
  Time window_end = -1;         // submit < window_end (-1: unbounded)
};

// The selected records, in trace order; header kept. Throws std::invalid_argument
// (naming the option and value) when the options contradict each other or select nothing.
swf::Trace select_slice(const swf::Trace& trace, const SliceOptions& options);

}  // namespace easypp::replay

#endif
