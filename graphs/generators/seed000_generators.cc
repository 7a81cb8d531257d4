#include "graphs/generators/seed000_generators.h"

#include <functional>
#include <numeric>
#include <stdexcept>
#include <string>

#include "graphs/generators/family_args.h"
#include "graphs/generators/generator_parts.h"

namespace collsynth {
namespace {

// Unit bandwidth, built once (a temporary mpq per AddLink call is measurable at 10^5 links).
const Rational kOne(1);

void RequireRange(std::int64_t value, std::int64_t lo, std::int64_t hi, const std::string& what) {
  if (value < lo || value > hi) {
    throw std::invalid_argument("parameter " + what + " = " + std::to_string(value) +
                                " is out of range [" + std::to_string(lo) + ", " +
                                std::to_string(hi) + "]");
  }
}

BigInt Pow(std::int64_t base, std::int64_t exp) {
  BigInt r = 1;
  for (std::int64_t i = 0; i < exp; ++i) r *= base;
  return r;
}

// All words of length n over {0..q-1}, in lexicographic order (word i is i in base q).
std::vector<std::vector<int>> AllWords(int n, int q) {
  std::int64_t count = ToInt64(Pow(q, n));
  std::vector<std::vector<int>> words;
  words.reserve(static_cast<std::size_t>(count));
  std::vector<int> w(static_cast<std::size_t>(n), 0);
  for (std::int64_t i = 0; i < count; ++i) {
    words.push_back(w);
    for (int p = n - 1; p >= 0; --p) {
      if (++w[p] < q) break;
      w[p] = 0;
    }
  }
  return words;
}

// The translations x_p -> x_p + 1 mod dims[p] of a mixed-radix grid whose node index is
// sum x_p · stride[p] (stride of the last position 1): the automorphisms of tori and Hamming
// graphs. One permutation per position.
std::vector<std::function<int(int)>> GridTranslations(const std::vector<int>& dims) {
  std::vector<std::function<int(int)>> images;
  const std::vector<std::int64_t> stride = GridStrides(dims);
  for (std::size_t p = 0; p < dims.size(); ++p) {
    const std::int64_t st = stride[p], d = dims[p];
    images.push_back([st, d](int i) {
      const std::int64_t coord = (i / st) % d;
      return static_cast<int>(i + ((coord + 1) % d - coord) * st);
    });
  }
  return images;
}

// Letter permutations of words (Kautz, de Bruijn: the shift commutes with relabelling the
// alphabet): the cycle c -> c+1 and the transposition (0 1) of an alphabet of `radix` letters,
// applied to every letter of the node names (found by name).
void SetLetterPermutations(Topology& g, const std::vector<std::vector<int>>& words, int radix) {
  std::vector<std::function<int(int)>> images;
  std::vector<std::function<int(int)>> letter = {[radix](int c) { return (c + 1) % radix; }};
  if (radix > 2) letter.push_back([](int c) { return c < 2 ? 1 - c : c; });
  for (const auto& sigma : letter) {
    std::vector<int> image(words.size());
    for (std::size_t i = 0; i < words.size(); ++i) {
      std::vector<int> w = words[i];
      for (int& c : w) c = sigma(c);
      image[i] = *g.FindNode(WordName(w, radix));
    }
    images.push_back([image](int v) { return image[v]; });
  }
  SetAutomorphisms(g, images);
}

Topology NumberedNodes(const std::string& name, std::int64_t n) {
  Topology g(name);
  for (std::int64_t i = 0; i < n; ++i) g.AddCompute(std::to_string(i));
  return g;
}

}  // namespace

std::string WordName(const std::vector<int>& letters, int radix) {
  std::string s;
  for (std::size_t i = 0; i < letters.size(); ++i) {
    if (radix > 10 && i > 0) s += '.';
    s += std::to_string(letters[i]);
  }
  return s;
}

Topology Complete(int m) {
  RequireRange(m, 2, kMaxGeneratedNodes, "m");
  CheckTopologySize(m, BigInt(m) * (m - 1), "complete(" + std::to_string(m) + ")");
  Topology g = NumberedNodes("complete(" + std::to_string(m) + ")", m);
  for (int u = 0; u < m; ++u) {
    for (int v = 0; v < m; ++v) {
      if (u != v) g.AddLink(u, v, kOne);
    }
  }
  // Rotation and a transposition: they generate the symmetric group.
  SetAutomorphisms(
      g, {[m](int v) { return (v + 1) % m; }, [m](int v) { return m > 2 && v < 2 ? 1 - v : v; }});
  return g;
}

Topology CompleteBipartite(int d) {
  RequireRange(d, 1, kMaxGeneratedNodes, "d");
  CheckTopologySize(BigInt(2) * d, BigInt(2) * d * d, "bipartite(" + std::to_string(d) + ")");
  Topology g("bipartite(" + std::to_string(d) + ")");
  for (int i = 0; i < d; ++i) g.AddCompute("a" + std::to_string(i));
  for (int i = 0; i < d; ++i) g.AddCompute("b" + std::to_string(i));
  for (int i = 0; i < d; ++i) {
    for (int j = 0; j < d; ++j) g.AddDuplexLink(i, d + j, kOne);
  }
  // Rotation of the a side, and a_i <-> b_i.
  SetAutomorphisms(g, {[d](int v) { return v < d ? (v + 1) % d : v; },
                       [d](int v) { return v < d ? v + d : v - d; }});
  return g;
}

Topology Hamming(int n, int q) {
  RequireRange(n, 1, 64, "n");
  RequireRange(q, 2, kMaxGeneratedNodes, "q");
  std::string name = "hamming(" + std::to_string(n) + "," + std::to_string(q) + ")";
  BigInt nodes = Pow(q, n);
  CheckTopologySize(nodes, nodes * n * (q - 1), name);
  Topology g(name);
  auto words = AllWords(n, q);
  for (const auto& w : words) g.AddCompute(WordName(w, q));
  // Word index i = sum w[p] q^{n-1-p}; changing position p to letter c moves by (c - w[p])
  // q^{n-1-p}.
  std::vector<std::int64_t> stride(static_cast<std::size_t>(n));
  std::int64_t s = 1;
  for (int p = n - 1; p >= 0; --p) {
    stride[p] = s;
    s *= q;
  }
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(words.size()); ++i) {
    for (int p = 0; p < n; ++p) {
      for (int c = 0; c < q; ++c) {
        if (c == words[i][p]) continue;
        g.AddLink(static_cast<int>(i), static_cast<int>(i + (c - words[i][p]) * stride[p]), kOne);
      }
    }
  }
  SetAutomorphisms(g, GridTranslations(std::vector<int>(static_cast<std::size_t>(n), q)));
  return g;
}

