#include "graphs/symmetry.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <utility>

namespace collsynth {
namespace {

std::string LinkText(const Topology& g, int from, int to) {
  return g.node(from).name + " -> " + g.node(to).name;
}

std::string LinkLabel(const Link& l) {
  std::string s = "bandwidth " + ToString(l.bandwidth);
  if (l.multiplicity > 1) s += ", multiplicity " + std::to_string(l.multiplicity);
  return s;
}

class UnionFind {
 public:
  explicit UnionFind(int n) : parent_(static_cast<std::size_t>(n)) {
    std::iota(parent_.begin(), parent_.end(), 0);
  }
  int Find(int v) {
    while (parent_[v] != v) {
      parent_[v] = parent_[parent_[v]];
      v = parent_[v];
    }
    return v;
  }
  void Union(int a, int b) {
    a = Find(a);
    b = Find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);  // root = smallest id
  }
  void AddGenerator(const std::vector<int>& p) {
    for (std::size_t v = 0; v < p.size(); ++v) Union(static_cast<int>(v), p[v]);
  }

 private:
  std::vector<int> parent_;
};

// splitmix64's finaliser: a bijective 64-bit mixer.
std::uint64_t Mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The topology as the search sees it: CSR adjacency with interned link labels
// (bandwidth, multiplicity) and node kinds.
struct LabelledGraph {
  int n = 0;
  std::vector<int> out_start, out_to, out_label, in_start, in_from, in_label;
  std::vector<int> kind;
  std::vector<int> link_label;  // per link id of the topology
};

LabelledGraph Label(const Topology& g) {
  LabelledGraph lg;
  lg.n = g.num_nodes();
  std::map<std::pair<Rational, std::int64_t>, int> labels;
  lg.link_label.reserve(static_cast<std::size_t>(g.num_links()));
  for (const Link& l : g.links()) {
    auto it =
        labels.emplace(std::make_pair(l.bandwidth, l.multiplicity), static_cast<int>(labels.size()))
            .first;
    lg.link_label.push_back(it->second);
  }
  auto csr = [&](bool out, std::vector<int>& start, std::vector<int>& other,
                 std::vector<int>& label) {
    start.assign(static_cast<std::size_t>(lg.n) + 1, 0);
    for (int v = 0; v < lg.n; ++v) {
      const auto& ls = out ? g.OutLinks(v) : g.InLinks(v);
      start[v + 1] = start[v] + static_cast<int>(ls.size());
      for (int e : ls) {
        other.push_back(out ? g.link(e).to : g.link(e).from);
        label.push_back(lg.link_label[e]);
      }
    }
  };
  csr(true, lg.out_start, lg.out_to, lg.out_label);
  csr(false, lg.in_start, lg.in_from, lg.in_label);
  lg.kind.resize(static_cast<std::size_t>(lg.n));
  for (int v = 0; v < lg.n; ++v) lg.kind[v] = g.IsCompute(v) ? 0 : 1;
  return lg;
}

// A colouring of the nodes: colour[v] in 0..num-1.
struct Colouring {
  std::vector<int> colour;
  int num = 0;
};

class Searcher {
 public:
  Searcher(const Topology& g, std::int64_t max_work) : g_(g), lg_(Label(g)), max_work_(max_work) {}

  std::int64_t work() const { return work_; }
  std::int64_t search_nodes() const { return search_nodes_; }
  bool out_of_budget() const { return work_ > max_work_; }

