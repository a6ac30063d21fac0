#include "core/job.h"

#include <stdexcept>
#include <string>

namespace easypp {

void require_plannable(const Job& job) {
  if (job.procs < 1) {
    throw std::invalid_argument("job id=" + std::to_string(job.id) +
                                ": procs=" + std::to_string(job.procs) + ", must be >= 1");
  }
}

void require_pool(const ClusterState& state, std::string_view policy) {
  if (state.machine == nullptr) return;
  throw std::invalid_argument("policy " + std::string(policy) +
                              " plans one pool of processors, not a machine's nodes "
                              "(the EASY family runs on nodes)");
}

}  // namespace easypp
