// Small topologies for the BFB tests, built directly (independent of the generator
// expression language): tori, hypercubes, Hamming graphs, circulants, K_{d,d}, generalized
// Kautz graphs, some distance-regular graphs of seed 000 Table 7, and seeded random digraphs.
// Every undirected edge becomes two opposite unit links (seed 000 App. F).
#ifndef COLLSYNTH_TESTS_SOLVERS_BFB_TEST_TOPOLOGIES_H_
#define COLLSYNTH_TESTS_SOLVERS_BFB_TEST_TOPOLOGIES_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "graphs/topology.h"

namespace collsynth::bfb_test {

inline Topology WithNodes(const std::string& name, int n) {
  Topology g(name);
  for (int i = 0; i < n; ++i) g.AddCompute("n" + std::to_string(i));
  return g;
}

// Undirected simple graph from an adjacency predicate (each pair once, both directions).
inline Topology Undirected(const std::string& name, int n,
                           const std::function<bool(int, int)>& adj) {
  Topology g = WithNodes(name, n);
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b)
      if (adj(a, b)) g.AddDuplexLink(a, b, Rational(1));
  return g;
}

// d_1 × ... × d_k torus as a simple digraph (Thm 13 needs simple factors): a dimension of
// size 2 is K_2, one link each way, so 3×3×2 is 5-regular.
inline Topology Torus(const std::vector<int>& dims) {
  int n = 1;
  for (int d : dims) n *= d;
  std::string name = "torus";
  for (int d : dims) name += "_" + std::to_string(d);
  Topology g = WithNodes(name, n);
  for (int x = 0; x < n; ++x) {
    int stride = 1;
    for (int d : dims) {
      int c = (x / stride) % d;
      int up = x + (((c + 1) % d) - c) * stride;
      int down = x + (((c + d - 1) % d) - c) * stride;
      g.AddLink(x, up, Rational(1));
      if (down != up) g.AddLink(x, down, Rational(1));
      stride *= d;
    }
  }
  return g;
}

inline Topology Hypercube(int dim) {
  return Undirected("hypercube_" + std::to_string(dim), 1 << dim, [](int a, int b) {
    int x = a ^ b;
    return (x & (x - 1)) == 0;
  });
}

// H(n, q): words of length n over q letters, adjacent when they differ in one place.
inline Topology Hamming(int n, int q) {
  int size = 1;
  for (int i = 0; i < n; ++i) size *= q;
  return Undirected("hamming_" + std::to_string(n) + "_" + std::to_string(q), size,
                    [n, q](int a, int b) {
                      int diff = 0;
                      for (int i = 0; i < n; ++i, a /= q, b /= q) diff += (a % q) != (b % q);
                      return diff == 1;
                    });
}

// C(n, {a_1..a_k}), undirected (seed 000 Def. 18).
inline Topology Circulant(int n, const std::vector<int>& jumps) {
  std::string name = "circulant_" + std::to_string(n);
  for (int a : jumps) name += "_" + std::to_string(a);
  return Undirected(name, n, [n, jumps](int x, int y) {
    int diff = (y - x + n) % n;
    for (int a : jumps)
      if (diff == a % n || diff == (n - a % n) % n) return true;
    return false;
  });
}

// Directed circulant Cay(Z_n, jumps): x -> x + a.
inline Topology DirectedCirculant(int n, const std::vector<int>& jumps) {
  Topology g = WithNodes("dcirculant_" + std::to_string(n), n);
  for (int x = 0; x < n; ++x)
    for (int a : jumps) g.AddLink(x, (x + a) % n, Rational(1));
  return g;
}

// K_{d,d}: parts {0..d-1} and {d..2d-1}.
inline Topology CompleteBipartite(int d) {
  return Undirected("kdd_" + std::to_string(d), 2 * d,
                    [d](int a, int b) { return (a < d) != (b < d); });
}

// Generalized Kautz Π_{d,m} (seed 000 Def. 16): x -> -d·x - a mod m, 1 <= a <= d.
inline Topology GeneralizedKautz(int d, int m) {
  Topology g = WithNodes("kautz_" + std::to_string(d) + "_" + std::to_string(m), m);
  for (int x = 0; x < m; ++x)
    for (int a = 1; a <= d; ++a) {
      long long y = ((-static_cast<long long>(d) * x - a) % m + m) % m;
      g.AddLink(x, static_cast<int>(y), Rational(1));
    }
  return g;
}

// k-subsets of {0..n-1} as bitmasks, in increasing order.
inline std::vector<int> Subsets(int n, int k) {
  std::vector<int> out;
  for (int m = 0; m < (1 << n); ++m)
    if (__builtin_popcount(m) == k) out.push_back(m);
  return out;
}

// Table 7: Octahedron J(4,2): 2-subsets of 4, adjacent when they share one element.
inline Topology Octahedron() {
  auto s = Subsets(4, 2);
  return Undirected("J42", static_cast<int>(s.size()),
                    [s](int a, int b) { return __builtin_popcount(s[a] & s[b]) == 1; });
}

// Table 7: K_{5,5} minus a perfect matching.
inline Topology K55MinusMatching() {
  return Undirected("K55-1", 10,
                    [](int a, int b) { return (a < 5) != (b < 5) && (a % 5) != (b % 5); });
}

// Table 7: line graph of the Petersen graph (Petersen = 2-subsets of 5, adjacent when disjoint).
inline Topology LinePetersen() {
  auto v = Subsets(5, 2);
  std::vector<std::pair<int, int>> edges;
  for (int a = 0; a < 10; ++a)
    for (int b = a + 1; b < 10; ++b)
      if ((v[a] & v[b]) == 0) edges.push_back({a, b});
  return Undirected("L(Petersen)", static_cast<int>(edges.size()), [edges](int x, int y) {
    auto [a, b] = edges[x];
    auto [c, d] = edges[y];
    return a == c || a == d || b == c || b == d;
  });
}

// Table 7: odd graph O4: 3-subsets of 7, adjacent when disjoint.
inline Topology OddGraphO4() {
  auto s = Subsets(7, 3);
  return Undirected("O4", static_cast<int>(s.size()),
                    [s](int a, int b) { return (s[a] & s[b]) == 0; });
}

// Table 7: incidence graph of PG(2,3): 13 points and 13 lines of the projective plane of
// order 3 (lines = perfect difference set {0,1,3,9} mod 13 translates).
inline Topology IncidencePG23() {
  const int diff[4] = {0, 1, 3, 9};
  return Undirected("Inc(PG(2,3))", 26, [diff](int a, int b) {
    if ((a < 13) == (b < 13)) return false;
    int p = a < 13 ? a : b, l = (a < 13 ? b : a) - 13;
    for (int x : diff)
      if ((l + x) % 13 == p) return true;
    return false;
  });
}

// A random strongly connected digraph: a Hamiltonian cycle plus `extra` random links.
inline Topology RandomDigraph(int n, int extra, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Topology g = WithNodes("random_" + std::to_string(seed), n);
  std::vector<int> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  for (int i = 0; i < n; ++i) g.AddLink(perm[i], perm[(i + 1) % n], Rational(1));
  for (int k = 0; k < extra; ++k) {
    int a = static_cast<int>(rng() % n), b = static_cast<int>(rng() % n);
    if (a != b && !g.FindLink(a, b)) g.AddLink(a, b, Rational(1));
  }
  return g;
}

}  // namespace collsynth::bfb_test

#endif  // COLLSYNTH_TESTS_SOLVERS_BFB_TEST_TOPOLOGIES_H_
