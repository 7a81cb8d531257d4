#include "graphs/topology.h"

#include <stdexcept>

namespace collsynth {

int Topology::AddNode(const std::string& name, NodeKind kind) {
  if (name.empty()) throw std::logic_error("empty node name");
  if (by_name_.count(name)) throw std::logic_error("duplicate node name '" + name + "'");
  int id = num_nodes();
  nodes_.push_back(Node{name, kind});
  out_.emplace_back();
  in_.emplace_back();
  by_name_.emplace(name, id);
  if (kind == NodeKind::kCompute) ++num_compute_;
  return id;
}

int Topology::AddLink(int from, int to, const Rational& bandwidth, std::int64_t multiplicity) {
  if (from < 0 || from >= num_nodes() || to < 0 || to >= num_nodes()) {
    throw std::logic_error("link endpoint out of range");
  }
  if (bandwidth <= 0) throw std::logic_error("bandwidth must be positive");
  if (multiplicity < 1) throw std::logic_error("multiplicity must be at least 1");
  auto key = Key(from, to);
  auto it = by_ends_.find(key);
  if (it != by_ends_.end()) {
    Link& l = links_[it->second];
    l.bandwidth += bandwidth;
    l.multiplicity += multiplicity;
    return it->second;
  }
  int id = num_links();
  links_.push_back(Link{from, to, bandwidth, multiplicity});
  out_[from].push_back(id);
  in_[to].push_back(id);
  by_ends_.emplace(key, id);
  return id;
}

void Topology::AddDuplexLink(int a, int b, const Rational& bandwidth, std::int64_t multiplicity) {
  AddLink(a, b, bandwidth, multiplicity);
  AddLink(b, a, bandwidth, multiplicity);
}

std::optional<int> Topology::FindNode(const std::string& name) const {
  auto it = by_name_.find(name);
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

std::optional<int> Topology::FindLink(int from, int to) const {
  auto it = by_ends_.find(Key(from, to));
  if (it == by_ends_.end()) return std::nullopt;
  return it->second;
}

std::vector<int> Topology::ComputeNodes() const {
  std::vector<int> ids;
  ids.reserve(num_compute_);
  for (int v = 0; v < num_nodes(); ++v) {
    if (IsCompute(v)) ids.push_back(v);
  }
  return ids;
}

Rational Topology::OutBandwidth(int v) const {
  Rational s = 0;
  for (int e : out_[v]) s += links_[e].bandwidth;
  return s;
}

Rational Topology::InBandwidth(int v) const {
  Rational s = 0;
  for (int e : in_[v]) s += links_[e].bandwidth;
  return s;
}

std::int64_t Topology::OutDegree(int v) const {
  std::int64_t s = 0;
  for (int e : out_[v]) s += links_[e].multiplicity;
  return s;
}

std::int64_t Topology::InDegree(int v) const {
  std::int64_t s = 0;
  for (int e : in_[v]) s += links_[e].multiplicity;
  return s;
}

Topology Topology::Transpose() const {
  Topology t(name_);
  for (const Node& n : nodes_) t.AddNode(n.name, n.kind);
  for (const Link& l : links_) t.AddLink(l.to, l.from, l.bandwidth, l.multiplicity);
  return t;
}

}  // namespace collsynth
