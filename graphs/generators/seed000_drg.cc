#include "graphs/generators/seed000_drg.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "graphs/generators/family_args.h"
#include "graphs/generators/finite_field.h"
#include "graphs/generators/seed000_generators.h"
#include "graphs/metrics.h"

namespace collsynth {
namespace {

bool IsPrime(int q) {
  if (q < 2) return false;
  for (int p = 2; p * p <= q; ++p) {
    if (q % p == 0) return false;
  }
  return true;
}

void RequireSmallPrime(int q, int max_q) {
  if (!IsPrime(q) || q > max_q) {
    throw std::invalid_argument("parameter q = " + std::to_string(q) +
                                " must be a prime <= " + std::to_string(max_q));
  }
}

// All k-subsets of {0..n-1} in lexicographic order.
std::vector<std::vector<int>> Subsets(int n, int k) {
  std::vector<std::vector<int>> out;
  std::vector<int> s(static_cast<std::size_t>(k));
  for (int i = 0; i < k; ++i) s[i] = i;
  while (true) {
    out.push_back(s);
    int i = k - 1;
    while (i >= 0 && s[i] == n - k + i) --i;
    if (i < 0) break;
    ++s[i];
    for (int j = i + 1; j < k; ++j) s[j] = s[j - 1] + 1;
  }
  return out;
}

std::string SetName(const std::string& prefix, const std::vector<int>& s) {
  std::string n = prefix;
  for (std::size_t i = 0; i < s.size(); ++i) n += (i ? "_" : "") + std::to_string(s[i]);
  return n;
}

int Intersection(const std::vector<int>& a, const std::vector<int>& b) {
  int c = 0;
  for (int x : a) c += std::binary_search(b.begin(), b.end(), x) ? 1 : 0;
  return c;
}

std::int64_t Binomial(int n, int k) {
  std::int64_t r = 1;
  for (int i = 1; i <= k; ++i) {
    r = r * (n - k + i) / i;
    if (r > kMaxGeneratedNodes) return kMaxGeneratedNodes + 1;
  }
  return r;
}

// Normalized nonzero vectors of F_q^dim: first nonzero coordinate 1. Lexicographic order.
std::vector<std::vector<int>> ProjectivePoints(int q, int dim) {
  std::vector<std::vector<int>> pts;
  std::vector<int> v(static_cast<std::size_t>(dim), 0);
  std::int64_t total = 1;
  for (int i = 0; i < dim; ++i) total *= q;
  for (std::int64_t c = 0; c < total; ++c) {
    std::int64_t x = c;
    for (int i = dim - 1; i >= 0; --i) {
      v[i] = static_cast<int>(x % q);
      x /= q;
    }
    auto first = std::find_if(v.begin(), v.end(), [](int t) { return t != 0; });
    if (first != v.end() && *first == 1) pts.push_back(v);
  }
  return pts;
}

std::vector<int> Normalize(std::vector<int> v, int q) {
  auto first = std::find_if(v.begin(), v.end(), [](int t) { return t != 0; });
  if (first == v.end()) return v;
  int inv = 1;
  while ((inv * *first) % q != 1) ++inv;
  for (int& t : v) t = (t * inv) % q;
  return v;
}

}  // namespace

Topology JohnsonGraph(int n, int k) {
  if (n < 2 || n > 64 || k < 1 || k >= n) {
    throw std::invalid_argument("johnson(n,k) needs 1 <= k < n <= 64");
  }
  std::string name = "johnson(" + std::to_string(n) + "," + std::to_string(k) + ")";
  BigInt nodes = Binomial(n, k);
  CheckTopologySize(nodes, nodes * k * (n - k), name);
  if (nodes > 20000)
    throw std::invalid_argument(name + " has more than 20000 nodes (O(N^2) build)");
  auto sets = Subsets(n, k);
  Topology g(name);
  for (const auto& s : sets) g.AddCompute(SetName("s", s));
  for (std::size_t i = 0; i < sets.size(); ++i) {
    for (std::size_t j = i + 1; j < sets.size(); ++j) {
      if (Intersection(sets[i], sets[j]) == k - 1)
        g.AddDuplexLink(static_cast<int>(i), static_cast<int>(j), 1);
    }
  }
  return g;
}

Topology OddGraph(int k) {
  if (k < 2 || k > 8) throw std::invalid_argument("oddgraph(k) needs 2 <= k <= 8");
  auto sets = Subsets(2 * k - 1, k - 1);
  Topology g("oddgraph(" + std::to_string(k) + ")");
  for (const auto& s : sets) g.AddCompute(SetName("s", s));
  for (std::size_t i = 0; i < sets.size(); ++i) {
    for (std::size_t j = i + 1; j < sets.size(); ++j) {
      if (Intersection(sets[i], sets[j]) == 0)
        g.AddDuplexLink(static_cast<int>(i), static_cast<int>(j), 1);
    }
  }
  return g;
}

Topology DoubledOddGraph(int k) {
  if (k < 2 || k > 8) throw std::invalid_argument("doubled odd graph needs 2 <= k <= 8");
  auto small = Subsets(2 * k - 1, k - 1), large = Subsets(2 * k - 1, k);
  Topology g("doubledodd(" + std::to_string(k) + ")");
  for (const auto& s : small) g.AddCompute(SetName("a", s));
  for (const auto& s : large) g.AddCompute(SetName("b", s));
  int offset = static_cast<int>(small.size());
  for (std::size_t i = 0; i < small.size(); ++i) {
    for (std::size_t j = 0; j < large.size(); ++j) {
      if (Intersection(small[i], large[j]) == k - 1) {
        g.AddDuplexLink(static_cast<int>(i), offset + static_cast<int>(j), 1);
      }
    }
  }
  return g;
}

Topology CrownGraph(int d) {
  if (d < 2 || d > 100000) throw std::invalid_argument("crown graph needs 2 <= d <= 100000");
  CheckTopologySize(BigInt(2) * d, BigInt(2) * d * (d - 1), "crown(" + std::to_string(d) + ")");
  Topology g("crown(" + std::to_string(d) + ")");
  for (int i = 0; i < d; ++i) g.AddCompute("a" + std::to_string(i));
  for (int i = 0; i < d; ++i) g.AddCompute("b" + std::to_string(i));
  for (int i = 0; i < d; ++i) {
    for (int j = 0; j < d; ++j) {
      if (i != j) g.AddDuplexLink(i, d + j, 1);
    }
  }
  return g;
}

Topology PaleyGraph(int q) {
  Topology g("paley(" + std::to_string(q) + ")");
  if (q == 9) {
    // Elements a + b·i, i^2 = -1 over F_3; index 3a + b.
    auto mul = [](int x, int y) {
      int a = x / 3, b = x % 3, c = y / 3, e = y % 3;
      int re = ((a * c - b * e) % 3 + 3) % 3, im = (a * e + b * c) % 3;
      return 3 * re + im;
    };
    auto sub = [](int x, int y) { return 3 * ((x / 3 - y / 3 + 3) % 3) + (x % 3 - y % 3 + 3) % 3; };
    std::set<int> squares;
    for (int x = 1; x < 9; ++x) squares.insert(mul(x, x));
    for (int x = 0; x < 9; ++x) g.AddCompute("p" + std::to_string(x / 3) + std::to_string(x % 3));
    for (int x = 0; x < 9; ++x) {
      for (int y = 0; y < 9; ++y) {
        if (x != y && squares.count(sub(x, y))) g.AddLink(x, y, 1);
      }
    }
    return g;
  }
  if (!IsPrime(q) || q % 4 != 1 || q > 20000) {
    throw std::invalid_argument("paley(q) needs q = 9 or a prime q ≡ 1 (mod 4), q <= 20000");
  }
  std::vector<bool> square(static_cast<std::size_t>(q), false);
  for (std::int64_t x = 1; x < q; ++x) square[(x * x) % q] = true;
  for (int x = 0; x < q; ++x) g.AddCompute("p" + std::to_string(x));
  for (int x = 0; x < q; ++x) {
    for (int y = 0; y < q; ++y) {
      if (x != y && square[((x - y) % q + q) % q]) g.AddLink(x, y, 1);
    }
  }
  return g;
}

Topology ProjectivePlaneIncidence(int q) {
  RequireSmallPrime(q, 97);
  auto pts = ProjectivePoints(q, 3);
  Topology g("pgincidence(" + std::to_string(q) + ")");
  for (const auto& p : pts) g.AddCompute("p" + WordName(p, q));
  for (const auto& l : pts) g.AddCompute("l" + WordName(l, q));
  int n = static_cast<int>(pts.size());
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      int dot = 0;
      for (int c = 0; c < 3; ++c) dot += pts[i][c] * pts[j][c];
      if (dot % q == 0) g.AddDuplexLink(i, n + j, 1);
    }
  }
  return g;
}

