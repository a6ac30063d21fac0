// The paper-000 section-7 configuration space as the sweep sees it: the predictor
// library's 8,640 specs (epp_sweep_spec), their seven parameters, which configurations
// behave identically (footnote 9) and which ones a --configs argument selects.
#ifndef EASYPP_SWEEP_CONFIG_SPACE_H
#define EASYPP_SWEEP_CONFIG_SPACE_H

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace easypp::sweep {

// The seven swept parameters, in the column order of the paper's Table 11.
inline constexpr std::array<std::string_view, 7> kParameterKeys = {
    "window", "type", "fullness", "metric", "fallback", "propagation", "correction"};

// One configuration's values of kParameterKeys, as the predictor spells them.
using Parameters = std::array<std::string, kParameterKeys.size()>;

// Equivalences used to simulate each distinct behaviour once (paper 000 footnote 9).
// Each holds exactly for the predictor's code (predictor/runtime_model.cpp), for every
// trace, and tests/sweep/equivalence_test.cpp checks them by simulation:
//  E1 window=1: the metric is irrelevant (avg, median, min and max of one run agree).
//  E2 window=1: fullness is irrelevant ("full" needs one run, as "partial" does to
//     predict at all).
//  E3 window=2: median equals avg (the median of two runs is their mean, rounded the
//     same way; of one run, that run).
//  E4 type=all with fullness=partial (so also window=1 by E2): the fallback is
//     irrelevant. The window is empty only for a user who has never had a run learnt,
//     and then "relative" has no accuracy to scale by and falls back on the estimate too.
// Propagation and correction change behaviour in every cell, and so do the other keys.
class ConfigSpace {
 public:
  // Enumerates the library's space; throws std::runtime_error if a spec does not carry
  // the seven keys (a library/sweep mismatch).
  ConfigSpace();

  std::size_t size() const { return specs_.size(); }
  const std::string& spec(std::size_t index) const { return specs_.at(index); }
  const Parameters& parameters(std::size_t index) const { return parameters_.at(index); }
  // The lowest-index configuration that behaves like `index` (itself if none lower).
  std::size_t representative(std::size_t index) const { return representative_.at(index); }
  // The index whose parameters equal these; throws std::invalid_argument if none.
  std::size_t index_of(const Parameters& parameters) const;
  // The index of a spec in any spelling the predictor accepts (omitted keys take their
  // defaults); throws std::invalid_argument naming the spec if it is not in the space.
  std::size_t index_of_spec(const std::string& spec) const;

  // Selects configurations: "all"; ranges and indices "0-239,500,1000-1099" (inclusive);
  // parameter values "type=all,correction=estimate,window=1|2" (every key listed must
  // match one of its values); or the path of a file with one index or spec per line
  // (# comments, blank lines). Returns ascending unique indices; throws
  // std::invalid_argument naming the bad item (for a file, FILE:LINE).
  std::vector<std::size_t> select(const std::string& text) const;

 private:
  void select_by_parameters(const std::string& text, std::vector<std::size_t>& out) const;

  std::vector<std::string> specs_;
  std::vector<Parameters> parameters_;
  std::vector<std::size_t> representative_;
};

// The seven parameter values of a "history:key=value,..." spec, in kParameterKeys order;
// throws std::invalid_argument naming the missing key.
Parameters parameters_of(const std::string& spec);

// Applies E1-E4: the parameters of the class's canonical member.
Parameters canonical_behaviour(Parameters parameters);

}  // namespace easypp::sweep

#endif
