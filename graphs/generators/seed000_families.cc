// Seed000Families(): the expression-language entries for the seed 000 generators
// (graphs/generators/seed000_generators.h, seed000_drg.h). Each entry parses its arguments
// with graphs/generators/family_args.h and calls the plain C++ generator.
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "graphs/family.h"
#include "graphs/generators/family_args.h"
#include "graphs/generators/seed000_drg.h"
#include "graphs/generators/seed000_generators.h"

namespace collsynth {
namespace {

constexpr std::int64_t kMaxParam = kMaxFamilyParameter;

int Int(const std::vector<GenArg>& a, std::size_t i, const char* p, std::int64_t lo,
        std::int64_t hi = kMaxParam) {
  return static_cast<int>(IntArg(a, i, p, lo, hi));
}

// Arguments from..end as integers (offsets, dimensions).
std::vector<int> IntList(const std::vector<GenArg>& a, std::size_t from, const std::string& p) {
  std::vector<int> v;
  for (std::size_t i = from; i < a.size(); ++i) {
    v.push_back(
        static_cast<int>(IntArg(a, i, p + " " + std::to_string(i - from + 1), 1, kMaxParam)));
  }
  return v;
}

constexpr std::size_t kMany = static_cast<std::size_t>(-1);

// Circulant C(n, {a_j}) (bidirectional: i <-> i ± a_j) before building: unit degree k or 2k;
// links to the same neighbour (a_j = n - a_i, a_j = n/2, repeated offsets) merge.
TopologySize CirculantSize(int n, const std::vector<int>& offsets, bool bidirectional) {
  std::set<std::int64_t> steps;
  for (int a : offsets) {
    steps.insert(a % n);
    if (bidirectional) steps.insert((n - a % n) % n);
  }
  BigInt degree = BigInt(offsets.size()) * (bidirectional ? 2 : 1);
  return RegularSize(n, degree, BigInt(n) * steps.size(), true);
}

// Complete graphs and their products: K_m, K_{d,d}, Hamming graphs, hypercubes.
void AddCompleteAndProductFamilies(std::vector<Family>& f) {
  f.push_back({"complete", "complete(m)", "seed 000 Table 9",
               "complete digraph K_m: m nodes, degree m-1",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, "complete(m)");
                 return Complete(Int(a, 0, "m", 2));
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, "complete(m)");
                 BigInt m = Int(a, 0, "m", 2);
                 return RegularSize(m, m - 1, m * (m - 1), true);
               }});
  f.push_back({"bipartite", "bipartite(d)", "seed 000 Fig. 1, Table 9",
               "complete bipartite K_{d,d}: 2d nodes, degree d",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, "bipartite(d)");
                 return CompleteBipartite(Int(a, 0, "d", 1));
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, "bipartite(d)");
                 BigInt d = Int(a, 0, "d", 1);
                 return RegularSize(2 * d, d, 2 * d * d, true);
               }});
  f.push_back({"hamming", "hamming(n,q)", "seed 000 Table 9",
               "Hamming graph H(n,q) = K_q^{□n}: q^n nodes, degree n(q-1)",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "hamming(n,q)");
                 return Hamming(Int(a, 0, "n", 1, 64), Int(a, 1, "q", 2));
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "hamming(n,q)");
                 int n = Int(a, 0, "n", 1, 64), q = Int(a, 1, "q", 2);
                 BigInt nodes = boost::multiprecision::pow(BigInt(q), static_cast<unsigned>(n));
                 return RegularSize(nodes, BigInt(n) * (q - 1), nodes * n * (q - 1), true);
               }});
  f.push_back({"hypercube", "hypercube(n)", "seed 000 Table 7 (Q4), App. I",
               "hypercube Q_n = H(n,2): 2^n nodes, degree n",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, "hypercube(n)");
                 return Hypercube(Int(a, 0, "n", 1, 64));
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, "hypercube(n)");
                 int n = Int(a, 0, "n", 1, 64);
                 BigInt nodes = BigInt(1) << n;
                 return RegularSize(nodes, n, nodes * n, true);
               }});
  f.push_back({"twistedhypercube", "twistedhypercube(n)", "seed 000 App. I; Esfahanian et al. 1991",
               "twisted n-cube: Q_n with one 4-cycle's edge pair twisted; degree n, diameter n-1",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, "twistedhypercube(n)");
                 return TwistedHypercube(Int(a, 0, "n", 3, 64));
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, "twistedhypercube(n)");
                 int n = Int(a, 0, "n", 3, 64);
                 BigInt nodes = BigInt(1) << n;
                 return RegularSize(nodes, n, nodes * n, true);
               }});
}

