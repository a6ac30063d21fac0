// Spec grammar: kind[:key=value,...]; omitted keys take the defaults of struct Spec.
#include "spec.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string_view>
#include <vector>

#include "number_text.h"

namespace easypp::predictor {
namespace {

template <typename E>
struct Choice {
  const char* name;
  E value;
};

constexpr Choice<WindowType> kTypes[] = {
    {"all", WindowType::All}, {"immediate", WindowType::Immediate}, {"extended", WindowType::Extended}};
constexpr Choice<Fullness> kFullness[] = {{"partial", Fullness::Partial}, {"full", Fullness::Full}};
constexpr Choice<Metric> kMetrics[] = {
    {"avg", Metric::Avg}, {"median", Metric::Median}, {"min", Metric::Min}, {"max", Metric::Max}};
constexpr Choice<Fallback> kFallbacks[] = {{"estimate", Fallback::Estimate}, {"relative", Fallback::Relative}};
constexpr Choice<bool> kOnOff[] = {{"off", false}, {"on", true}};
constexpr Choice<Correction> kCorrections[] = {{"estimate", Correction::Estimate},
                                               {"gradual", Correction::Gradual},
                                               {"exponential", Correction::Exponential}};
constexpr Choice<Learn> kLearn[] = {{"finished", Learn::Finished}, {"completed", Learn::Completed}, {"all", Learn::All}};
constexpr Choice<Kind> kKinds[] = {{"history", Kind::History}, {"last", Kind::Last}, {"estimate", Kind::Estimate},
                                   {"double", Kind::Double}, {"perfect", Kind::Perfect},
                                   {"quant", Kind::Quant}, {"qual", Kind::Qual},
                                   {"learned", Kind::Learned}};

template <typename E, std::size_t N>
std::string allowed(const Choice<E> (&choices)[N]) {
  std::string out;
  for (const auto& c : choices) {
    if (!out.empty()) out += ", ";
    out += c.name;
  }
  return out;
}

template <typename E, std::size_t N>
const char* name_of(const Choice<E> (&choices)[N], E value) {
  for (const auto& c : choices)
    if (c.value == value) return c.name;
  return "?";
}

template <typename E, std::size_t N>
bool choose(const Choice<E> (&choices)[N], std::string_view text, E& out) {
  for (const auto& c : choices)
    if (text == c.name) {
      out = c.value;
      return true;
    }
  return false;
}

bool parse_int(std::string_view text, long long lo, long long hi, long long& out) {
  if (text.size() > 20 || !is_plain_integer(text, lo < 0)) return false;
  std::string s(text);
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || v < lo || v > hi) return false;
  out = v;
  return true;
}

bool parse_scale(std::string_view text, double& out) {
  if (text.size() > 32 || !is_plain_real(text)) return false;
  std::string s(text);
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(s.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(v) || v <= 0.0 || v > 100.0) return false;
  out = v;
  return true;
}

// Keys each kind accepts; the others would be silently meaningless, so they are errors.
std::vector<std::string_view> keys_of(Kind kind) {
  switch (kind) {
    case Kind::History:
      return {"window", "type", "fullness", "metric", "fallback", "propagation", "correction", "scale",
              "learn", "failed_min"};
    case Kind::Last:
      return {"correction", "scale", "learn", "failed_min"};
    case Kind::Quant:
    case Kind::Qual:
      return error_model_keys(kind == Kind::Qual);
    case Kind::Learned:
      return learned_keys();
    default:
      return {};
  }
}

std::string join(const std::vector<std::string_view>& keys) {
  std::string out;
  for (auto k : keys) {
    if (!out.empty()) out += ", ";
    out += k;
  }
  return out.empty() ? std::string("none") : out;
}

std::string format_scale(double scale) { return number_text(scale, 6); }  // 6: %g's

}  // namespace