Topology SymplecticQuadrangleIncidence(int q) {
  RequireSmallPrime(q, 7);
  auto pts = ProjectivePoints(q, 4);
  std::map<std::vector<int>, int> index;
  for (std::size_t i = 0; i < pts.size(); ++i) index[pts[i]] = static_cast<int>(i);
  auto form = [q](const std::vector<int>& x, const std::vector<int>& y) {
    return ((x[0] * y[1] - x[1] * y[0] + x[2] * y[3] - x[3] * y[2]) % q + q) % q;
  };
  std::set<std::vector<int>> lines;  // each line as the sorted ids of its q+1 points
  for (std::size_t i = 0; i < pts.size(); ++i) {
    for (std::size_t j = i + 1; j < pts.size(); ++j) {
      if (form(pts[i], pts[j]) != 0) continue;
      std::vector<int> line = {static_cast<int>(i), static_cast<int>(j)};
      for (int c = 1; c < q; ++c) {
        std::vector<int> v(4);
        for (int t = 0; t < 4; ++t) v[t] = (pts[i][t] + c * pts[j][t]) % q;
        line.push_back(index.at(Normalize(v, q)));
      }
      std::sort(line.begin(), line.end());
      lines.insert(line);
    }
  }
  Topology g("gqincidence(" + std::to_string(q) + ")");
  for (const auto& p : pts) g.AddCompute("p" + WordName(p, q));
  int n = static_cast<int>(pts.size()), li = 0;
  for (const auto& line : lines) {
    int id = g.AddCompute("l" + std::to_string(li++));
    for (int p : line) g.AddDuplexLink(p, id, 1);
  }
  (void)n;
  return g;
}

