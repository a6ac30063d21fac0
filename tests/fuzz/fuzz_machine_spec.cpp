// The simulator's machine description (src/sim/machine_spec.cpp): groups as lines or
// ';'-separated (first byte picks). Bad input throws std::invalid_argument naming the
// place, nothing else.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "sim/machine_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const bool lines = data[0] % 2 == 0;
  try {
    easypp::sim::parse_machine_text(text, lines ? "machine.txt" : "", lines ? '\n' : ';');
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
