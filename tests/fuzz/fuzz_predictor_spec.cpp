// Predictor spec strings ("kind[:key=value,...]", predictor/spec.cpp): epp_predictor_new
// either fails with one error line or gives a predictor whose canonical spec parses back
// to itself, and which predicts, corrects and learns without crashing.
#include <cstddef>
#include <cstdint>
#include <string>

#include "easypp/predictor.h"
#include "spec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (text.find('\0') != std::string::npos) return 0;  // a C string in the API
  // Through the C ABI (what the plugin and the tools call): its error is one line.
  char err[256];
  epp_predictor* p = epp_predictor_new(text.c_str(), err, sizeof err);
  std::string error;
  auto spec = easypp::predictor::parse_spec(text.c_str(), error);
  if ((p == nullptr) != !spec) __builtin_trap();
  if (!spec) {
    if (err[0] == '\0') __builtin_trap();
    for (const char* c = err; *c; ++c)
      if (static_cast<unsigned char>(*c) < 0x20) __builtin_trap();
    return 0;
  }
  const std::string canon = easypp::predictor::canonical(*spec);
  auto again = easypp::predictor::parse_spec(canon.c_str(), error);
  if (!again || easypp::predictor::canonical(*again) != canon) __builtin_trap();

  epp_job job{};
  job.job_id = 1;
  job.user_id = 7;
  job.submit = 1000;
  job.estimate = 3600;
  job.procs = 4;
  job.runtime = 1200;
  for (int i = 0; i < 4; ++i) {
    job.job_id = static_cast<std::uint64_t>(i + 1);
    const std::int64_t pred = epp_predict(p, &job);
    if (pred < 1) __builtin_trap();
    epp_correct(p, &job, pred, pred, i);
    epp_learn(p, &job, 2000 + i * 5000, 3200 + i * 5000, EPP_END_COMPLETED);
  }
  epp_predictor_free(p);
  return 0;
}