// Line digraphs and their relatives (seed 000 App. E.2): Diamond, modified de Bruijn, Kautz,
// generalized Kautz, de Bruijn.
void AddLineDigraphFamilies(std::vector<Family>& f) {
  f.push_back({"diamond", "diamond()", "seed 000 Fig. 16, Table 9 (reconstructed)",
               "Diamond: 8 nodes, degree 2, diameter 3, not reverse-symmetric (docs/topologies.md)",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 0, "diamond()");
                 return Diamond();
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 0, "diamond()");
                 return RegularSize(8, 2, 16, true);
               }});
  f.push_back(
      {"dbjmod", "dbjmod(d,n)", "seed 000 Fig. 17, Table 9 (reconstructed)",
       "modified de Bruijn DBJMod(d,n), (d,n) in {(2,3),(2,4),(3,2),(4,2)}: d^n nodes, degree d",
       [](const std::vector<GenArg>& a) {
         RequireArgCount(a, 2, "dbjmod(d,n)");
         return DbjMod(Int(a, 0, "d", 2, 4), Int(a, 1, "n", 2, 4));
       },
       [](const std::vector<GenArg>& a) {
         RequireArgCount(a, 2, "dbjmod(d,n)");
         int d = Int(a, 0, "d", 2, 4), n = Int(a, 1, "n", 2, 4);
         BigInt nodes = boost::multiprecision::pow(BigInt(d), static_cast<unsigned>(n));
         return RegularSize(nodes, d, nodes * d, true);
       }});
  f.push_back({"kautz", "kautz(d,n)", "seed 000 Table 9, App. E.2",
               "Kautz digraph K(d,n) = L^n(K_{d+1}): d^n(d+1) nodes, degree d, Moore optimal",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "kautz(d,n)");
                 return Kautz(Int(a, 0, "d", 1), Int(a, 1, "n", 0, 64));
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "kautz(d,n)");
                 int d = Int(a, 0, "d", 1), n = Int(a, 1, "n", 0, 64);
                 BigInt nodes =
                     boost::multiprecision::pow(BigInt(d), static_cast<unsigned>(n)) * (d + 1);
                 return RegularSize(nodes, d, nodes * d, true);
               }});
  f.push_back({"genkautz", "genkautz(d,m)", "seed 000 Def. 16, Thm 21",
               "generalized Kautz digraph Π_{d,m} on Z_m, x -> -dx-a (a=1..d); degree d",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "genkautz(d,m)");
                 int d = Int(a, 0, "d", 2);
                 return GeneralizedKautz(d, Int(a, 1, "m", d + 1));
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "genkautz(d,m)");
                 int d = Int(a, 0, "d", 2);
                 int m = Int(a, 1, "m", d + 1);
                 // x -> -dx-a (mod m), a = 1..d: d distinct targets (d < m), so d·m links;
                 // a node has at most gcd(d,m) preimages per a.
                 TopologySize s = RegularSize(m, d, BigInt(m) * d, true);
                 s.degree = -1;
                 s.max_in = BigInt(d) * std::gcd(d, m);
                 return s;
               }});
  f.push_back({"debruijn", "debruijn(d,n)", "seed 000 Table 9",
               "de Bruijn digraph B(d,n): d^n nodes, degree d, with self-loops",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "debruijn(d,n)");
                 return DeBruijn(Int(a, 0, "d", 2), Int(a, 1, "n", 1, 64));
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "debruijn(d,n)");
                 int d = Int(a, 0, "d", 2), n = Int(a, 1, "n", 1, 64);
                 BigInt nodes = boost::multiprecision::pow(BigInt(d), static_cast<unsigned>(n));
                 return RegularSize(nodes, d, nodes * d, true);
               }});
}

