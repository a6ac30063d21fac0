// The sweep's results file and its settings (src/sweep/results_file.cpp): a bad line
// throws std::runtime_error naming PATH:LINE, nothing else; rows read back format to the
// same line. The first byte picks results.csv (even) or sweep.conf (odd).
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "fuzz_support.h"
#include "sweep/results_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::string& path = easypp::fuzz::mem_file().hold(data + 1, size - 1);
  try {
    if (data[0] % 2 == 0) {
      easypp::sweep::ResultsContent c = easypp::sweep::read_results(path);
      if (c.complete_bytes > size - 1) __builtin_trap();
      for (const auto& row : c.rows) easypp::sweep::format_row(row);
    } else {
      easypp::sweep::SweepSettings s;
      if (easypp::sweep::read_settings(path, s)) easypp::sweep::settings_conflict(s, s);
    }
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()).rfind(path + ":", 0) != 0) __builtin_trap();  // names the place
  }
  return 0;
}
