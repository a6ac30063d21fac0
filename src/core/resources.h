// Amounts of a node's resources as one small fixed vector: CPUs, memory (MB) and up to
// six generic resources (GPUs by name or name:type, ...). Kinds are interned per Machine
// (Machine::resource_index), so a plan compares a handful of integers per node instead
// of looking names up. Fixed size keeps per-node state in flat arrays without allocation.
#ifndef EASYPP_CORE_RESOURCES_H
#define EASYPP_CORE_RESOURCES_H

#include <array>
#include <cstddef>
#include <cstdint>

namespace easypp {

inline constexpr std::size_t kMaxResourceKinds = 8;
inline constexpr std::size_t kCpu = 0;     // CPUs (Slurm's cores or threads, as configured)
inline constexpr std::size_t kMemory = 1;  // memory in MB

struct Resources {
  std::array<std::int64_t, kMaxResourceKinds> amount{};

  std::int64_t& operator[](std::size_t kind) { return amount[kind]; }
  std::int64_t operator[](std::size_t kind) const { return amount[kind]; }

  // Every kind of `need` fits in this.
  bool covers(const Resources& need) const {
    for (std::size_t k = 0; k < kMaxResourceKinds; ++k)
      if (need.amount[k] > amount[k]) return false;
    return true;
  }
  Resources& operator+=(const Resources& o) {
    for (std::size_t k = 0; k < kMaxResourceKinds; ++k) amount[k] += o.amount[k];
    return *this;
  }
  Resources& operator-=(const Resources& o) {
    for (std::size_t k = 0; k < kMaxResourceKinds; ++k) amount[k] -= o.amount[k];
    return *this;
  }
  friend Resources operator+(Resources a, const Resources& b) { return a += b; }
  friend Resources operator-(Resources a, const Resources& b) { return a -= b; }
  friend bool operator==(const Resources&, const Resources&) = default;
  // Kind by kind, the smaller amount.
  static Resources min(const Resources& a, const Resources& b) {
    Resources m;
    for (std::size_t k = 0; k < kMaxResourceKinds; ++k)
      m.amount[k] = a.amount[k] < b.amount[k] ? a.amount[k] : b.amount[k];
    return m;
  }
};

}  // namespace easypp

#endif