  // Refines c to the coarsest equitable colouring finer than it (1-dimensional
  // Weisfeiler-Leman). Each node keeps acc = a commutative hash of its labelled neighbour
  // colours, updated when a neighbour changes colour; a round regroups only the nodes whose acc
  // changed ("affected"), so a round costs O(affected · log + degrees of the recoloured nodes)
  // and a ring is refined in O(V), not O(V²). Naming is isomorphism-invariant: cells are
  // processed in colour order and split by acc value; the fragment of the unaffected members
  // (else the one with the smallest acc) keeps the cell's colour, the others get new colours
  // in acc order. So two sides refined in parallel stay comparable; `trace` accumulates every
  // regrouping. false when the budget ran out.
  bool Refine(Colouring& c, std::uint64_t& trace) {
    const int n = lg_.n;
    auto out_term = [](int colour, int label) {
      return Mix((static_cast<std::uint64_t>(colour) << 32) ^
                 (static_cast<std::uint64_t>(label) << 1));
    };
    auto in_term = [](int colour, int label) {
      return Mix((static_cast<std::uint64_t>(colour) << 32) ^
                 (static_cast<std::uint64_t>(label) << 1) ^ 1);
    };
    std::vector<std::uint64_t> acc(static_cast<std::size_t>(n), 0);
    for (int v = 0; v < n; ++v) {
      for (int i = lg_.out_start[v]; i < lg_.out_start[v + 1]; ++i)
        acc[v] += out_term(c.colour[lg_.out_to[i]], lg_.out_label[i]);
      for (int i = lg_.in_start[v]; i < lg_.in_start[v + 1]; ++i)
        acc[v] += in_term(c.colour[lg_.in_from[i]], lg_.in_label[i]);
    }
    work_ += n + static_cast<std::int64_t>(lg_.out_to.size()) * 2;
    std::vector<int> size(static_cast<std::size_t>(c.num), 0);
    for (int v = 0; v < n; ++v) ++size[c.colour[v]];
    std::vector<std::uint64_t> cell_acc(static_cast<std::size_t>(c.num), 0);
    std::vector<int> affected(static_cast<std::size_t>(n));
    std::iota(affected.begin(), affected.end(), 0);  // first round: every node
    std::vector<char> is_affected(static_cast<std::size_t>(n), 0);
    struct Change {
      int node, from, to;
    };
    std::vector<Change> changes;
    struct Fragment {
      std::uint64_t acc;
      std::size_t begin, end;
    };
    std::vector<Fragment> fragments;
    while (true) {
      work_ += static_cast<std::int64_t>(affected.size());
      if (out_of_budget()) return false;
      std::sort(affected.begin(), affected.end(), [&](int x, int y) {
        return c.colour[x] != c.colour[y] ? c.colour[x] < c.colour[y] : acc[x] < acc[y];
      });
      changes.clear();
      for (std::size_t i = 0; i < affected.size();) {
        const int cell = c.colour[affected[i]];
        fragments.clear();
        std::size_t j = i;
        while (j < affected.size() && c.colour[affected[j]] == cell) {
          std::size_t k = j;
          while (k < affected.size() && c.colour[affected[k]] == cell &&
                 acc[affected[k]] == acc[affected[j]]) {
            ++k;
          }
          fragments.push_back({acc[affected[j]], j, k});
          j = k;
        }
        const int unaffected = size[cell] - static_cast<int>(j - i);
        const std::uint64_t keep = unaffected > 0 ? cell_acc[cell] : fragments.front().acc;
        trace = Mix(trace ^
                    Mix(static_cast<std::uint64_t>(cell) * 1000003 +
                        static_cast<std::uint64_t>(unaffected)) ^
                    (unaffected > 0 ? keep : 0));
        for (const Fragment& f : fragments) {
          trace = Mix(trace ^ Mix(static_cast<std::uint64_t>(f.end - f.begin)) ^ f.acc);
          if (f.acc == keep) continue;
          const int fresh = c.num++;
          size.push_back(static_cast<int>(f.end - f.begin));
          cell_acc.push_back(f.acc);
          size[cell] -= static_cast<int>(f.end - f.begin);
          for (std::size_t t = f.begin; t < f.end; ++t)
            changes.push_back({affected[t], cell, fresh});
        }
        cell_acc[cell] = keep;
        i = j;
      }
      if (changes.empty()) return true;
      for (const Change& ch : changes) c.colour[ch.node] = ch.to;
      for (int v : affected) is_affected[v] = 0;
      affected.clear();
      auto touch = [&](int v) {
        if (!is_affected[v]) {
          is_affected[v] = 1;
          affected.push_back(v);
        }
      };
      for (const Change& ch : changes) {
        const int u = ch.node;
        for (int i = lg_.out_start[u]; i < lg_.out_start[u + 1]; ++i) {  // u -> x
          const int x = lg_.out_to[i], l = lg_.out_label[i];
          acc[x] += in_term(ch.to, l) - in_term(ch.from, l);
          touch(x);
        }
        for (int i = lg_.in_start[u]; i < lg_.in_start[u + 1]; ++i) {  // y -> u
          const int y = lg_.in_from[i], l = lg_.in_label[i];
          acc[y] += out_term(ch.to, l) - out_term(ch.from, l);
          touch(y);
        }
        work_ += lg_.out_start[u + 1] - lg_.out_start[u] + lg_.in_start[u + 1] - lg_.in_start[u];
      }
    }
  }

