#include "core/lxfw_backfill.h"

#include <utility>

namespace easypp {

LxfwBackfillPolicy::LxfwBackfillPolicy(std::string name, PolicyTraits traits, double weight_per_hour)
    : name_(std::move(name)), traits_(std::move(traits)), lxfw_order_(weight_per_hour) {
  traits_.honours_reservable = true;
  rules_.reservation_order = &queue_order_;
  rules_.backfill_order = &lxfw_order_;
  rules_.fit = BackfillFit::prediction;
}

Decision LxfwBackfillPolicy::plan(const ClusterState& state) {
  Decision decision;
  pass_.run(state, rules_, decision);
  return decision;
}

}  // namespace easypp
