// The spec keys of paper 003's evaluation predictors: `quant` (quantitative errors,
// section 5.1) and `qual` (qualitative errors, section 5.2). Kept apart from spec.cpp so
// the history keys and these evolve independently; spec.cpp calls in here.
#ifndef EASYPP_PREDICTOR_ERROR_MODEL_SPEC_H
#define EASYPP_PREDICTOR_ERROR_MODEL_SPEC_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace easypp::predictor {

// Jobs a quant predictor predicts almost perfectly (the rest get the error); paper 003
// section 5.1, categories 1-11, in its order.
enum class Category {
  HighProcessors,
  LowProcessors,
  Short,
  Large,
  HighArea,
  LowArea,
  MoreExecutedApplications,
  LowProcessorsLowRuntime,
  NotSmall,
  PureEqual,
  Equal
};

// Which jobs a qual predictor mispredicts as the other kind (section 5.2).
enum class Conversion { ShortToLarge, LargeToShort, Both };

struct ErrorModelSpec {
  Category category = Category::PureEqual;
  double error = 0;      // quant: alpha ~ N(error, stdev), percent of the runtime
  double stdev = 0;      // quant and qual
  double accurate = 50;  // quant category=equal: percent of jobs picked for near-perfect
  Conversion conversion = Conversion::Both;
  double percent = 0;  // qual: beta ~ N(percent, stdev), percent of short/large jobs hit
  // Deadline missed: a job that reaches its prediction gets extend % of it more (at least
  // a minute). Negative until parsed: quant defaults to `error`, qual to 100.
  double extend = -1;
  double lb_factor = 0.05;  // lb = ub x lb_factor
  std::uint64_t seed = 1;
};

// Keys each kind accepts (qual = true for `qual`).
std::vector<std::string_view> error_model_keys(bool qual);

// Parses one key of a quant/qual spec into `m`. False for a bad value, with `choices`
// describing what is allowed.
bool parse_error_model_key(ErrorModelSpec& m, std::string_view key, std::string_view value, std::string& choices);

// Fills in the defaults that depend on other keys (extend). Call after all keys.
void finish_error_model(ErrorModelSpec& m, bool qual);

// "quant:category=...,..." / "qual:kind=...,..." with every key spelled out.
std::string canonical_error_model(const ErrorModelSpec& m, bool qual);

const char* category_name(Category c);

}  // namespace easypp::predictor

#endif
