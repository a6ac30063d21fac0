#include "fuzz_accounting.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return fuzz_accounting(data, size, easypp::tools::AccountingFormat::Sacct);
}