Topology Hypercube(int n) {
  RequireRange(n, 1, 64, "n");
  Topology g = Hamming(n, 2);
  g.set_name("hypercube(" + std::to_string(n) + ")");
  return g;
}

Topology TwistedHypercube(int n) {
  RequireRange(n, 3, 64, "n");
  Topology q = Hypercube(n);
  std::string x(static_cast<std::size_t>(n - 2), '0');
  int a = *q.FindNode("00" + x), b = *q.FindNode("10" + x), c = *q.FindNode("11" + x),
      d = *q.FindNode("01" + x);
  // Rebuild without {a,b} and {c,d}, then add {a,c} and {b,d}.
  Topology g("twistedhypercube(" + std::to_string(n) + ")");
  for (const Node& v : q.nodes()) g.AddCompute(v.name);
  auto removed = [&](int u, int v) {
    return (u == a && v == b) || (u == b && v == a) || (u == c && v == d) || (u == d && v == c);
  };
  for (const Link& l : q.links()) {
    if (!removed(l.from, l.to)) g.AddLink(l.from, l.to, l.bandwidth, l.multiplicity);
  }
  g.AddDuplexLink(a, c, kOne);
  g.AddDuplexLink(b, d, kOne);
  return g;
}

Topology Kautz(int d, int n) {
  RequireRange(d, 1, kMaxGeneratedNodes, "d");
  RequireRange(n, 0, 64, "n");
  std::string name = "kautz(" + std::to_string(d) + "," + std::to_string(n) + ")";
  BigInt nodes = Pow(d, n) * (d + 1);
  CheckTopologySize(nodes, nodes * d, name);
  Topology g(name);
  // Enumerate words s_0..s_n with s_i != s_{i+1}, in lexicographic order.
  std::vector<std::vector<int>> words;
  std::vector<int> w(static_cast<std::size_t>(n + 1), 0);
  std::function<void(int)> rec = [&](int pos) {
    if (pos == n + 1) {
      words.push_back(w);
      return;
    }
    for (int c = 0; c <= d; ++c) {
      if (pos > 0 && c == w[pos - 1]) continue;
      w[pos] = c;
      rec(pos + 1);
    }
  };
  rec(0);
  for (const auto& word : words) g.AddCompute(WordName(word, d + 1));
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::vector<int> next(words[i].begin() + 1, words[i].end());
    next.push_back(0);
    for (int c = 0; c <= d; ++c) {
      if (c == words[i][n]) continue;
      next[n] = c;
      g.AddLink(static_cast<int>(i), *g.FindNode(WordName(next, d + 1)), kOne);
    }
  }
  SetLetterPermutations(g, words, d + 1);
  return g;
}

