#include "error_model_spec.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "number_text.h"

namespace easypp::predictor {
namespace {

struct CategoryName {
  const char* name;
  Category value;
};
// The paper's names, lower-case with dashes.
constexpr CategoryName kCategories[] = {
    {"high-processors", Category::HighProcessors},
    {"low-processors", Category::LowProcessors},
    {"short", Category::Short},
    {"large", Category::Large},
    {"high-area", Category::HighArea},
    {"low-area", Category::LowArea},
    {"more-executed-applications", Category::MoreExecutedApplications},
    {"low-processors-low-runtime", Category::LowProcessorsLowRuntime},
    {"not-small", Category::NotSmall},
    {"pure-equal", Category::PureEqual},
    {"equal", Category::Equal},
};

struct ConversionName {
  const char* name;
  Conversion value;
};
constexpr ConversionName kConversions[] = {
    {"short2large", Conversion::ShortToLarge},
    {"large2short", Conversion::LargeToShort},
    {"both", Conversion::Both},
};

bool parse_number(std::string_view text, double lo, double hi, double& out) {
  if (text.size() > 32 || !is_plain_real(text)) return false;
  std::string s(text);
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(v) || v < lo || v > hi) return false;
  out = v;
  return true;
}

std::string number(double v) { return number_text(v, 10); }

template <typename T, std::size_t N>
std::string names(const T (&table)[N]) {
  std::string out;
  for (const auto& e : table) {
    if (!out.empty()) out += ", ";
    out += e.name;
  }
  return out;
}

const char* conversion_name(Conversion c) {
  for (const auto& e : kConversions)
    if (e.value == c) return e.name;
  return "?";
}

}  // namespace

const char* category_name(Category c) {
  for (const auto& e : kCategories)
    if (e.value == c) return e.name;
  return "?";
}

std::vector<std::string_view> error_model_keys(bool qual) {
  if (qual) return {"kind", "percent", "stdev", "extend", "lb_factor", "seed"};
  return {"category", "error", "stdev", "accurate", "extend", "lb_factor", "seed"};
}

bool parse_error_model_key(ErrorModelSpec& m, std::string_view key, std::string_view value, std::string& choices) {
  if (key == "category") {
    choices = names(kCategories);
    for (const auto& e : kCategories)
      if (value == e.name) {
        m.category = e.value;
        return true;
      }
    return false;
  }
  if (key == "kind") {
    choices = names(kConversions);
    for (const auto& e : kConversions)
      if (value == e.name) {
        m.conversion = e.value;
        return true;
      }
    return false;
  }
  if (key == "error" || key == "stdev" || key == "extend") {
    choices = "a percentage >= 0 and <= 1000000";
    double& field = key == "error" ? m.error : key == "stdev" ? m.stdev : m.extend;
    return parse_number(value, 0, 1e6, field);
  }
  if (key == "percent" || key == "accurate") {
    choices = "a percentage 0-100";
    return parse_number(value, 0, 100, key == "percent" ? m.percent : m.accurate);
  }
  if (key == "lb_factor") {
    choices = "a number > 0 and <= 1";
    double f = 0;
    if (!parse_number(value, 0, 1, f) || f <= 0) return false;
    m.lb_factor = f;
    return true;
  }
  if (key == "seed") {
    choices = "an integer 0-18446744073709551615";
    if (value.size() > 20 || !is_plain_integer(value, false)) return false;
    std::string s(value);
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
    if (errno != 0 || *end != '\0') return false;
    m.seed = v;
    return true;
  }
  choices = "none";
  return false;
}

void finish_error_model(ErrorModelSpec& m, bool qual) {
  if (m.extend < 0) m.extend = qual ? 100.0 : m.error;
}

std::string canonical_error_model(const ErrorModelSpec& m, bool qual) {
  std::string tail = ",stdev=" + number(m.stdev);
  const std::string common = ",extend=" + number(m.extend) + ",lb_factor=" + number(m.lb_factor) +
                             ",seed=" + std::to_string(m.seed);
  if (qual) return std::string("qual:kind=") + conversion_name(m.conversion) + ",percent=" + number(m.percent) + tail + common;
  return std::string("quant:category=") + category_name(m.category) + ",error=" + number(m.error) + tail +
         ",accurate=" + number(m.accurate) + common;
}

}  // namespace easypp::predictor
