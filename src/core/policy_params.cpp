#include "core/policy_params.h"

#include <charconv>
#include <stdexcept>

namespace easypp {

PolicyParams PolicyParams::parse(std::string_view spec) {
  PolicyParams p;
  p.text_ = std::string(spec);
  const std::size_t colon = spec.find(':');
  p.name_ = std::string(spec.substr(0, colon));
  if (colon == std::string_view::npos) return p;
  std::string_view rest = spec.substr(colon + 1);
  while (true) {
    // Keys are separated by ',' or ':' (Slurm splits SchedulerParameters at commas, so
    // easypp_policy=easy++:depth=2:key=value keeps them together there).
    const std::size_t comma = rest.find_first_of(",:");
    const std::string_view item = rest.substr(0, comma);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos && !item.empty()) {
      p.positional_.emplace_back(item);
    } else if (eq == std::string_view::npos || eq == 0) {
      throw std::invalid_argument("policy=" + std::string(spec) + ": '" + std::string(item) +
                                  "' is not key=value");
    } else {
      Key k{std::string(item.substr(0, eq)), std::string(item.substr(eq + 1))};
      if (p.find(k.key) != nullptr) {
        throw std::invalid_argument("policy=" + std::string(spec) + ": key " + k.key +
                                    " given twice");
      }
      p.keys_.push_back(std::move(k));
    }
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return p;
}

std::string PolicyParams::spec() const {
  std::string s = name_;
  for (std::size_t i = 0; i < keys_.size(); ++i)
    s += (i == 0 ? ":" : ",") + keys_[i].key + "=" + keys_[i].value;
  return s;
}

PolicyParams::Key* PolicyParams::find(std::string_view key) {
  for (Key& k : keys_)
    if (k.key == key) return &k;
  return nullptr;
}

void PolicyParams::bad(const Key& k, const std::string& why) const {
  throw std::invalid_argument("policy " + name_ + ": " + k.key + "=" + k.value + ": " + why);
}

std::int64_t PolicyParams::integer(std::string_view key, std::int64_t fallback, std::int64_t min,
                                   std::int64_t max) {
  Key* k = find(key);
  if (k == nullptr) return fallback;
  k->used = true;
  std::int64_t v = 0;
  const char* end = k->value.data() + k->value.size();
  auto [ptr, ec] = std::from_chars(k->value.data(), end, v);
  if (ec != std::errc() || ptr != end || k->value.empty()) bad(*k, "not a whole number");
  if (v < min || v > max) {
    bad(*k, "must be in " + std::to_string(min) + ".." + std::to_string(max));
  }
  return v;
}

std::optional<std::int64_t> PolicyParams::integer_or_off(std::string_view key,
                                                         std::optional<std::int64_t> fallback,
                                                         std::int64_t min, std::int64_t max) {
  Key* k = find(key);
  if (k == nullptr) return fallback;
  if (k->value == "off") {
    k->used = true;
    return std::nullopt;
  }
  return integer(key, 0, min, max);
}

std::string PolicyParams::word(std::string_view key, std::string fallback,
                               std::initializer_list<std::string_view> allowed) {
  Key* k = find(key);
  if (k == nullptr) return fallback;
  k->used = true;
  for (std::string_view a : allowed)
    if (k->value == a) return k->value;
  std::string list;
  for (std::string_view a : allowed) list += (list.empty() ? "" : "|") + std::string(a);
  bad(*k, "expected " + list);
}

std::string PolicyParams::value(std::string_view key, std::string fallback) {
  Key* k = find(key);
  if (k == nullptr) return fallback;
  k->used = true;
  return k->value;
}

bool PolicyParams::has(std::string_view key) const {
  for (const Key& k : keys_)
    if (k.key == key) return true;
  return false;
}

const std::vector<std::string>& PolicyParams::positional() {
  positional_used_ = true;
  return positional_;
}

void PolicyParams::finish() const {
  if (!positional_.empty() && !positional_used_) {
    throw std::invalid_argument("policy=" + text_ + ": '" + positional_.front() +
                                "' is not key=value");
  }
  for (const Key& k : keys_)
    if (!k.used) bad(k, "not a key of this policy");
}

}  // namespace easypp
