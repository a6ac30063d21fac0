// SWF reader (src/sim/swf.cpp) on any bytes, plain text (zlib passes non-gzip through):
// it may throw ParseError naming FILE:LINE, nothing else, and never crash. With skip_bad
// only a file-level error may be thrown (FILE:0: cannot open / read error, e.g. bytes that
// start like gzip but are no valid stream: a finding of session 4's run, in the seeds).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_support.h"
#include "sim/swf.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = easypp::fuzz::mem_file().hold(data, size);
  for (bool skip_bad : {false, true}) {
    try {
      easypp::swf::Trace t = easypp::swf::read(path, {skip_bad});
      for (std::size_t i = 1; i < t.records.size(); ++i)
        if (t.records[i].submit < t.records[i - 1].submit) __builtin_trap();  // promised sorted
    } catch (const easypp::swf::ParseError& e) {
      // skip_bad only throws for an unreadable file.
      if (skip_bad && std::string_view(e.what()).find(path + ":0: ") != 0) __builtin_trap();
    }
  }
  return 0;
}
