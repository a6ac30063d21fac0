// SWF reader on gzip input. The first byte picks the mode: 0 gzip-compresses the rest (SWF
// content through a valid stream), 1 compresses it and cuts the stream where byte 2 says
// (a truncated download), else the rest follows a gzip magic as is (a corrupt stream).
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.h"
#include "sim/swf.h"

namespace {

std::string gzip(const std::uint8_t* data, std::size_t size) {
  z_stream z{};
  if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) __builtin_trap();
  std::string out(deflateBound(&z, size) + 32, '\0');
  z.next_in = const_cast<Bytef*>(data);
  z.avail_in = static_cast<uInt>(size);
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) __builtin_trap();
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2 || size > (1u << 20)) return 0;
  std::string file;
  const std::uint8_t mode = data[0] % 3;
  if (mode == 0) {
    file = gzip(data + 1, size - 1);
  } else if (mode == 1) {
    file = gzip(data + 2, size - 2);
    file.resize(file.size() * data[1] / 256);
  } else {
    file = std::string("\x1f\x8b\x08", 3) + std::string(reinterpret_cast<const char*>(data + 1), size - 1);
  }
  const std::string& path = easypp::fuzz::mem_file().hold(file.data(), file.size());
  try {
    easypp::swf::read(path, {true});
  } catch (const easypp::swf::ParseError&) {
  }
  return 0;
}
