#include "sweep/config_space.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <stdexcept>

#include "easypp/predictor.h"

namespace easypp::sweep {
namespace {

constexpr std::size_t kWindow = 0, kType = 1, kFullness = 2, kMetric = 3, kFallback = 4;

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

// A non-negative decimal integer, the whole string; false otherwise.
bool parse_index(std::string_view s, std::size_t& out) {
  if (s.empty() || s.size() > 18) return false;
  std::size_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<std::size_t>(c - '0');
  }
  out = v;
  return true;
}

std::string key_of(const Parameters& p) {
  std::string k;
  for (const auto& v : p) k += v + ",";
  return k;
}

}  // namespace

Parameters parameters_of(const std::string& spec) {
  Parameters p;
  std::array<bool, kParameterKeys.size()> seen{};
  std::string_view rest(spec);
  const auto colon = rest.find(':');
  rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const auto eq = item.find('=');
    if (eq != std::string_view::npos) {
      const std::string_view key = item.substr(0, eq);
      for (std::size_t i = 0; i < kParameterKeys.size(); ++i) {
        if (key == kParameterKeys[i]) {
          p[i] = std::string(item.substr(eq + 1));
          seen[i] = true;
        }
      }
    }
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  for (std::size_t i = 0; i < kParameterKeys.size(); ++i) {
    if (!seen[i]) {
      throw std::invalid_argument("spec " + spec + ": no " + std::string(kParameterKeys[i]) +
                                  "= (not a history spec of the sweep space)");
    }
  }
  return p;
}

Parameters canonical_behaviour(Parameters p) {
  if (p[kWindow] == "1") {
    p[kMetric] = "avg";          // E1
    p[kFullness] = "partial";    // E2
  }
  if (p[kWindow] == "2" && p[kMetric] == "median") p[kMetric] = "avg";  // E3
  if (p[kType] == "all" && p[kFullness] == "partial") p[kFallback] = "estimate";  // E4
  return p;
}

ConfigSpace::ConfigSpace() {
  const std::size_t n = epp_sweep_size();
  specs_.reserve(n);
  parameters_.reserve(n);
  std::map<std::string, std::size_t> by_key;
  char buf[512];
  for (std::size_t i = 0; i < n; ++i) {
    if (epp_sweep_spec(i, buf, sizeof buf) < 0) {
      throw std::runtime_error("epp_sweep_spec(" + std::to_string(i) + ") failed");
    }
    specs_.emplace_back(buf);
    try {
      parameters_.push_back(parameters_of(specs_.back()));
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(std::string("sweep space: ") + e.what());
    }
    by_key.emplace(key_of(parameters_.back()), i);
  }
  representative_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto it = by_key.find(key_of(canonical_behaviour(parameters_[i])));
    if (it == by_key.end()) throw std::runtime_error("sweep space: canonical member missing");
    representative_[i] = it->second;
  }
  // Make the representative the lowest index of its class, so it is stable under any
  // enumeration order.
  std::vector<std::size_t> lowest(n, n);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t& l = lowest[representative_[i]];
    l = std::min(l, i);
  }
  for (std::size_t i = 0; i < n; ++i) representative_[i] = lowest[representative_[i]];
}

std::size_t ConfigSpace::index_of(const Parameters& parameters) const {
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    if (parameters_[i] == parameters) return i;
  }
  throw std::invalid_argument("no configuration with parameters " + key_of(parameters));
}

std::size_t ConfigSpace::index_of_spec(const std::string& spec) const {
  char err[512] = {0};
  std::unique_ptr<epp_predictor, void (*)(epp_predictor*)> p(
      epp_predictor_new(spec.c_str(), err, sizeof err), epp_predictor_free);
  if (!p) throw std::invalid_argument(err);
  const std::string canonical = epp_predictor_spec(p.get());
  const auto it = std::find(specs_.begin(), specs_.end(), canonical);
  if (it == specs_.end()) {
    throw std::invalid_argument("spec " + spec + ": not in the sweep space (canonical: " +
                                canonical + ")");
  }
  return static_cast<std::size_t>(it - specs_.begin());
}

