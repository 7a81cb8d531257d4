// OtherFamilies(): the expression-language entries for the PolarStar (seed 003), TopoOpt
// (seed 002) and switch-topology (seed 004) generators. Each entry checks its arguments with
// graphs/generators/family_args.h and calls the plain C++ generator, which refuses absurd
// sizes before building. Parameters are documented in docs/topologies.md ("Other families").
#include <stdexcept>
#include <string>
#include <vector>

#include "graphs/family.h"
#include "graphs/generators/double_binary_tree_topology.h"
#include "graphs/generators/family_args.h"
#include "graphs/generators/finite_field.h"
#include "graphs/generators/mesh.h"
#include "graphs/generators/polarstar.h"
#include "graphs/generators/switch_topologies.h"
#include "graphs/generators/topoopt.h"

namespace collsynth {
namespace {

constexpr std::int64_t kMaxParam = kMaxFamilyParameter;

std::int64_t Int(const std::vector<GenArg>& a, std::size_t i, const char* p, std::int64_t lo,
                 std::int64_t hi = kMaxParam) {
  return IntArg(a, i, p, lo, hi);
}

}  // namespace

std::vector<Family> OtherFamilies() {
  std::vector<Family> f;
  // --- PolarStar (seed 003) ---
  f.push_back({"polarstar", "polarstar(q,d',iq|paley)", "seed 003 §5-7",
               "PolarStar ER_q * IQ_d' (order (q²+q+1)(2d'+2)) or ER_q * Paley(2d'+1); diameter 3",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 3, "polarstar(q,d',iq|paley)");
                 const std::string kind = WordArg(a, 2, "kind");
                 if (kind != "iq" && kind != "paley") {
                   throw std::invalid_argument("parameter kind must be 'iq' or 'paley', got '" +
                                               kind + "'");
                 }
                 return PolarStar(
                     static_cast<int>(Int(a, 0, "q", 2, kMaxFieldOrder)),
                     static_cast<int>(Int(a, 1, "d'", 0)),
                     kind == "iq" ? SupernodeKind::kInductiveQuad : SupernodeKind::kPaley);
               }});
  f.push_back(
      {"er", "er(q)", "seed 003 §6.1.2",
       "Erdős–Rényi polarity graph ER_q: q²+q+1 points of PG(2,q), degree q+1 with q+1 self-loops",
       [](const std::vector<GenArg>& a) {
         RequireArgCount(a, 1, "er(q)");
         return ErTopology(static_cast<int>(Int(a, 0, "q", 2, kMaxFieldOrder)));
       }});
  f.push_back({"iq", "iq(d')", "seed 003 §6.2.1, Fig. 6",
               "Inductive-Quad supernode: 2d'+2 nodes, d'-regular, Property R* (d' ≡ 0 or 3 mod 4)",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, "iq(d')");
                 return SupernodeTopology(InductiveQuad(static_cast<int>(Int(a, 0, "d'", 0))));
               }});
  f.push_back(
      {"paleygraph", "paleygraph(r)", "seed 003 Table 2",
       "Paley graph on F_r (r ≡ 1 mod 4 a prime power), the Paley supernode of degree (r-1)/2",
       [](const std::vector<GenArg>& a) {
         RequireArgCount(a, 1, "paleygraph(r)");
         return SupernodeTopology(
             PaleySupernode(static_cast<int>(Int(a, 0, "r", 5, kMaxFieldOrder))));
       }});
  // --- TopoOpt (seed 002) ---
  f.push_back(
      {"totientperms", "totientperms(n)", "seed 002 Alg. 2, App. E.1 Thm 2",
       "union of the directed rings i -> i+p mod n over every shift p coprime to n (degree φ(n))",
       [](const std::vector<GenArg>& a) {
         RequireArgCount(a, 1, "totientperms(n)");
         return TotientPerms(Int(a, 0, "n", 2));
       }});
  f.push_back({"selectperms", "selectperms(n,d)", "seed 002 Alg. 3",
               "d coprime ring shifts near the geometric sequence n^(i/d) (directed, degree d)",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "selectperms(n,d)");
                 return SelectPerms(Int(a, 0, "n", 2), Int(a, 1, "d", 1));
               }});
  f.push_back({"shiftedring", "shiftedring(n)", "seed 000 §8.2 (TopoOpt ShiftedRing)",
               "two bidirectional rings, shifts 1 and the smallest other coprime shift (degree 4)",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, "shiftedring(n)");
                 return ShiftedRing(Int(a, 0, "n", 3));
               }});
  // --- MultiTree's meshes (seed 001 §VI) ---
  f.push_back({"mesh", "mesh(d1,...,dk)", "seed 001 §VI (2D Mesh)",
               "mesh d1 x ... x dk = the torus without wrap-around links (product of paths)",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, 64, "mesh(d1,...,dk)");
                 std::vector<int> dims;
                 for (std::size_t i = 0; i < a.size(); ++i) {
                   dims.push_back(static_cast<int>(Int(a, i, "dimension", 2, 1 << 20)));
                 }
                 return Mesh(dims);
               }});
  // --- NCCL double binary tree (seed 000 §8.2 baseline DBT) ---
  f.push_back({"dbtree", "dbtree(n)", "seed 000 §8.2 [35, 58]",
               "double binary tree: links of the in-order tree over 0..n-1 and of its shift by one",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, "dbtree(n)");
                 return DoubleBinaryTreeTopology(Int(a, 0, "n", 2));
               }});
  // --- switch topologies (seed 004) ---
  f.push_back(
      {"twocluster", "twocluster(clusters,size,local_bw,global_bw)", "seed 004 §1.3, Fig. 1",
       "clusters of compute nodes on local switches (local_bw) plus one global switch (global_bw)",
       [](const std::vector<GenArg>& a) {
         RequireArgCount(a, 4, "twocluster(clusters,size,local_bw,global_bw)");
         return TwoCluster(Int(a, 0, "clusters", 1), Int(a, 1, "size", 1),
                           PositiveArg(a, 2, "local_bw"), PositiveArg(a, 3, "global_bw"));
       }});
  f.push_back({"fattree", "fattree(k)", "seed 003 §9.1 (Al-Fares k-ary fat-tree)",
               "3-level k-ary fat-tree: k^3/4 hosts, 5k^2/4 switches of radix k (k even)",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, "fattree(k)");
                 return FatTree(Int(a, 0, "k", 2, 1 << 20));
               }});
  f.push_back({"dragonfly", "dragonfly(a,p,h)", "seed 004 ref. [11], seed 003 §9.1",
               "dragonfly: a·h+1 groups of a clique routers, p hosts and h global links per router",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 3, "dragonfly(a,p,h)");
                 return Dragonfly(Int(a, 0, "a", 1), Int(a, 1, "p", 1), Int(a, 2, "h", 1));
               }});
  f.push_back({"gpuboxes", "gpuboxes(boxes,g,B_box,B_nic,r)", "seed 004 switch topologies",
               "boxes of g GPUs on an in-box switch (B_box); GPU i on rail switch i mod r (B_nic)",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 5, "gpuboxes(boxes,g,B_box,B_nic,r)");
                 return GpuBoxes(Int(a, 0, "boxes", 1), Int(a, 1, "g", 1),
                                 PositiveArg(a, 2, "B_box"), PositiveArg(a, 3, "B_nic"),
                                 Int(a, 4, "r", 1));
               }});
  f.push_back({"dgx1", "dgx1(boxes[,nic_bw])", "NVIDIA DGX-1V hybrid cube-mesh",
               "DGX-1 (V100) boxes: 8 GPUs, 6 NVLinks each; NIC links (nic_bw, default 1) to one "
               "switch if boxes>1",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, 2, "dgx1(boxes[,nic_bw])");
                 return Dgx1(Int(a, 0, "boxes", 1),
                             a.size() > 1 ? PositiveArg(a, 1, "nic_bw") : Rational(1));
               }});
  return f;
}

}  // namespace collsynth
