#include "learned_spec.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "number_text.h"

namespace easypp::predictor {
namespace {

struct GroupName {
  const char* name;
  unsigned bit;
};
constexpr GroupName kGroups[] = {{"recent", kGroupRecent},
                                 {"estimate", kGroupEstimate},
                                 {"procs", kGroupProcs},
                                 {"load", kGroupLoad},
                                 {"time", kGroupTime}};

struct WeightName {
  const char* name;
  JobWeight value;
};
constexpr WeightName kWeights[] = {{"one", JobWeight::One}, {"logarea", JobWeight::LogArea}, {"area", JobWeight::Area}, {"small", JobWeight::Small}};

bool parse_number(std::string_view text, double lo, double hi, double& out) {
  if (text.size() > 32 || !is_plain_real(text)) return false;
  std::string s(text);
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(s.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(v) || v < lo || v > hi) return false;
  out = v;
  return true;
}

// "a+b+c", each a group name, none twice, at least one.
bool parse_groups(std::string_view text, unsigned& out) {
  unsigned mask = 0;
  while (true) {
    const auto plus = text.find('+');
    const std::string_view name = text.substr(0, plus);
    unsigned bit = 0;
    for (const auto& g : kGroups)
      if (name == g.name) bit = g.bit;
    if (bit == 0 || (mask & bit) != 0) return false;
    mask |= bit;
    if (plus == std::string_view::npos) break;
    text.remove_prefix(plus + 1);
  }
  out = mask;
  return true;
}

std::string format_number(double v) { return number_text(v, 6); }  // 6: %g's

}  // namespace

std::vector<std::string_view> learned_keys() {
  return {"target", "under", "loss", "weight", "eta", "features", "correction", "scale", "learn", "failed_min"};
}

bool parse_learned_key(LearnedSpec& m, std::string_view key, std::string_view value, std::string& choices) {
  if (key == "under") {
    choices = "a number >= 0.01 and <= 1000";
    return parse_number(value, 0.01, 1000.0, m.under);
  }
  if (key == "eta") {
    choices = "a number >= 1e-6 and <= 1e6 (seconds)";
    return parse_number(value, 1e-6, 1e6, m.eta);
  }
  if (key == "weight") {
    choices = "one, logarea, area, small";
    for (const auto& w : kWeights)
      if (value == w.name) {
        m.weight = w.value;
        return true;
      }
    return false;
  }
  if (key == "loss") {
    choices = "squared, absolute";
    if (value == "squared") m.loss = Loss::Squared;
    else if (value == "absolute") m.loss = Loss::Absolute;
    else return false;
    return true;
  }
  if (key == "target") {
    choices = "seconds, log";
    if (value == "seconds") m.target = Target::Seconds;
    else if (value == "log") m.target = Target::Log;
    else return false;
    return true;
  }
  if (key == "features") {
    choices = "groups joined by '+': recent, estimate, procs, load, time";
    return parse_groups(value, m.features);
  }
  choices.clear();
  return false;
}

std::string feature_groups_name(unsigned mask) {
  std::string out;
  for (const auto& g : kGroups)
    if ((mask & g.bit) != 0) {
      if (!out.empty()) out += '+';
      out += g.name;
    }
  return out;
}

std::string canonical_learned_keys(const LearnedSpec& m) {
  const char* weight = "?";
  for (const auto& w : kWeights)
    if (w.value == m.weight) weight = w.name;
  return std::string("target=") + (m.target == Target::Log ? "log" : "seconds") + ",under=" + format_number(m.under) +
         ",loss=" + (m.loss == Loss::Absolute ? "absolute" : "squared") + ",weight=" + weight + ",eta=" + format_number(m.eta) +
         ",features=" + feature_groups_name(m.features);
}

}  // namespace easypp::predictor