Topology AffinePlaneMinusParallelClassIncidence(int q) {
  if (q < 2 || q > 16 || !IsPrimePower(q))
    throw std::invalid_argument("AG(2,q) needs a prime power q <= 16");
  const FiniteField f(q);
  Topology g("agminus(" + std::to_string(q) + ")");
  for (int x = 0; x < q; ++x) {
    for (int y = 0; y < q; ++y) g.AddCompute("p" + std::to_string(x) + "." + std::to_string(y));
  }
  for (int m = 0; m < q; ++m) {
    for (int b = 0; b < q; ++b) {
      const int line = g.AddCompute("l" + std::to_string(m) + "." + std::to_string(b));
      for (int x = 0; x < q; ++x) g.AddDuplexLink(x * q + f.Add(f.Mul(m, x), b), line, 1);
    }
  }
  return g;
}

Topology UndirectedLineGraph(const Topology& g) {
  std::vector<std::pair<int, int>> edges;
  for (const Link& l : g.links()) {
    if (l.from == l.to || l.multiplicity != 1 || !g.FindLink(l.to, l.from)) {
      throw std::invalid_argument("undirected line graph needs a symmetric simple graph");
    }
    if (l.from < l.to) edges.emplace_back(l.from, l.to);
  }
  CheckTopologySize(edges.size(), BigInt(edges.size()) * edges.size(), "line graph of " + g.name());
  Topology h("uline(" + g.name() + ")");
  std::vector<std::vector<int>> at(static_cast<std::size_t>(g.num_nodes()));
  for (std::size_t e = 0; e < edges.size(); ++e) {
    h.AddCompute(g.node(edges[e].first).name + "-" + g.node(edges[e].second).name);
    at[edges[e].first].push_back(static_cast<int>(e));
    at[edges[e].second].push_back(static_cast<int>(e));
  }
  for (const auto& inc : at) {
    for (std::size_t i = 0; i < inc.size(); ++i) {
      for (std::size_t j = i + 1; j < inc.size(); ++j) h.AddDuplexLink(inc[i], inc[j], 1);
    }
  }
  return h;
}