Topology GeneralizedKautz(int d, int m) {
  RequireRange(d, 2, kMaxGeneratedNodes, "d");
  RequireRange(m, d + 1, kMaxGeneratedNodes, "m");
  std::string name = "genkautz(" + std::to_string(d) + "," + std::to_string(m) + ")";
  CheckTopologySize(m, BigInt(m) * d, name);
  Topology g = NumberedNodes(name, m);
  for (std::int64_t x = 0; x < m; ++x) {
    for (std::int64_t a = 1; a <= d; ++a) {
      std::int64_t y = ((-static_cast<std::int64_t>(d) * x - a) % m + m) % m;
      g.AddLink(static_cast<int>(x), static_cast<int>(y), kOne);
    }
  }
  return g;
}

Topology DeBruijn(int d, int n) {
  RequireRange(d, 2, kMaxGeneratedNodes, "d");
  RequireRange(n, 1, 64, "n");
  std::string name = "debruijn(" + std::to_string(d) + "," + std::to_string(n) + ")";
  BigInt nodes = Pow(d, n);
  CheckTopologySize(nodes, nodes * d, name);
  Topology g(name);
  auto words = AllWords(n, d);
  for (const auto& w : words) g.AddCompute(WordName(w, d));
  std::int64_t count = static_cast<std::int64_t>(words.size());
  for (std::int64_t i = 0; i < count; ++i) {
    // Shift left: index (i * d) mod d^n + a.
    for (int a = 0; a < d; ++a) {
      g.AddLink(static_cast<int>(i), static_cast<int>((i * d) % count + a), kOne);
    }
  }
  SetLetterPermutations(g, words, d);
  return g;
}

Topology Diamond() {
  Topology g = NumberedNodes("diamond()", 8);
  const int out[8][2] = {{1, 2}, {2, 3}, {4, 5}, {0, 6}, {0, 6}, {1, 7}, {5, 7}, {3, 4}};
  for (int v = 0; v < 8; ++v) {
    for (int w : out[v]) g.AddLink(v, w, kOne);
  }
  return g;
}

