#include "graphs/topology.h"

#include <cstdio>
#include <stdexcept>

namespace collsynth {

std::string NameProblem(std::string_view name) {
  auto at = [&](std::size_t i, const char* what) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(name[i]));
    return std::string(what) + " (byte " + hex + " at offset " + std::to_string(i) + ")";
  };
  const std::size_t n = name.size();
  for (std::size_t i = 0; i < n;) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (c < 0x20 || c == 0x7f) return at(i, "contains a control character");
    if (c < 0x80) {
      ++i;
      continue;
    }
    // Lead byte: number of continuation bytes and the least code point (no overlong forms).
    int len = 0;
    std::uint32_t cp = 0, least = 0;
    if (c >= 0xc2 && c <= 0xdf)
      len = 1, cp = c & 0x1f, least = 0x80;
    else if (c >= 0xe0 && c <= 0xef)
      len = 2, cp = c & 0x0f, least = 0x800;
    else if (c >= 0xf0 && c <= 0xf4)
      len = 3, cp = c & 0x07, least = 0x10000;
    else
      return at(i, "is not valid UTF-8");
    if (n - i <= static_cast<std::size_t>(len)) return at(i, "is not valid UTF-8 (truncated)");
    for (int k = 1; k <= len; ++k) {
      const auto d = static_cast<unsigned char>(name[i + k]);
      if ((d & 0xc0) != 0x80) return at(i, "is not valid UTF-8");
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < least || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
      return at(i, "is not valid UTF-8");
    }
    if (cp <= 0x9f) return at(i, "contains a control character");  // C1: U+0080..U+009F
    i += len + 1;
  }
  return "";
}

void Topology::set_name(std::string name) {
  if (std::string p = NameProblem(name); !p.empty()) {
    throw std::invalid_argument("topology name " + p);
  }
  name_ = std::move(name);
}

int Topology::AddNode(const std::string& name, NodeKind kind) {
  if (name.empty()) throw std::logic_error("empty node name");
  if (std::string p = NameProblem(name); !p.empty()) {
    throw std::logic_error("node name " + p);
  }
  if (by_name_.count(name)) throw std::logic_error("duplicate node name '" + name + "'");
  automorphisms_.clear();
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
  // Every merged multiplicity and every degree is at most the total, so one check covers all.
  std::int64_t total = 0;
  if (__builtin_add_overflow(num_unit_links_, multiplicity, &total)) {
    throw std::overflow_error("the multiplicities of the links add up past 2^63-1 (adding " +
                              std::to_string(multiplicity) + " to " +
                              std::to_string(num_unit_links_) + ")");
  }
  automorphisms_.clear();
  auto key = Key(from, to);
  auto it = by_ends_.find(key);
  if (it != by_ends_.end()) {
    Link& l = links_[it->second];
    l.bandwidth += bandwidth;
    l.multiplicity += multiplicity;  // <= total, no overflow
    num_unit_links_ = total;
    return it->second;
  }
  int id = num_links();
  links_.push_back(Link{from, to, bandwidth, multiplicity});
  num_unit_links_ = total;
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
  t.automorphisms_ = automorphisms_;
  return t;
}

void Topology::set_automorphisms(std::vector<std::vector<int>> generators) {
  const std::size_t n = nodes_.size();
  for (const std::vector<int>& p : generators) {
    if (p.size() != n) throw std::logic_error("automorphism of the wrong length");
    std::vector<char> seen(n, 0);
    for (int x : p) {
      if (x < 0 || static_cast<std::size_t>(x) >= n || seen[x])
        throw std::logic_error("automorphism is not a permutation");
      seen[x] = 1;
    }
  }
  automorphisms_ = std::move(generators);
}

}  // namespace collsynth