// Circulants, rings and tori (seed 000 App. E.1, E.4, §6).
void AddCirculantFamilies(std::vector<Family>& f) {
  f.push_back({"circulant", "circulant(n,a1,...,ak)", "seed 000 Def. 18, App. E.4, Thm 22",
               "bidirectional circulant C(n,{a1..ak}): i <-> i±aj; degree 2k",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, kMany, "circulant(n,a1,...,ak)");
                 return Circulant(Int(a, 0, "n", 2), IntList(a, 1, "offset"), true);
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, kMany, "circulant(n,a1,...,ak)");
                 return CirculantSize(Int(a, 0, "n", 2), IntList(a, 1, "offset"), true);
               }});
  f.push_back({"dcirculant", "dcirculant(n,a1,...,ak)", "seed 000 Table 9 (directed circulant)",
               "directed circulant: i -> i+aj; degree k (Table 9's is dcirculant(d+2,1,...,d))",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, kMany, "dcirculant(n,a1,...,ak)");
                 return Circulant(Int(a, 0, "n", 2), IntList(a, 1, "offset"), false);
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, kMany, "dcirculant(n,a1,...,ak)");
                 return CirculantSize(Int(a, 0, "n", 2), IntList(a, 1, "offset"), false);
               }});
  f.push_back({"uniring", "uniring(d,m)", "seed 000 Table 9",
               "unidirectional ring UniRing(d,m): m nodes, i -> i+1 with d parallel links",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "uniring(d,m)");
                 return UniRing(Int(a, 0, "d", 1, 1'000'000), Int(a, 1, "m", 2));
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "uniring(d,m)");
                 int d = Int(a, 0, "d", 1, 1'000'000), m = Int(a, 1, "m", 2);
                 return RegularSize(m, d, m, true);
               }});
  f.push_back({"biring", "biring(d,m)", "seed 000 Table 9, App. E.1",
               "bidirectional ring BiRing(d,m), even d: i <-> i+1 with d/2 parallel links each way",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "biring(d,m)");
                 return BiRing(Int(a, 0, "d", 2, 1'000'000), Int(a, 1, "m", 3));
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "biring(d,m)");
                 int d = Int(a, 0, "d", 2, 1'000'000), m = Int(a, 1, "m", 3);
                 return RegularSize(m, d, BigInt(2) * m, true);
               }});
  f.push_back({"torus", "torus(d1,...,dk)", "seed 000 §6 (BFB torus), Thm 13",
               "torus d1 x ... x dk = product of bidirectional rings; degree 2k",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, 64, "torus(d1,...,dk)");
                 return Torus(IntList(a, 0, "dimension"));
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, 64, "torus(d1,...,dk)");
                 std::vector<int> dims = IntList(a, 0, "dimension");
                 BigInt nodes = 1;
                 int per_node = 0;  // a dimension of size 2 has one neighbour, not two
                 for (int x : dims) {
                   nodes *= x;
                   per_node += x == 2 ? 1 : 2;
                 }
                 return RegularSize(nodes, BigInt(2) * dims.size(), nodes * per_node, true);
               }});
  f.push_back({"twistedtorus", "twistedtorus(a,b,t)", "seed 000 §6; Cámara et al. 2010",
               "a x b torus whose dimension-2 wrap-around links shift dimension 1 by t; degree 4",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 3, "twistedtorus(a,b,t)");
                 int x = Int(a, 0, "a", 2);
                 return TwistedTorus(x, Int(a, 1, "b", 2), Int(a, 2, "t", 0, x - 1));
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 3, "twistedtorus(a,b,t)");
                 int x = Int(a, 0, "a", 2), y = Int(a, 1, "b", 2);
                 Int(a, 2, "t", 0, x - 1);
                 BigInt nodes = BigInt(x) * y;
                 // With a or b = 2 some neighbours coincide and their links merge.
                 return RegularSize(nodes, 4, nodes * 4, x > 2 && y > 2);
               }});
}

}  // namespace

std::vector<Family> Seed000Families() {
  std::vector<Family> f;
  AddCompleteAndProductFamilies(f);
  AddLineDigraphFamilies(f);
  AddCirculantFamilies(f);
  for (Family& fam : DistanceRegularFamilies()) f.push_back(std::move(fam));
  return f;
}

}  // namespace collsynth