Topology DbjMod(int d, int n) {
  // The added cycle per (d, n), as word indices (docs/topologies.md: the search's choice).
  static const std::vector<std::pair<std::pair<int, int>, std::vector<int>>> kCycles = {
      {{2, 3}, {0, 2, 7, 5}},
      {{2, 4}, {0, 5, 10, 15}},
      {{3, 2}, {0, 4, 6, 3, 5, 2, 1, 7, 8}},
      {{4, 2}, {0, 6, 3, 8, 15, 1, 14, 7, 10, 12, 9, 2, 5, 11, 4, 13}}};
  const std::vector<int>* cycle = nullptr;
  for (const auto& [dn, c] : kCycles) {
    if (dn == std::make_pair(d, n)) cycle = &c;
  }
  if (cycle == nullptr) {
    throw std::invalid_argument(
        "dbjmod(d,n) is defined for (2,3), (2,4), (3,2), (4,2) only (seed 000 "
        "Table 9), not (" +
        std::to_string(d) + "," + std::to_string(n) + ")");
  }
  const int count = static_cast<int>(ToInt64(Pow(d, n)));
  auto words = AllWords(n, d);
  Topology g("dbjmod(" + std::to_string(d) + "," + std::to_string(n) + ")");
  for (const auto& w : words) g.AddCompute(WordName(w, d));
  // A word of period <= 2 (a b a b ...) loses its link to b a b a ... (a loop when a = b).
  auto partner = [&](int i) {
    const auto& w = words[i];
    for (int k = 2; k < n; ++k) {
      if (w[k] != w[k - 2]) return -1;
    }
    int j = 0;
    for (int k = 0; k < n; ++k) j = j * d + w[(k + 1) % 2];
    return j;
  };
  for (int i = 0; i < count; ++i) {
    const int skip = partner(i);
    for (int a = 0; a < d; ++a) {
      const int j = (i * d) % count + a;
      if (j != skip) g.AddLink(i, j, kOne);
    }
  }
  for (std::size_t k = 0; k < cycle->size(); ++k) {
    g.AddLink((*cycle)[k], (*cycle)[(k + 1) % cycle->size()], kOne);
  }
  return g;
}

Topology Circulant(int n, std::vector<int> offsets, bool bidirectional) {
  RequireRange(n, 2, kMaxGeneratedNodes, "n");
  if (offsets.empty()) throw std::invalid_argument("circulant needs at least one offset");
  std::string name = std::string(bidirectional ? "circulant(" : "dcirculant(") + std::to_string(n);
  int g_all = n;
  for (int a : offsets) {
    RequireRange(a, 1, n - 1, "offset");
    name += "," + std::to_string(a);
    g_all = std::gcd(g_all, a);
  }
  name += ")";
  if (g_all != 1) {
    throw std::invalid_argument(
        "gcd of n and the offsets is " + std::to_string(g_all) +
        ", so the circulant is disconnected (seed 000 App. E.4 needs gcd 1)");
  }
  BigInt links = BigInt(n) * offsets.size() * (bidirectional ? 2 : 1);
  CheckTopologySize(n, links, name);
  Topology g = NumberedNodes(name, n);
  for (int i = 0; i < n; ++i) {
    for (int a : offsets) {
      g.AddLink(i, (i + a) % n, kOne);
      if (bidirectional) g.AddLink(i, (i - a % n + n) % n, kOne);
    }
  }
  // Rotation; bidirectional circulants are also symmetric under i -> -i.
  std::vector<std::function<int(int)>> images = {[n](int v) { return (v + 1) % n; }};
  if (bidirectional) images.push_back([n](int v) { return (n - v) % n; });
  SetAutomorphisms(g, images);
  return g;
}

Topology UniRing(int d, int m) {
  RequireRange(d, 1, 1'000'000, "d");
  RequireRange(m, 2, kMaxGeneratedNodes, "m");
  std::string name = "uniring(" + std::to_string(d) + "," + std::to_string(m) + ")";
  CheckTopologySize(m, m, name);
  Topology g = NumberedNodes(name, m);
  for (int i = 0; i < m; ++i) g.AddLink(i, (i + 1) % m, d, d);
  SetAutomorphisms(g, {[m](int v) { return (v + 1) % m; }});
  return g;
}

