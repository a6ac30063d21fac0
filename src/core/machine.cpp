#include "core/machine.h"

#include <bit>
#include <stdexcept>
#include <utility>

namespace easypp {

NodeSet NodeSet::all(std::size_t size) {
  NodeSet s(size);
  for (std::size_t n = 0; n < size; ++n) s.insert(static_cast<NodeIndex>(n));
  return s;
}

bool NodeSet::empty() const {
  for (std::uint64_t w : words_)
    if (w != 0) return false;
  return true;
}

void NodeSet::insert(NodeIndex n) {
  if (n >= size_) {
    size_ = n + std::size_t{1};
    words_.resize((size_ + 63) / 64, 0);
  }
  words_[n / 64] |= std::uint64_t{1} << (n % 64);
}

std::size_t NodeSet::count() const {
  std::size_t c = 0;
  for (std::uint64_t w : words_) c += static_cast<std::size_t>(std::popcount(w));
  return c;
}

bool NodeSet::intersects(const NodeSet& o) const {
  const std::size_t n = std::min(words_.size(), o.words_.size());
  for (std::size_t i = 0; i < n; ++i)
    if ((words_[i] & o.words_[i]) != 0) return true;
  return false;
}

Machine Machine::single_node(int cpus) {
  Machine m;
  Node node;
  node.name = "node0";
  node.capacity[kCpu] = cpus;
  m.add_node(std::move(node));
  return m;
}

std::size_t Machine::resource_index(std::string_view kind) {
  const int found = find_resource(kind);
  if (found >= 0) return static_cast<std::size_t>(found);
  if (kinds_.size() == kMaxResourceKinds) {
    throw std::invalid_argument("machine: more than " + std::to_string(kMaxResourceKinds) +
                                " resource kinds (adding '" + std::string(kind) + "')");
  }
  kinds_.emplace_back(kind);
  return kinds_.size() - 1;
}

int Machine::find_resource(std::string_view kind) const {
  for (std::size_t k = 0; k < kinds_.size(); ++k)
    if (kinds_[k] == kind) return static_cast<int>(k);
  return -1;
}

NodeIndex Machine::add_node(Node node) {
  nodes_.push_back(std::move(node));
  return static_cast<NodeIndex>(nodes_.size() - 1);
}

std::size_t Machine::add_partition(Partition partition) {
  partitions_.push_back(std::move(partition));
  return partitions_.size() - 1;
}

std::size_t Machine::add_licence(Licence licence) {
  if (licences_.size() == kMaxResourceKinds) {
    throw std::invalid_argument("machine: more than " + std::to_string(kMaxResourceKinds) +
                                " licence kinds (adding '" + licence.name + "')");
  }
  licences_.push_back(std::move(licence));
  return licences_.size() - 1;
}

namespace {
template <typename T>
int find_named(const std::vector<T>& items, std::string_view name) {
  for (std::size_t i = 0; i < items.size(); ++i)
    if (items[i].name == name) return static_cast<int>(i);
  return -1;
}
}  // namespace

int Machine::find_partition(std::string_view name) const { return find_named(partitions_, name); }
int Machine::find_node(std::string_view name) const { return find_named(nodes_, name); }
int Machine::find_licence(std::string_view name) const { return find_named(licences_, name); }

std::int64_t Machine::total_cpus() const {
  std::int64_t total = 0;
  for (const Node& n : nodes_) total += n.capacity[kCpu];
  return total;
}

}  // namespace easypp
