#include "core/job.h"

#include <stdexcept>
#include <string>

namespace easypp {

void not_plannable(const Job& job) {
  throw std::invalid_argument("job id=" + std::to_string(job.id) +
                              ": procs=" + std::to_string(job.procs) + ", must be >= 1");
}


}  // namespace easypp