Topology BiRing(int d, int m) {
  RequireRange(d, 2, 1'000'000, "d");
  if (d % 2 != 0)
    throw std::invalid_argument("parameter d = " + std::to_string(d) + " must be even");
  RequireRange(m, 3, kMaxGeneratedNodes, "m");
  std::string name = "biring(" + std::to_string(d) + "," + std::to_string(m) + ")";
  CheckTopologySize(m, BigInt(2) * m, name);
  Topology g = NumberedNodes(name, m);
  for (int i = 0; i < m; ++i) g.AddDuplexLink(i, (i + 1) % m, d / 2, d / 2);
  SetAutomorphisms(g, {[m](int v) { return (v + 1) % m; }, [m](int v) { return (m - v) % m; }});
  return g;
}

Topology Torus(const std::vector<int>& dims) {
  if (dims.empty()) throw std::invalid_argument("torus needs at least one dimension");
  for (std::size_t i = 0; i < dims.size(); ++i) {
    RequireRange(dims[i], 2, kMaxGeneratedNodes, "dimension " + std::to_string(i + 1));
  }
  Topology g = GridNodes("torus", dims);
  const std::int64_t count = g.num_nodes();
  const std::size_t k = dims.size();
  const std::vector<std::int64_t> stride = GridStrides(dims);
  for (std::int64_t i = 0; i < count; ++i) {
    for (std::size_t p = 0; p < k; ++p) {
      std::int64_t coord = (i / stride[p]) % dims[p];
      std::int64_t up = i + (((coord + 1) % dims[p]) - coord) * stride[p];
      std::int64_t down = i + (((coord - 1 + dims[p]) % dims[p]) - coord) * stride[p];
      g.AddLink(static_cast<int>(i), static_cast<int>(up), kOne);
      g.AddLink(static_cast<int>(i), static_cast<int>(down), kOne);
    }
  }
  SetAutomorphisms(g, GridTranslations(dims));
  return g;
}

Topology TwistedTorus(int a, int b, int twist) {
  RequireRange(a, 2, kMaxGeneratedNodes, "a");
  RequireRange(b, 2, kMaxGeneratedNodes, "b");
  RequireRange(twist, 0, a - 1, "twist");
  std::string name = "twistedtorus(" + std::to_string(a) + "," + std::to_string(b) + "," +
                     std::to_string(twist) + ")";
  CheckTopologySize(BigInt(a) * b, BigInt(a) * b * 4, name);
  Topology g(name);
  auto id = [&](int x, int y) { return x * b + y; };
  for (int x = 0; x < a; ++x) {
    for (int y = 0; y < b; ++y) g.AddCompute("t" + std::to_string(x) + "_" + std::to_string(y));
  }
  for (int x = 0; x < a; ++x) {
    for (int y = 0; y < b; ++y) {
      g.AddDuplexLink(id(x, y), id((x + 1) % a, y), kOne);
      if (y + 1 < b)
        g.AddDuplexLink(id(x, y), id(x, y + 1), kOne);
      else
        g.AddDuplexLink(id(x, y), id((x + twist) % a, 0), kOne);
    }
  }
  // Translations by (1, 0) and (0, 1): the twisted torus is Z^2 modulo (a, 0) and
  // (twist, -b), so (x, b-1) + (0, 1) = (x + twist, 0).
  SetAutomorphisms(g, {[a, b](int v) { return ((v / b + 1) % a) * b + v % b; },
                       [a, b, twist](int v) {
                         const int x = v / b, y = v % b;
                         return y + 1 < b ? v + 1 : ((x + twist) % a) * b;
                       }});
  return g;
}

}  // namespace collsynth
