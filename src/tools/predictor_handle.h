// easypp-predict's owning handle over the predictor C ABI (the only predictor there is).
#ifndef EASYPP_TOOLS_PREDICTOR_HANDLE_H
#define EASYPP_TOOLS_PREDICTOR_HANDLE_H

#include <memory>
#include <stdexcept>
#include <string>

#include "easypp/predictor.h"

namespace easypp::tools {

struct PredictorFree {
  void operator()(epp_predictor* p) const { epp_predictor_free(p); }
};
using PredictorHandle = std::unique_ptr<epp_predictor, PredictorFree>;

// Thrown for a bad --predictor spec; what() is the library's one-line message.
class SpecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline PredictorHandle make_predictor(const std::string& spec) {
  char err[512] = "";
  PredictorHandle p(epp_predictor_new(spec.c_str(), err, sizeof err));
  if (!p) throw SpecError(err);
  return p;
}

}  // namespace easypp::tools

#endif
