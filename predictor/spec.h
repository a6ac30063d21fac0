// A predictor specification: the parsed form of "kind[:key=value,...]".
#ifndef EASYPP_PREDICTOR_SPEC_H
#define EASYPP_PREDICTOR_SPEC_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "error_model_spec.h"
#include "learned_spec.h"

namespace easypp::predictor {

// Quant and Qual: paper 003's evaluation predictors (error_model_spec.h); simulation only.
// Learned: the online linear model (learned_spec.h).
enum class Kind { History, Last, Estimate, Double, Perfect, Quant, Qual, Learned };
// Which recent runs of the user form the window (paper 000, section 7).
enum class WindowType { All, Immediate, Extended };
enum class Fullness { Partial, Full };
enum class Metric { Avg, Median, Min, Max };
enum class Fallback { Estimate, Relative };
// Extend: the deadline-missed rule of quant/qual (paper 003), not selectable by key.
enum class Correction { Estimate, Gradual, Exponential, Extend };
// Which ended jobs teach the history (see predictor/README.md).
enum class Learn { All, Finished, Completed };

inline constexpr int kMaxWindow = 30;

struct Spec {
  Kind kind = Kind::History;
  int window = 2;
  WindowType type = WindowType::All;
  Fullness fullness = Fullness::Partial;
  Metric metric = Metric::Avg;
  Fallback fallback = Fallback::Estimate;
  bool propagation = false;
  Correction correction = Correction::Estimate;
  // Multiplies every prediction and its ceiling (X2-style doubling: scale=2).
  double scale = 1.0;
  Learn learn = Learn::Finished;
  // With learn=finished, a failed job teaches only if it ran at least this long.
  std::int64_t failed_min = 60;
  // Kinds quant and qual only.
  ErrorModelSpec error_model{};
  // Kind learned only.
  LearnedSpec learned{};
};

inline bool is_error_model(Kind k) { return k == Kind::Quant || k == Kind::Qual; }

// Parses a spec; NULL/"" is the default. Items may be separated by ',' or ';' (the
// latter so a spec fits in Slurm's comma-separated SchedulerParameters). On error returns nullopt and sets `error` to one
// line "predictor spec: key=value: reason (allowed: ...)".
std::optional<Spec> parse_spec(const char* text, std::string& error);

// Whether some kind's spec reads `key` (window, metric, eta, seed, ...): the keys
// parse_spec accepts after "kind:", from the same per-kind lists it checks them against.
bool is_spec_key(std::string_view key);

// Every key spelled out, in a fixed order; parse_spec(canonical(s)) == s.
std::string canonical(const Spec& spec);

// The paper-000 section-7 sweep: 3 corrections x 2 fallbacks x 2 propagation x
// 2 fullness x 4 metrics x 3 types x 30 window sizes.
inline constexpr std::size_t kSweepSize = 3 * 2 * 2 * 2 * 4 * 3 * kMaxWindow;
Spec sweep_config(std::size_t index);

}  // namespace easypp::predictor

#endif
