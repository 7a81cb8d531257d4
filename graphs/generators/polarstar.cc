#include "graphs/generators/polarstar.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "graphs/generators/family_args.h"
#include "graphs/generators/finite_field.h"

namespace collsynth {
namespace {

std::string S(std::int64_t v) { return std::to_string(v); }

// Adjacency matrix of a supernode (n is small: at most a few thousand).
std::vector<std::vector<char>> Matrix(const SupernodeGraph& g) {
  const int n = g.size();
  std::vector<std::vector<char>> m(static_cast<std::size_t>(n),
                                   std::vector<char>(static_cast<std::size_t>(n), 0));
  for (int v = 0; v < n; ++v) {
    for (int w : g.adjacency[static_cast<std::size_t>(v)])
      m[static_cast<std::size_t>(v)][static_cast<std::size_t>(w)] = 1;
  }
  return m;
}

bool IsBijection(const std::vector<int>& f) {
  std::vector<char> seen(f.size(), 0);
  for (int x : f) {
    if (x < 0 || static_cast<std::size_t>(x) >= f.size() || seen[static_cast<std::size_t>(x)])
      return false;
    seen[static_cast<std::size_t>(x)] = 1;
  }
  return true;
}

void AddEdge(std::vector<std::vector<int>>& adj, int a, int b) {
  adj[static_cast<std::size_t>(a)].push_back(b);
  adj[static_cast<std::size_t>(b)].push_back(a);
}

void SortAdjacency(std::vector<std::vector<int>>& adj) {
  for (auto& list : adj) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
}

}  // namespace

const std::vector<std::pair<int, int>>& Iq3BaseEdges() {
  static const std::vector<std::pair<int, int>> kEdges = {{0, 2}, {0, 3}, {0, 4}, {1, 4},
                                                          {1, 6}, {1, 7}, {2, 4}, {2, 5},
                                                          {3, 6}, {3, 7}, {5, 6}, {5, 7}};
  return kEdges;
}

SupernodeGraph InductiveQuad(int d) {
  if (d < 0 || (d % 4 != 0 && d % 4 != 3)) {
    throw std::invalid_argument("Inductive-Quad degree d' = " + S(d) +
                                " must be a non-negative integer with d' ≡ 0 or 3 (mod 4)");
  }
  CheckTopologySize(BigInt(2) * d + 2, (BigInt(2) * d + 2) * d, "iq(" + S(d) + ")");
  const int n = 2 * d + 2;
  SupernodeGraph g;
  g.name = "iq(" + S(d) + ")";
  g.adjacency.assign(static_cast<std::size_t>(n), {});
  g.f.resize(static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v) g.f[static_cast<std::size_t>(v)] = v ^ 1;
  int m = 2;  // IQ_0: vertices 0, 1, no edges
  if (d % 4 == 3) {
    for (auto [a, b] : Iq3BaseEdges()) AddEdge(g.adjacency, a, b);
    m = 8;
  }
  for (; m < n; m += 8) {
    for (auto [a, b] : Iq3BaseEdges()) AddEdge(g.adjacency, m + a, m + b);
    for (int old = 0; old < m; old += 2) {  // old = a ∈ A, old + 1 = f(a) ∈ f(A)
      for (int i : {0, 1, 4, 5}) AddEdge(g.adjacency, old, m + i);
      for (int i : {2, 3, 6, 7}) AddEdge(g.adjacency, old + 1, m + i);
    }
  }
  SortAdjacency(g.adjacency);
  return g;
}

SupernodeGraph PaleySupernode(int r) {
  if (r < 5 || r % 4 != 1 || !IsPrimePower(r)) {
    throw std::invalid_argument("Paley supernode order r = " + S(r) +
                                " must be a prime power with r ≡ 1 (mod 4), r >= 5");
  }
  CheckTopologySize(BigInt(r), BigInt(r) * (r - 1) / 2, "paleygraph(" + S(r) + ")");
  FiniteField field(r);
  SupernodeGraph g;
  g.name = "paleygraph(" + S(r) + ")";
  g.adjacency.assign(static_cast<std::size_t>(r), {});
  g.f.resize(static_cast<std::size_t>(r));
  for (int x = 0; x < r; ++x) {
    for (int y = 0; y < r; ++y) {
      if (x != y && field.IsNonzeroSquare(field.Sub(x, y)))
        g.adjacency[static_cast<std::size_t>(x)].push_back(y);
    }
    g.f[static_cast<std::size_t>(x)] = field.Mul(field.primitive_element(), x);
  }
  return g;
}

bool HasPropertyRStar(const SupernodeGraph& g) {
  const int n = g.size();
  if (static_cast<int>(g.f.size()) != n || !IsBijection(g.f)) return false;
  for (int x = 0; x < n; ++x) {
    if (g.f[static_cast<std::size_t>(g.f[static_cast<std::size_t>(x)])] != x)
      return false;  // involution
  }
  auto m = Matrix(g);
  for (int x = 0; x < n; ++x) {
    const int fx = g.f[static_cast<std::size_t>(x)];
    for (int y = 0; y < n; ++y) {
      const int fy = g.f[static_cast<std::size_t>(y)];
      if (y == x || y == fx || m[static_cast<std::size_t>(x)][static_cast<std::size_t>(y)] ||
          m[static_cast<std::size_t>(fx)][static_cast<std::size_t>(fy)]) {
        continue;
      }
      return false;
    }
  }
  return true;
}

bool HasPropertyR1(const SupernodeGraph& g) {
  const int n = g.size();
  if (static_cast<int>(g.f.size()) != n || !IsBijection(g.f)) return false;
  auto m = Matrix(g);
  auto f = [&](int x) { return g.f[static_cast<std::size_t>(x)]; };
  // f^2 is an automorphism: x ~ y iff f^2(x) ~ f^2(y).
  for (int x = 0; x < n; ++x) {
    for (int y = 0; y < n; ++y) {
      if (m[static_cast<std::size_t>(x)][static_cast<std::size_t>(y)] !=
          m[static_cast<std::size_t>(f(f(x)))][static_cast<std::size_t>(f(f(y)))]) {
        return false;
      }
    }
  }
  // E ∪ f(E) covers every pair of distinct vertices.
  std::vector<std::vector<char>> covered = m;
  for (int x = 0; x < n; ++x) {
    for (int y : g.adjacency[static_cast<std::size_t>(x)])
      covered[static_cast<std::size_t>(f(x))][static_cast<std::size_t>(f(y))] = 1;
  }
  for (int x = 0; x < n; ++x) {
    for (int y = 0; y < n; ++y) {
      if (x != y && !covered[static_cast<std::size_t>(x)][static_cast<std::size_t>(y)])
        return false;
    }
  }
  return true;
}

PolarityGraph ErdosRenyiPolarity(int q) {
  if (!IsPrimePower(q)) throw std::invalid_argument("ER_q needs a prime power q, got " + S(q));
  BigInt n = BigInt(q) * q + q + 1;
  CheckTopologySize(n, n * (q + 1), "er(" + S(q) + ")");
  FiniteField field(q);
  PolarityGraph er;
  er.q = q;
  for (int y = 0; y < q; ++y) {
    for (int z = 0; z < q; ++z) er.points.push_back({1, y, z});
  }
  for (int z = 0; z < q; ++z) er.points.push_back({0, 1, z});
  er.points.push_back({0, 0, 1});
  const int size = er.size();
  auto index = [q](int a, int b, int c) {
    return a == 1 ? b * q + c : (b == 1 ? q * q + c : q * q + q);
  };
  er.adjacency.assign(static_cast<std::size_t>(size), {});
  er.self_loop.assign(static_cast<std::size_t>(size), 0);
  for (int v = 0; v < size; ++v) {
    const auto [a, b, c] = er.points[static_cast<std::size_t>(v)];
    std::vector<int>& adj = er.adjacency[static_cast<std::size_t>(v)];
    // w = (1, y, z): a + b·y + c·z = 0.
    for (int y = 0; y < q; ++y) {
      int rest = field.Add(a, field.Mul(b, y));
      if (c != 0) {
        adj.push_back(index(1, y, field.Mul(field.Neg(rest), field.Inv(c))));
      } else if (rest == 0) {
        for (int z = 0; z < q; ++z) adj.push_back(index(1, y, z));
      }
    }
    // w = (0, 1, z): b + c·z = 0.
    if (c != 0) {
      adj.push_back(index(0, 1, field.Mul(field.Neg(b), field.Inv(c))));
    } else if (b == 0) {
      for (int z = 0; z < q; ++z) adj.push_back(index(0, 1, z));
    }
    // w = (0, 0, 1): c = 0.
    if (c == 0) adj.push_back(index(0, 0, 1));
    std::sort(adj.begin(), adj.end());
    auto self = std::find(adj.begin(), adj.end(), v);
    if (self != adj.end()) {
      er.self_loop[static_cast<std::size_t>(v)] = 1;
      adj.erase(self);
    }
  }
  return er;
}

std::string PolarityPointName(const std::array<int, 3>& point) {
  return "p" + S(point[0]) + "_" + S(point[1]) + "_" + S(point[2]);
}

Topology ErTopology(int q) {
  PolarityGraph er = ErdosRenyiPolarity(q);
  Topology g("er(" + S(q) + ")");
  for (const auto& p : er.points) g.AddCompute(PolarityPointName(p));
  const Rational one(1);
  for (int v = 0; v < er.size(); ++v) {
    for (int w : er.adjacency[static_cast<std::size_t>(v)]) g.AddLink(v, w, one);
    if (er.self_loop[static_cast<std::size_t>(v)]) g.AddLink(v, v, one);
  }
  return g;
}

Topology SupernodeTopology(const SupernodeGraph& s) {
  Topology g(s.name);
  for (int v = 0; v < s.size(); ++v) g.AddCompute("n" + S(v));
  const Rational one(1);
  for (int v = 0; v < s.size(); ++v) {
    for (int w : s.adjacency[static_cast<std::size_t>(v)]) g.AddLink(v, w, one);
  }
  return g;
}

Topology StarProduct(const PolarityGraph& er, const SupernodeGraph& sn) {
  const int n = er.size(), m = sn.size();
  BigInt er_links = 0;
  for (const auto& adj : er.adjacency) er_links += adj.size();
  BigInt sn_links = 0;
  for (const auto& adj : sn.adjacency) sn_links += adj.size();
  // Directed links: 2·(intra + inter + loop) <= n·|2E'| + |2E(ER)|·m + 2·(q+1)·m.
  CheckTopologySize(BigInt(n) * m, BigInt(n) * sn_links + er_links * m + BigInt(2) * (er.q + 1) * m,
                    "star product er(" + S(er.q) + ") * " + sn.name);
  Topology g("er(" + S(er.q) + ")*" + sn.name);
  for (int x = 0; x < n; ++x) {
    const std::string base = PolarityPointName(er.points[static_cast<std::size_t>(x)]) + "n";
    for (int v = 0; v < m; ++v) g.AddCompute(base + S(v));
  }
  // Collect undirected edges {a, b}, a < b, then add each once as a duplex unit link.
  std::vector<std::pair<int, int>> edges;
  auto id = [m](int x, int v) { return x * m + v; };
  auto push = [&edges](int a, int b) {
    if (a == b) return;  // a product self-loop is dropped
    edges.emplace_back(std::min(a, b), std::max(a, b));
  };
  for (int x = 0; x < n; ++x) {
    for (int v = 0; v < m; ++v) {
      for (int w : sn.adjacency[static_cast<std::size_t>(v)]) {
        if (v < w) push(id(x, v), id(x, w));
      }
    }
    for (int y : er.adjacency[static_cast<std::size_t>(x)]) {
      if (x < y) {  // orientation x -> y: (x, v) ~ (y, f(v))
        for (int v = 0; v < m; ++v) push(id(x, v), id(y, sn.f[static_cast<std::size_t>(v)]));
      }
    }
    if (er.self_loop[static_cast<std::size_t>(x)]) {
      for (int v = 0; v < m; ++v) push(id(x, v), id(x, sn.f[static_cast<std::size_t>(v)]));
    }
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  const Rational one(1);
  for (auto [a, b] : edges) g.AddDuplexLink(a, b, one);
  return g;
}

Topology PolarStar(int q, int d, SupernodeKind kind) {
  if (!IsPrimePower(q))
    throw std::invalid_argument("polarstar: q = " + S(q) + " is not a prime power");
  const bool iq = kind == SupernodeKind::kInductiveQuad;
  const std::string name = "polarstar(" + S(q) + "," + S(d) + "," + (iq ? "iq" : "paley") + ")";
  if (iq && (d < 0 || (d % 4 != 0 && d % 4 != 3))) {
    throw std::invalid_argument(
        "polarstar: an Inductive-Quad supernode needs d' >= 0 with d' ≡ 0 or 3 "
        "(mod 4); got d' = " +
        S(d));
  }
  if (!iq && (d < 2 || d % 2 != 0 || !IsPrimePower(2 * static_cast<std::int64_t>(d) + 1))) {
    throw std::invalid_argument(
        "polarstar: a Paley supernode needs d' even, d' >= 2 and 2d'+1 a prime "
        "power; got d' = " +
        S(d));
  }
  BigInt order = (BigInt(q) * q + q + 1) * (BigInt(2) * d + (iq ? 2 : 1));
  CheckTopologySize(order, order * (q + 1 + BigInt(d)), name);
  SupernodeGraph sn = iq ? InductiveQuad(d) : PaleySupernode(2 * d + 1);
  Topology g = StarProduct(ErdosRenyiPolarity(q), sn);
  g.set_name(name);
  return g;
}

}  // namespace collsynth
