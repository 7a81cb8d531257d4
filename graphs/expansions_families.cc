// ExpansionFamilies(): line, degree, product, power, bidir, transpose (seed 000 §5, App. F),
// wrapping graphs/expansions.h for the expression language.
#include "graphs/expansions.h"
#include "graphs/family.h"
#include "graphs/generators/family_args.h"

namespace collsynth {

std::vector<Family> ExpansionFamilies() {
  std::vector<Family> f;
  f.push_back({"line", "line(G[,n])", "seed 000 Def. 1, Thm 1, Cor 1.1",
               "line graph L(G), or L^n(G): d·N nodes per application, same degree",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, 2, "line(G[,n])");
                 const Topology& g = TopologyArg(a, 0, "G");
                 int n = a.size() > 1 ? static_cast<int>(IntArg(a, 1, "n", 0, 64)) : 1;
                 return LineGraphPower(g, n);
               }});
  f.push_back({"degree", "degree(G,n)", "seed 000 Def. 3, Thm 11",
               "degree expansion G*n: n copies, every link (u,v) becomes (u_i,v_j) for all i,j",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "degree(G,n)");
                 return DegreeExpansion(TopologyArg(a, 0, "G"),
                                        static_cast<int>(IntArg(a, 1, "n", 1, 1'000'000)));
               }});
  f.push_back({"product", "product(G1,G2,...)", "seed 000 Def. 5, Thm 13",
               "Cartesian product G1 □ G2 □ ...: prod N_i nodes, degree sum d_i",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, static_cast<std::size_t>(-1), "product(G1,G2,...)");
                 std::vector<const Topology*> fs;
                 for (std::size_t i = 0; i < a.size(); ++i)
                   fs.push_back(&TopologyArg(a, i, "G" + std::to_string(i + 1)));
                 return CartesianProduct(fs);
               }});
  f.push_back({"power", "power(G,n)", "seed 000 Def. 5, Thm 12",
               "Cartesian power G^{□n}: N^n nodes, degree n·d", [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "power(G,n)");
                 return CartesianPower(TopologyArg(a, 0, "G"),
                                       static_cast<int>(IntArg(a, 1, "n", 1, 64)));
               }});
  f.push_back({"bidir", "bidir(G)", "seed 000 App. F",
               "G ∪ G^T: every link plus its reverse; degree 2d", [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, "bidir(G)");
                 return Bidirectional(TopologyArg(a, 0, "G"));
               }});
  f.push_back({"transpose", "transpose(G)", "seed 000 Thm 3, App. A", "G^T: every link reversed",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, "transpose(G)");
                 return TransposeOf(TopologyArg(a, 0, "G"));
               }});
  return f;
}

}  // namespace collsynth