  // The equitable colouring of the whole graph (kinds and labels only).
  bool Base(Colouring& c) {
    c.colour = lg_.kind;
    c.num = 0;
    std::vector<int> seen(2, -1);
    for (int k : lg_.kind) {
      if (seen[k] < 0) seen[k] = 1;
    }
    // Ranks of the kinds present.
    int next = 0;
    for (int k = 0; k < 2; ++k) {
      if (seen[k] > 0) seen[k] = next++;
    }
    for (int& x : c.colour) x = seen[x];
    c.num = next;
    std::uint64_t trace = 0;
    return Refine(c, trace);
  }

  // The invariant of v: the refinement trace of `base` with v singled out.
  std::optional<std::uint64_t> Invariant(const Colouring& base, int v) {
    Colouring c = base;
    c.colour[v] = c.num++;
    std::uint64_t trace = Mix(static_cast<std::uint64_t>(base.colour[v]));
    if (!Refine(c, trace)) return std::nullopt;
    return Mix(trace ^ static_cast<std::uint64_t>(c.num));
  }

  enum class Outcome { kFound, kNone, kAborted };

  // An automorphism with a -> w, if any (exhaustive unless the budget runs out).
  Outcome Search(const Colouring& base, int a, int w, std::vector<int>& perm) {
    Colouring left = base, right = base;
    left.colour[a] = left.num++;
    right.colour[w] = right.num++;
    return Descend(std::move(left), std::move(right), perm);
  }

  // Verifies a leaf: kinds and labelled links are kept.
  bool IsAutomorphism(const std::vector<int>& p) const {
    for (int v = 0; v < lg_.n; ++v) {
      if (lg_.kind[v] != lg_.kind[p[v]]) return false;
    }
    for (int e = 0; e < g_.num_links(); ++e) {
      const Link& l = g_.link(e);
      auto image = g_.FindLink(p[l.from], p[l.to]);
      if (!image || lg_.link_label[*image] != lg_.link_label[e]) return false;
    }
    return true;
  }

 private:
  // Each level of the descent holds two colourings (2·V ints): deeper than this many ints in
  // all is given up as out of budget (512 MiB), whatever the work budget says.
  static constexpr std::int64_t kMaxStackInts = std::int64_t{1} << 27;

