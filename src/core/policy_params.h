// A policy spec: NAME, or NAME:key=value[,key=value...] (e.g. easy++:depth=2,
// timed-run:base=fcfs,trial=120); ':' also separates keys (easy++:depth=2:k=v), for
// slurm.conf, where SchedulerParameters is itself split at commas. Each policy reads its
// own keys through this object; a key nobody read is an error naming the policy and the
// key=value, so a typo never silently runs the default. Items without '=' (mq:60:3600,
// an older spelling) are kept as positional values for the policy that documents them;
// any other policy reports them as not key=value.
#ifndef EASYPP_CORE_POLICY_PARAMS_H
#define EASYPP_CORE_POLICY_PARAMS_H

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace easypp {

class PolicyParams {
 public:
  // Throws std::invalid_argument naming the spec when a key=value is malformed or repeated.
  static PolicyParams parse(std::string_view spec);

  const std::string& name() const { return name_; }
  bool has_keys() const { return !keys_.empty(); }
  // The spec with its keys in the order given (what reports print).
  std::string spec() const;

  // The value of `key` as a whole number in [min, max], or `fallback` when absent.
  std::int64_t integer(std::string_view key, std::int64_t fallback, std::int64_t min,
                       std::int64_t max);
  // The value of `key` as a whole number in [min, max], nothing for "off", or `fallback`
  // when absent.
  std::optional<std::int64_t> integer_or_off(std::string_view key,
                                             std::optional<std::int64_t> fallback,
                                             std::int64_t min, std::int64_t max);
  // The value of `key`, one of `allowed`, or `fallback` when absent.
  std::string word(std::string_view key, std::string fallback,
                   std::initializer_list<std::string_view> allowed);
  // The value of `key` as given, or `fallback` when absent.
  std::string value(std::string_view key, std::string fallback);
  // Whether `key` was given (without reading it).
  bool has(std::string_view key) const;
  // The items without '=', in order; reading them marks them used.
  const std::vector<std::string>& positional();
  // The spec as given (for names that must stay as the user wrote them).
  const std::string& text() const { return text_; }

  // Throws std::invalid_argument naming the first key no one asked for.
  void finish() const;

 private:
  struct Key {
    std::string key;
    std::string value;
    bool used = false;
  };
  Key* find(std::string_view key);
  [[noreturn]] void bad(const Key& k, const std::string& why) const;

  std::string name_;
  std::string text_;
  std::vector<Key> keys_;
  std::vector<std::string> positional_;
  bool positional_used_ = false;
};

}  // namespace easypp

#endif