Topology DistanceGraph(const Topology& g, int k) {
  if (k < 1) throw std::invalid_argument("distance graph needs k >= 1");
  if (g.num_nodes() > 20000) throw std::invalid_argument("distance graph limited to 20000 nodes");
  Topology h("distance" + std::to_string(k) + "(" + g.name() + ")");
  for (const Node& v : g.nodes()) h.AddNode(v.name, v.kind);
  for (int u = 0; u < g.num_nodes(); ++u) {
    auto dist = BfsDistances(g, u);
    for (int v = 0; v < g.num_nodes(); ++v) {
      if (dist[v] == k) h.AddLink(u, v, 1);
    }
  }
  return h;
}

std::vector<std::string> DistanceRegularGraphNames() {
  return {"octahedron", "paley9",      "k55minus", "heawooddist3", "petersenline",
          "q4",         "heawoodline", "pg23",     "ag24minus",    "odd4",
          "tutte8line", "doubledodd4", "gq33"};
}

Topology DistanceRegularGraph(const std::string& name) {
  Topology g;
  if (name == "octahedron")
    g = JohnsonGraph(4, 2);
  else if (name == "paley9")
    g = PaleyGraph(9);
  else if (name == "k55minus")
    g = CrownGraph(5);
  else if (name == "heawooddist3")
    g = DistanceGraph(ProjectivePlaneIncidence(2), 3);
  else if (name == "petersenline")
    g = UndirectedLineGraph(OddGraph(3));
  else if (name == "q4")
    g = Hypercube(4);
  else if (name == "heawoodline")
    g = UndirectedLineGraph(ProjectivePlaneIncidence(2));
  else if (name == "pg23")
    g = ProjectivePlaneIncidence(3);
  else if (name == "ag24minus")
    g = AffinePlaneMinusParallelClassIncidence(4);
  else if (name == "odd4")
    g = OddGraph(4);
  else if (name == "tutte8line")
    g = UndirectedLineGraph(SymplecticQuadrangleIncidence(2));
  else if (name == "doubledodd4")
    g = DoubledOddGraph(4);
  else if (name == "gq33")
    g = SymplecticQuadrangleIncidence(3);
  else {
    std::string list;
    for (const auto& n : DistanceRegularGraphNames()) list += (list.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown distance-regular graph '" + name + "'; known: " + list);
  }
  g.set_name("drg(" + name + ")");
  return g;
}

std::vector<Family> DistanceRegularFamilies() {
  std::vector<Family> f;
  std::string names;
  for (const auto& n : DistanceRegularGraphNames()) names += (names.empty() ? "" : "|") + n;
  f.push_back({"drg", "drg(" + names + ")", "seed 000 Table 7, App. E.3",
               "a degree-4 distance-regular graph of Table 7, by name",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, "drg(name)");
                 return DistanceRegularGraph(WordArg(a, 0, "name"));
               }});
  f.push_back({"johnson", "johnson(n,k)", "seed 000 Table 7 (J(4,2))",
               "Johnson graph J(n,k): k-subsets of n, adjacent iff sharing k-1 elements",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "johnson(n,k)");
                 int n = static_cast<int>(IntArg(a, 0, "n", 2, 64));
                 return JohnsonGraph(n, static_cast<int>(IntArg(a, 1, "k", 1, n - 1)));
               }});
  f.push_back({"oddgraph", "oddgraph(k)", "seed 000 Table 7 (O4)",
               "odd graph O_k: (k-1)-subsets of 2k-1, adjacent iff disjoint; O_3 = Petersen",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, "oddgraph(k)");
                 return OddGraph(static_cast<int>(IntArg(a, 0, "k", 2, 8)));
               }});
  return f;
}

}  // namespace collsynth