  Outcome Descend(Colouring left, Colouring right, std::vector<int>& perm) {
    struct Depth {
      int& d;
      explicit Depth(int& x) : d(++x) {}
      ~Depth() { --d; }
    } depth(depth_);
    if (static_cast<std::int64_t>(depth_) * 2 * lg_.n > kMaxStackInts) {
      work_ = max_work_ + 1;  // reported as a spent budget
      return Outcome::kAborted;
    }
    ++search_nodes_;
    std::uint64_t trace_left = 0, trace_right = 0;
    if (!Refine(left, trace_left) || !Refine(right, trace_right)) return Outcome::kAborted;
    if (trace_left != trace_right || left.num != right.num) return Outcome::kNone;
    const int n = lg_.n;
    if (left.num == n) {  // discrete: the colours name the map
      std::vector<int> right_of(static_cast<std::size_t>(n));
      for (int v = 0; v < n; ++v) right_of[right.colour[v]] = v;
      perm.assign(static_cast<std::size_t>(n), 0);
      for (int v = 0; v < n; ++v) perm[v] = right_of[left.colour[v]];
      work_ += n + g_.num_links();
      return IsAutomorphism(perm) ? Outcome::kFound : Outcome::kNone;
    }
    // Shortcut before branching: match each left cell to the right cell of its colour in node
    // order. In highly symmetric graphs (fat-trees: a transposition of two hosts) this often is
    // an automorphism already, where the full descent would single out ~V nodes one by one.
    std::vector<int> size(static_cast<std::size_t>(left.num), 0);
    for (int v = 0; v < n; ++v) ++size[left.colour[v]];
    if (OrderedMatch(left, right, size, perm)) return Outcome::kFound;
    int target = -1;
    for (int k = 0; k < left.num; ++k) {
      if (size[k] > 1 && (target < 0 || size[k] < size[target])) target = k;
    }
    int x = 0;
    while (left.colour[x] != target) ++x;
    for (int y = 0; y < n; ++y) {
      if (right.colour[y] != target) continue;
      Colouring l2 = left, r2 = right;
      l2.colour[x] = l2.num++;
      r2.colour[y] = r2.num++;
      Outcome o = Descend(std::move(l2), std::move(r2), perm);
      if (o != Outcome::kNone) return o;
    }
    return Outcome::kNone;
  }

  // The map that sends the i-th node (in id order) of each left cell to the i-th node of the
  // right cell of the same colour, when it is an automorphism. O(V + E).
  bool OrderedMatch(const Colouring& left, const Colouring& right, const std::vector<int>& size,
                    std::vector<int>& perm) {
    const int n = lg_.n;
    std::vector<int> start(static_cast<std::size_t>(left.num) + 1, 0);
    for (int k = 0; k < left.num; ++k) start[k + 1] = start[k] + size[k];
    std::vector<int> fill(start.begin(), start.end() - 1), right_nodes(static_cast<std::size_t>(n));
    for (int v = 0; v < n; ++v) {
      int& at = fill[right.colour[v]];
      if (at >= start[right.colour[v] + 1]) return false;  // cell sizes differ
      right_nodes[at++] = v;
    }
    std::copy(start.begin(), start.end() - 1, fill.begin());
    perm.assign(static_cast<std::size_t>(n), 0);
    for (int v = 0; v < n; ++v) perm[v] = right_nodes[fill[left.colour[v]]++];
    work_ += n + g_.num_links();
    return IsAutomorphism(perm);
  }

  const Topology& g_;
  LabelledGraph lg_;
  std::int64_t max_work_;
  std::int64_t work_ = 0;
  std::int64_t search_nodes_ = 0;
  int depth_ = 0;
};

}  // namespace

std::string PermutationProblem(const std::vector<int>& p, int n) {
  if (p.size() != static_cast<std::size_t>(n)) {
    return "has " + std::to_string(p.size()) + " entries, the topology has " + std::to_string(n) +
           " nodes";
  }
  std::vector<int> first(static_cast<std::size_t>(n), -1);
  for (int i = 0; i < n; ++i) {
    if (p[i] < 0 || p[i] >= n) {
      return "entry " + std::to_string(i) + " is " + std::to_string(p[i]) +
             ", not a node index in 0.." + std::to_string(n - 1);
    }
    if (first[p[i]] >= 0) {
      return "entry " + std::to_string(i) + " is " + std::to_string(p[i]) + " like entry " +
             std::to_string(first[p[i]]) + " (a permutation maps different nodes apart)";
    }
    first[p[i]] = i;
  }
  return "";
}