void ConfigSpace::select_by_parameters(const std::string& text, std::vector<std::size_t>& out) const {
  // key=value[|value...],... : a configuration is selected when every key has one of its values.
  std::array<std::vector<std::string>, kParameterKeys.size()> allowed;
  std::string_view rest(text);
  while (true) {
    const auto comma = rest.find(',');
    const std::string item = trim(rest.substr(0, comma));
    const auto eq = item.find('=');
    const std::string where = "configs=" + text + ": item '" + item + "'";
    if (eq == std::string::npos) throw std::invalid_argument(where + ": expected key=value");
    const std::string key = item.substr(0, eq);
    const auto k = std::find(kParameterKeys.begin(), kParameterKeys.end(), key);
    if (k == kParameterKeys.end()) {
      throw std::invalid_argument(where + ": unknown key (allowed: window, type, fullness, "
                                  "metric, fallback, propagation, correction)");
    }
    auto& values = allowed[static_cast<std::size_t>(k - kParameterKeys.begin())];
    std::string_view vs = std::string_view(item).substr(eq + 1);
    while (true) {
      const auto bar = vs.find('|');
      const std::string v(vs.substr(0, bar));
      const bool known = std::any_of(parameters_.begin(), parameters_.end(), [&](const Parameters& p) {
        return p[static_cast<std::size_t>(k - kParameterKeys.begin())] == v;
      });
      if (!known) throw std::invalid_argument(where + ": no configuration has " + key + "=" + v);
      values.push_back(v);
      if (bar == std::string_view::npos) break;
      vs = vs.substr(bar + 1);
    }
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    bool match = true;
    for (std::size_t k = 0; k < kParameterKeys.size() && match; ++k) {
      match = allowed[k].empty() ||
              std::find(allowed[k].begin(), allowed[k].end(), parameters_[i][k]) != allowed[k].end();
    }
    if (match) out.push_back(i);
  }
}

std::vector<std::size_t> ConfigSpace::select(const std::string& text) const {
  std::vector<std::size_t> out;
  auto add_range = [&](std::size_t a, std::size_t b, const std::string& where) {
    if (a > b || b >= size()) {
      throw std::invalid_argument(where + ": expected indices 0-" + std::to_string(size() - 1) +
                                  " with first <= last");
    }
    for (std::size_t i = a; i <= b; ++i) out.push_back(i);
  };
  if (text == "all") {
    add_range(0, size() - 1, "configs=all");
  } else if (std::ifstream in(text); in) {
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
      ++number;
      const std::string where = text + ":" + std::to_string(number);
      std::string item = trim(line.substr(0, line.find('#')));
      if (item.empty()) continue;
      std::size_t i = 0;
      if (parse_index(item, i)) {
        add_range(i, i, where);
      } else {
        try {
          out.push_back(index_of_spec(item));
        } catch (const std::invalid_argument& e) {
          throw std::invalid_argument(where + ": " + e.what());
        }
      }
    }
  } else if (text.find('=') != std::string::npos) {
    select_by_parameters(text, out);
  } else {
    std::string_view rest(text);
    while (true) {
      const auto comma = rest.find(',');
      const std::string item = trim(rest.substr(0, comma));
      const std::string where = "configs=" + text + ": item '" + item + "'";
      const auto dash = item.find('-');
      std::size_t a = 0, b = 0;
      if (dash == std::string::npos) {
        if (!parse_index(item, a)) {
          throw std::invalid_argument(where + ": expected all, FILE, N or FIRST-LAST");
        }
        b = a;
      } else if (!parse_index(item.substr(0, dash), a) || !parse_index(item.substr(dash + 1), b)) {
        throw std::invalid_argument(where + ": expected all, FILE, N or FIRST-LAST");
      }
      add_range(a, b, where);
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (out.empty()) throw std::invalid_argument("configs=" + text + ": selects nothing");
  return out;
}

}  // namespace easypp::sweep
