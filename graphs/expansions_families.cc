// ExpansionFamilies(): line, degree, product, power, bidir, transpose (seed 000 §5, App. F),
// wrapping graphs/expansions.h for the expression language.
#include <stdexcept>
#include <string>
#include <utility>

#include "graphs/expansions.h"
#include "graphs/family.h"
#include "graphs/generators/family_args.h"

namespace collsynth {
namespace {

// G1 □ ... □ Gk before building: prod N_i nodes; every factor's link appears once per node
// of the other factors (links of different factors never merge); degrees add up.
TopologySize ProductSize(const std::vector<TopologySize>& fs) {
  TopologySize s;
  s.nodes = 1;
  s.degree = 0;
  for (const TopologySize& f : fs) {
    if (f.nodes == 0) throw std::invalid_argument("Cartesian product of an empty topology");
    s.nodes *= f.nodes;
  }
  for (const TopologySize& f : fs) {
    BigInt copies = s.nodes / f.nodes;
    s.links += copies * f.links;
    s.links_exact = s.links_exact && f.links_exact;
    s.unit_links += copies * f.unit_links;
    s.max_out += f.max_out;
    s.max_in += f.max_in;
    s.has_switches = s.has_switches || f.has_switches;
    s.degree = s.degree >= 0 && f.degree >= 0 ? s.degree + f.degree : BigInt(-1);
  }
  return s;
}

}  // namespace

std::vector<Family> ExpansionFamilies() {
  std::vector<Family> f;
  f.push_back({"line", "line(G[,n])", "seed 000 Def. 1, Thm 1, Cor 1.1",
               "line graph L(G), or L^n(G): d·N nodes per application, same degree",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, 2, "line(G[,n])");
                 const Topology& g = TopologyArg(a, 0, "G");
                 int n = a.size() > 1 ? static_cast<int>(IntArg(a, 1, "n", 0, 64)) : 1;
                 return LineGraphPower(g, n);
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, 2, "line(G[,n])");
                 TopologySize s = TopologySizeArg(a, 0, "G");
                 int n = a.size() > 1 ? static_cast<int>(IntArg(a, 1, "n", 0, 64)) : 1;
                 for (int i = 0; i < n; ++i) {
                   // Nodes: G's unit links; links: sum_v in(v)·out(v), each of multiplicity 1.
                   s.nodes = s.unit_links;
                   if (s.degree >= 0) {
                     s.links = s.degree * s.unit_links;
                   } else {
                     s.links = (s.max_out < s.max_in ? s.max_out : s.max_in) * s.unit_links;
                     s.links_exact = false;
                   }
                   s.unit_links = s.links;
                 }
                 return s;
               }});
  f.push_back({"degree", "degree(G,n)", "seed 000 Def. 3, Thm 11",
               "degree expansion G*n: n copies, every link (u,v) becomes (u_i,v_j) for all i,j",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "degree(G,n)");
                 return DegreeExpansion(TopologyArg(a, 0, "G"),
                                        static_cast<int>(IntArg(a, 1, "n", 1, 1'000'000)));
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "degree(G,n)");
                 TopologySize s = TopologySizeArg(a, 0, "G");
                 BigInt n = IntArg(a, 1, "n", 1, 1'000'000);
                 s.nodes *= n;
                 s.links *= n * n;
                 s.unit_links *= n * n;
                 s.max_out *= n;
                 s.max_in *= n;
                 if (s.degree >= 0) s.degree *= n;
                 return s;
               }});
  f.push_back({"product", "product(G1,G2,...)", "seed 000 Def. 5, Thm 13",
               "Cartesian product G1 □ G2 □ ...: prod N_i nodes, degree sum d_i",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, static_cast<std::size_t>(-1), "product(G1,G2,...)");
                 std::vector<const Topology*> fs;
                 for (std::size_t i = 0; i < a.size(); ++i)
                   fs.push_back(&TopologyArg(a, i, "G" + std::to_string(i + 1)));
                 return CartesianProduct(fs);
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, static_cast<std::size_t>(-1), "product(G1,G2,...)");
                 std::vector<TopologySize> fs;
                 for (std::size_t i = 0; i < a.size(); ++i)
                   fs.push_back(TopologySizeArg(a, i, "G" + std::to_string(i + 1)));
                 return ProductSize(fs);
               }});
  f.push_back(
      {"power", "power(G,n)", "seed 000 Def. 5, Thm 12",
       "Cartesian power G^{□n}: N^n nodes, degree n·d",
       [](const std::vector<GenArg>& a) {
         RequireArgCount(a, 2, "power(G,n)");
         return CartesianPower(TopologyArg(a, 0, "G"), static_cast<int>(IntArg(a, 1, "n", 1, 64)));
       },
       [](const std::vector<GenArg>& a) {
         RequireArgCount(a, 2, "power(G,n)");
         TopologySize g = TopologySizeArg(a, 0, "G");
         std::vector<TopologySize> fs(static_cast<std::size_t>(IntArg(a, 1, "n", 1, 64)), g);
         return ProductSize(fs);
       }});
  f.push_back({"bidir", "bidir(G)", "seed 000 App. F",
               "G ∪ G^T: every link plus its reverse; degree 2d",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, "bidir(G)");
                 return Bidirectional(TopologyArg(a, 0, "G"));
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, "bidir(G)");
                 TopologySize s = TopologySizeArg(a, 0, "G");
                 s.links_exact = s.links_exact && s.links == 0;  // reverse links may merge
                 s.links *= 2;
                 s.unit_links *= 2;
                 s.max_out = s.max_in = s.max_out + s.max_in;
                 if (s.degree >= 0) s.degree *= 2;
                 return s;
               }});
  f.push_back({"transpose", "transpose(G)", "seed 000 Thm 3, App. A", "G^T: every link reversed",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, "transpose(G)");
                 return TransposeOf(TopologyArg(a, 0, "G"));
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, "transpose(G)");
                 TopologySize s = TopologySizeArg(a, 0, "G");
                 std::swap(s.max_out, s.max_in);
                 return s;
               }});
  return f;
}

}  // namespace collsynth