AutomorphismCheck CheckAutomorphism(const Topology& g, const std::vector<int>& p) {
  AutomorphismCheck r;
  for (int v = 0; v < g.num_nodes(); ++v) {
    if (g.node(v).kind != g.node(p[v]).kind) {
      r.ok = false;
      r.node = v;
      r.problem = std::string("maps ") + (g.IsCompute(v) ? "compute" : "switch") + " node " +
                  g.node(v).name + " to " + (g.IsCompute(p[v]) ? "compute" : "switch") + " node " +
                  g.node(p[v]).name;
      return r;
    }
  }
  for (int e = 0; e < g.num_links(); ++e) {
    const Link& l = g.link(e);
    auto image = g.FindLink(p[l.from], p[l.to]);
    if (image && g.link(*image).bandwidth == l.bandwidth &&
        g.link(*image).multiplicity == l.multiplicity) {
      continue;
    }
    r.ok = false;
    r.link = e;
    r.problem = "maps link " + LinkText(g, l.from, l.to) + " (" + LinkLabel(l) + ") to " +
                LinkText(g, p[l.from], p[l.to]) +
                (image ? ", which has " + LinkLabel(g.link(*image)) : ", which is not a link");
    return r;
  }
  return r;
}

std::vector<std::vector<int>> Orbits(int n, const std::vector<std::vector<int>>& generators) {
  UnionFind uf(n);
  for (const auto& p : generators) uf.AddGenerator(p);
  std::vector<std::vector<int>> orbits;
  std::vector<int> index(static_cast<std::size_t>(n), -1);
  for (int v = 0; v < n; ++v) {
    int root = uf.Find(v);  // the smallest id of the orbit: seen first
    if (index[root] < 0) {
      index[root] = static_cast<int>(orbits.size());
      orbits.emplace_back();
    }
    orbits[index[root]].push_back(v);
  }
  return orbits;
}

std::vector<std::vector<int>> ComputeOrbits(const Topology& g,
                                            const std::vector<std::vector<int>>& generators) {
  std::vector<std::vector<int>> out;
  for (auto& orbit : Orbits(g.num_nodes(), generators)) {
    if (g.IsCompute(orbit.front())) out.push_back(std::move(orbit));
  }
  return out;
}

SymmetrySearchResult FindAutomorphisms(const Topology& g,
                                       const std::vector<std::vector<int>>& known,
                                       const SymmetrySearchOptions& options) {
  SymmetrySearchResult result;
  result.generators = known;
  const int n = g.num_nodes();
  Searcher s(g, options.max_work);
  UnionFind uf(n);
  for (const auto& p : known) uf.AddGenerator(p);
  auto finish = [&](bool complete) {
    result.complete = complete;
    result.work = s.work();
    result.search_nodes = s.search_nodes();
    return result;
  };
  Colouring base;
  if (!s.Base(base)) return finish(false);
  std::vector<std::vector<int>> cells(static_cast<std::size_t>(base.num));
  for (int v = 0; v < n; ++v) cells[base.colour[v]].push_back(v);
  std::vector<std::optional<std::uint64_t>> invariant(static_cast<std::size_t>(n));
  auto invariant_of = [&](int v) -> std::optional<std::uint64_t> {
    if (!invariant[v]) invariant[v] = s.Invariant(base, v);
    return invariant[v];
  };
  std::vector<int> perm;
  for (const std::vector<int>& cell : cells) {
    std::vector<int> pending = cell;
    while (pending.size() >= 2) {
      const int a = pending.front();
      std::vector<int> rest;
      for (std::size_t i = 1; i < pending.size(); ++i) {
        const int w = pending[i];
        if (uf.Find(w) == uf.Find(a)) continue;
        auto inv_a = invariant_of(a);  // only once a node outside a's orbit needs it
        if (!inv_a) return finish(false);
        auto inv_w = invariant_of(w);
        if (!inv_w) return finish(false);
        if (*inv_w != *inv_a) {
          rest.push_back(w);
          continue;
        }
        ++result.searches;
        switch (s.Search(base, a, w, perm)) {
          case Searcher::Outcome::kFound:
            uf.AddGenerator(perm);
            result.generators.push_back(perm);
            ++result.found;
            break;
          case Searcher::Outcome::kNone:
            rest.push_back(w);
            break;
          case Searcher::Outcome::kAborted:
            return finish(false);
        }
      }
      pending.clear();
      for (int w : rest) {
        if (uf.Find(w) != uf.Find(a)) pending.push_back(w);
      }
    }
  }
  return finish(true);
}

}  // namespace collsynth