std::optional<Spec> parse_spec(const char* text, std::string& error) {
  Spec spec;
  if (text == nullptr || *text == '\0') return spec;
  std::string_view all(text);
  // "virtual[:error=X,seed=N]", paper 002 section 5.2.2: runtime x (1 + U(-X %, X %)). That
  // is quant on no category, so the name is an alias of it (one implementation).
  std::string alias;
  if (all.substr(0, all.find(':')) == "virtual") {
    std::string_view keys = all.size() > 8 ? all.substr(8) : std::string_view{};
    for (std::string_view rest = keys; !rest.empty();) {
      const auto comma = rest.find_first_of(",;");
      const std::string_view item = rest.substr(0, comma);
      const std::string_view key = item.substr(0, item.find('='));
      if (key != "error" && key != "seed") {
        error = "predictor spec: " + std::string(item) + ": unknown key for virtual (allowed: error, seed)";
        return std::nullopt;
      }
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    }
    alias = "quant:category=pure-equal";
    if (!keys.empty()) alias += "," + std::string(keys);
    all = alias;
  }
  auto colon = all.find(':');
  std::string_view kind_text = all.substr(0, colon);
  if (!choose(kKinds, kind_text, spec.kind)) {
    error = "predictor spec: kind=" + std::string(kind_text) + ": unknown predictor (allowed: " + allowed(kKinds) + ")";
    return std::nullopt;
  }
  if (spec.kind == Kind::Double) spec.scale = 2.0;
  if (is_error_model(spec.kind)) spec.correction = Correction::Extend;
  if (colon == std::string_view::npos) {
    if (is_error_model(spec.kind)) finish_error_model(spec.error_model, spec.kind == Kind::Qual);
    return spec;
  }

  const auto valid_keys = keys_of(spec.kind);
  std::set<std::string_view> seen;
  std::string_view rest = all.substr(colon + 1);
  while (true) {
    auto comma = rest.find_first_of(",;");
    std::string_view item = rest.substr(0, comma);
    auto eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      error = "predictor spec: '" + std::string(item) + "': expected key=value (allowed keys for " +
              std::string(kind_text) + ": " + join(valid_keys) + ")";
      return std::nullopt;
    }
    std::string_view key = item.substr(0, eq), value = item.substr(eq + 1);
    std::string where = "predictor spec: " + std::string(item) + ": ";
    bool known = false;
    for (auto k : valid_keys) known = known || k == key;
    if (!known) {
      error = where + "unknown key for " + std::string(kind_text) + " (allowed: " + join(valid_keys) + ")";
      return std::nullopt;
    }
    if (!seen.insert(key).second) {
      error = where + "key given twice";
      return std::nullopt;
    }
    bool ok = true;
    std::string choices;
    // A learned-only key fills `choices` whether or not its value was good.
    if (spec.kind == Kind::Learned) ok = parse_learned_key(spec.learned, key, value, choices);
    if (!choices.empty()) {
      // parsed above
    } else if (is_error_model(spec.kind)) {
      ok = parse_error_model_key(spec.error_model, key, value, choices);
    } else if (key == "window") {
      long long w = 0;
      ok = parse_int(value, 1, kMaxWindow, w);
      spec.window = static_cast<int>(w);
      choices = "an integer 1-30";
    } else if (key == "type") {
      ok = choose(kTypes, value, spec.type);
      choices = allowed(kTypes);
    } else if (key == "fullness") {
      ok = choose(kFullness, value, spec.fullness);
      choices = allowed(kFullness);
    } else if (key == "metric") {
      ok = choose(kMetrics, value, spec.metric);
      choices = allowed(kMetrics);
    } else if (key == "fallback") {
      ok = choose(kFallbacks, value, spec.fallback);
      choices = allowed(kFallbacks);
    } else if (key == "propagation") {
      ok = choose(kOnOff, value, spec.propagation);
      choices = allowed(kOnOff);
    } else if (key == "correction") {
      ok = choose(kCorrections, value, spec.correction);
      choices = allowed(kCorrections);
    } else if (key == "scale") {
      ok = parse_scale(value, spec.scale);
      choices = "a number > 0 and <= 100";
    } else if (key == "learn") {
      ok = choose(kLearn, value, spec.learn);
      choices = allowed(kLearn);
    } else if (key == "failed_min") {
      long long s = 0;
      ok = parse_int(value, 0, 366LL * 24 * 3600, s);
      spec.failed_min = s;
      choices = "seconds, an integer 0-31622400";
    }
    if (!ok) {
      error = where + "bad value (allowed: " + choices + ")";
      return std::nullopt;
    }
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  if (is_error_model(spec.kind)) finish_error_model(spec.error_model, spec.kind == Kind::Qual);
  return spec;
}

bool is_spec_key(std::string_view key) {
  for (const auto& kind : kKinds)
    for (auto k : keys_of(kind.value))
      if (k == key) return true;
  return false;  // virtual's keys, error and seed, are quant's
}

std::string canonical(const Spec& s) {
  switch (s.kind) {
    case Kind::History:
      return "history:window=" + std::to_string(s.window) + ",type=" + name_of(kTypes, s.type) +
             ",fullness=" + name_of(kFullness, s.fullness) + ",metric=" + name_of(kMetrics, s.metric) +
             ",fallback=" + name_of(kFallbacks, s.fallback) + ",propagation=" + name_of(kOnOff, s.propagation) +
             ",correction=" + name_of(kCorrections, s.correction) + ",scale=" + format_scale(s.scale) +
             ",learn=" + name_of(kLearn, s.learn) + ",failed_min=" + std::to_string(s.failed_min);
    case Kind::Last:
      return std::string("last:correction=") + name_of(kCorrections, s.correction) + ",scale=" +
             format_scale(s.scale) + ",learn=" + name_of(kLearn, s.learn) +
             ",failed_min=" + std::to_string(s.failed_min);
    case Kind::Quant:
    case Kind::Qual:
      return canonical_error_model(s.error_model, s.kind == Kind::Qual);
    case Kind::Learned:
      return "learned:" + canonical_learned_keys(s.learned) + ",correction=" + name_of(kCorrections, s.correction) +
             ",scale=" + format_scale(s.scale) + ",learn=" + name_of(kLearn, s.learn) +
             ",failed_min=" + std::to_string(s.failed_min);
    default:
      return name_of(kKinds, s.kind);
  }
}

Spec sweep_config(std::size_t index) {
  // Innermost: window size; outermost: correction (the paper's Fig. 9 order reversed).
  Spec s;
  s.window = static_cast<int>(index % kMaxWindow) + 1;
  index /= kMaxWindow;
  s.type = kTypes[index % 3].value;
  index /= 3;
  s.metric = kMetrics[index % 4].value;
  index /= 4;
  s.fullness = kFullness[index % 2].value;
  index /= 2;
  s.propagation = kOnOff[index % 2].value;
  index /= 2;
  s.fallback = kFallbacks[index % 2].value;
  index /= 2;
  s.correction = kCorrections[index % 3].value;
  return s;
}

}  // namespace easypp::predictor
