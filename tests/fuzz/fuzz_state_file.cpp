// The predictor's state file (predictor/state_file.cpp) on any bytes: parse_state either
// rejects it with a reason or fills a model that then predicts; never crashes, and a
// rejected document leaves the model as it was. The first byte picks the spec (the
// extended window type reads the by_estimate table, learned the schema-2 model).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime_model.h"
#include "spec.h"
#include "state_file.h"

using namespace easypp::predictor;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  static const char* const kSpecs[] = {"", "history:type=extended,window=3", "history:fallback=relative",
                                       "last", "learned"};
  std::string error;
  auto spec = parse_spec(kSpecs[data[0] % 5], error);
  if (!spec) __builtin_trap();
  RuntimeModel model(*spec);
  std::string why, where;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  ParseOutcome outcome = parse_state(text, model, why, where);
  if (outcome != ParseOutcome::Ok) {
    if (why.empty() || model.users() != 0) __builtin_trap();
    return 0;
  }
  // Collected first: a prediction may add a user to the model.
  std::vector<epp_job> jobs;
  model.for_each_history([&](std::uint32_t uid, const UserHistory& h) {
    epp_job job{};
    job.user_id = uid;
    job.estimate = h.recent.size() ? h.recent.newest().estimate : 60;
    job.procs = 1;
    job.runtime = -1;
    jobs.push_back(job);
  });
  for (const epp_job& job : jobs)
    if (model.predict(job) < 1) __builtin_trap();
  return 0;
}
