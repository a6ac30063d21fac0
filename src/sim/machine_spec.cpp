#include "sim/machine_spec.h"

#include <cctype>
#include <charconv>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace easypp::sim {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

[[noreturn]] void fail(const std::string& where, std::string_view item, const std::string& why) {
  throw std::invalid_argument((where.empty() ? "" : where + ": ") + std::string(item) + ": " +
                              why);
}

std::int64_t parse_count(const std::string& where, std::string_view item, std::string_view v,
                         std::int64_t min, bool size_suffix) {
  std::int64_t value = 0;
  const char* end = v.data() + v.size();
  auto [ptr, ec] = std::from_chars(v.data(), end, value);
  if (ec != std::errc() || ptr == v.data()) fail(where, item, "not a whole number");
  std::int64_t scale = 1;  // memory in MB
  if (ptr != end) {
    if (!size_suffix || ptr + 1 != end) fail(where, item, "unexpected text after the number");
    switch (std::toupper(static_cast<unsigned char>(*ptr))) {
      case 'K': scale = -1024; break;  // KiB: divide
      case 'M': scale = 1; break;
      case 'G': scale = 1024; break;
      case 'T': scale = 1024 * 1024; break;
      default: fail(where, item, "size suffix must be K, M, G or T");
    }
  }
  if (scale < 0) {
    value /= -scale;
  } else if (value > std::numeric_limits<std::int64_t>::max() / scale) {
    fail(where, item, "too large");
  } else {
    value *= scale;
  }
  if (value < min) fail(where, item, "must be >= " + std::to_string(min));
  return value;
}

void add_group(Machine& m, std::string_view group, const std::string& where) {
  std::int64_t count = 0;
  Node node;
  bool have_cpus = false;
  std::size_t pos = 0;
  while (pos <= group.size()) {
    std::size_t comma = group.find(',', pos);
    if (comma == std::string_view::npos) comma = group.size();
    const std::string_view item = trim(group.substr(pos, comma - pos));
    pos = comma + 1;
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) fail(where, item, "expected key=value");
    const std::string_view key = trim(item.substr(0, eq));
    const std::string_view value = trim(item.substr(eq + 1));
    if (key == "nodes") {
      count = parse_count(where, item, value, 1, false);
      if (count > 1000000) fail(where, item, "more than 1000000 nodes");
    } else if (key == "cpus") {
      // Bounds per node keep the machine's totals (up to 10^6 nodes) inside int64.
      node.capacity[kCpu] = parse_count(where, item, value, 1, false);
      if (node.capacity[kCpu] > 1000000) fail(where, item, "more than 1000000 CPUs on a node");
      have_cpus = true;
    } else if (key == "mem") {
      node.capacity[kMemory] = parse_count(where, item, value, 1, true);
      if (node.capacity[kMemory] > (std::int64_t{1} << 40)) fail(where, item, "more than 2^40 MB on a node");
    } else if (!key.empty()) {
      std::size_t kind = 0;
      try {
        kind = m.resource_index(key);
      } catch (const std::invalid_argument& e) {
        fail(where, item, e.what());
      }
      node.capacity[kind] = parse_count(where, item, value, 0, false);
      if (node.capacity[kind] > 1000000) fail(where, item, "more than 1000000 on a node");
    } else {
      fail(where, item, "empty key");
    }
  }
  if (count == 0) fail(where, group, "nodes=N is required");
  if (!have_cpus) fail(where, group, "cpus=N is required");
  for (std::int64_t i = 0; i < count; ++i) {
    Node n = node;
    n.name = "n" + std::to_string(m.nodes().size());
    m.add_node(std::move(n));
  }
}

}  // namespace

Machine parse_machine_text(std::string_view text, const std::string& where, char group_sep) {
  Machine m;
  std::size_t pos = 0;
  int line = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find(group_sep, pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view group = text.substr(pos, end - pos);
    pos = end + 1;
    ++line;
    if (const std::size_t hash = group.find('#'); hash != std::string_view::npos)
      group = group.substr(0, hash);
    if (trim(group).empty()) continue;
    add_group(m, group, group_sep == '\n' ? where + ":" + std::to_string(line) : where);
  }
  if (m.nodes().empty()) {
    throw std::invalid_argument((where.empty() ? "" : where + ": ") + "no nodes described");
  }
  return m;
}

Machine parse_machine(const std::string& spec_or_file) {
  if (spec_or_file.find('=') != std::string::npos) {
    return parse_machine_text(spec_or_file, "", ';');
  }
  std::ifstream in(spec_or_file);
  if (!in) throw std::invalid_argument("cannot read the file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_machine_text(text.str(), spec_or_file, '\n');
}

}  // namespace easypp::sim
