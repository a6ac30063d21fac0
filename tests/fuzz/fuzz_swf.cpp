// SWF reader (src/sim/swf.cpp) on any bytes, plain text (zlib passes non-gzip through):
// it may throw ParseError naming FILE:LINE, nothing else, and never crash.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.h"
#include "sim/swf.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = easypp::fuzz::mem_file().hold(data, size);
  for (bool skip_bad : {false, true}) {
    try {
      easypp::swf::Trace t = easypp::swf::read(path, {skip_bad});
      for (std::size_t i = 1; i < t.records.size(); ++i)
        if (t.records[i].submit < t.records[i - 1].submit) __builtin_trap();  // promised sorted
    } catch (const easypp::swf::ParseError&) {
      if (skip_bad) __builtin_trap();  // skip_bad only throws for an unreadable file
    }
  }
  return 0;
}
