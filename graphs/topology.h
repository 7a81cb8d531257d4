// Topology: the network model shared by every algorithm.
//
// Named nodes, each a compute node (a GPU/host that owns a shard) or a switch (forwards only).
// Directed links with an exact positive rational bandwidth. Adding a link u->v that already
// exists merges them: bandwidths add, and `multiplicity` (the number of unit links merged,
// used for degrees of multigraphs such as UniRing(d,m)) adds. Self-loops are allowed (ER_q,
// de Bruijn) and count once towards in- and out-degree.
// Node ids are dense ints 0..num_nodes()-1 in insertion order; link ids likewise.
// Precondition of AddLink: ids exist and bandwidth > 0 (std::logic_error otherwise: readers and
// generators check their input first and report it as InputError).
// Names (of nodes and of the topology) are valid UTF-8 without control characters
// (NameProblem; std::logic_error otherwise, readers check first); the sum of all multiplicities
// fits in int64 (so do every degree and every merged link's multiplicity), else AddLink throws
// std::overflow_error and adds nothing.
// Declared automorphisms (docs/symmetry.md): generators of a group of node permutations that the
// topology's producer (a generator, or the JSON field "automorphisms", docs/formats.md) states
// map the topology onto itself. Topology stores them only as permutations (each of length
// num_nodes(), checked); whether they are automorphisms is checked by CheckAutomorphism
// (graphs/symmetry.h). AddNode and AddLink drop them (the graph they were declared for changed).
#ifndef COLLSYNTH_GRAPHS_TOPOLOGY_H_
#define COLLSYNTH_GRAPHS_TOPOLOGY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/rational.h"

namespace collsynth {

// Why `name` cannot be the name of a node or topology, or "" when it can: a name must be
// valid UTF-8 (no overlong forms, surrogates or code points above U+10FFFF) without control
// characters (U+0000..U+001F, U+007F..U+009F), so that it prints on one line and can be
// written as JSON. Empty names are not checked here (nodes need one, topologies do not).
// O(|name|).
std::string NameProblem(std::string_view name);

enum class NodeKind { kCompute, kSwitch };

struct Node {
  std::string name;
  NodeKind kind = NodeKind::kCompute;
};

struct Link {
  int from = -1;
  int to = -1;
  Rational bandwidth;
  std::int64_t multiplicity = 1;  // parallel unit links merged into this one
};

class Topology {
 public:
  // Throws std::invalid_argument when NameProblem(name) is not empty.
  explicit Topology(std::string name = "") { set_name(std::move(name)); }

  const std::string& name() const { return name_; }
  // Throws std::invalid_argument when NameProblem(name) is not empty.
  void set_name(std::string name);

  // Adds a node; throws std::logic_error on an empty, duplicate or invalid name (NameProblem;
  // callers check first).
  int AddNode(const std::string& name, NodeKind kind = NodeKind::kCompute);
  int AddCompute(const std::string& name) { return AddNode(name, NodeKind::kCompute); }
  int AddSwitch(const std::string& name) { return AddNode(name, NodeKind::kSwitch); }

  // Adds (or merges into) the directed link from->to; returns its id. Throws
  // std::overflow_error (changing nothing) when the total multiplicity would pass 2^63-1.
  int AddLink(int from, int to, const Rational& bandwidth, std::int64_t multiplicity = 1);
  // Adds a->b and b->a with the same bandwidth.
  void AddDuplexLink(int a, int b, const Rational& bandwidth, std::int64_t multiplicity = 1);

  int num_nodes() const { return static_cast<int>(nodes_.size()); }
  int num_links() const { return static_cast<int>(links_.size()); }
  int num_compute() const { return num_compute_; }
  int num_switches() const { return num_nodes() - num_compute_; }
  // Sum of all multiplicities (the number of unit links); fits in int64 by construction.
  std::int64_t num_unit_links() const { return num_unit_links_; }

  const Node& node(int v) const { return nodes_[v]; }
  const Link& link(int e) const { return links_[e]; }
  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<Link>& links() const { return links_; }
  bool IsCompute(int v) const { return nodes_[v].kind == NodeKind::kCompute; }
  bool IsSwitch(int v) const { return nodes_[v].kind == NodeKind::kSwitch; }

  std::optional<int> FindNode(const std::string& name) const;
  std::optional<int> FindLink(int from, int to) const;
  // Ids of compute nodes in id order.
  std::vector<int> ComputeNodes() const;

  const std::vector<int>& OutLinks(int v) const { return out_[v]; }
  const std::vector<int>& InLinks(int v) const { return in_[v]; }
  Rational OutBandwidth(int v) const;
  Rational InBandwidth(int v) const;
  // Number of unit links (sum of multiplicities) leaving / entering v.
  std::int64_t OutDegree(int v) const;
  std::int64_t InDegree(int v) const;

  // Same nodes, every link reversed (G^T); keeps the declared automorphisms (an automorphism of
  // G is one of G^T).
  Topology Transpose() const;

  // Declared automorphisms: automorphisms()[i][v] is the image of node v under generator i.
  const std::vector<std::vector<int>>& automorphisms() const { return automorphisms_; }
  // Sets them; std::logic_error unless each is a permutation of 0..num_nodes()-1 (readers and
  // generators check first, PermutationProblem in graphs/symmetry.h). O(num_nodes) each.
  void set_automorphisms(std::vector<std::vector<int>> generators);

 private:
  static std::uint64_t Key(int from, int to) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(from)) << 32) |
           static_cast<std::uint32_t>(to);
  }
  std::string name_;
  std::vector<Node> nodes_;
  std::vector<Link> links_;
  std::vector<std::vector<int>> out_, in_;
  std::unordered_map<std::string, int> by_name_;
  std::unordered_map<std::uint64_t, int> by_ends_;
  int num_compute_ = 0;
  std::int64_t num_unit_links_ = 0;
  std::vector<std::vector<int>> automorphisms_;
};

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_TOPOLOGY_H_
