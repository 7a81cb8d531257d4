// Seed003ComparisonFamilies(): the expression-language entries for the topologies seed 003
// (PolarStar) compares against in Table 3 and Figs 1/9–14: Slim Fly (MMS), Bundlefly,
// HyperX, Spectralfly (LPS), Megafly / Dragonfly+ and the k-ary n-tree fat-tree. (Dragonfly
// and the Al-Fares fat-tree are in other_families.cc.) Each entry checks its arguments with
// graphs/generators/family_args.h, gives its size before building, and calls the plain C++
// generator. Parameters are documented in docs/topologies.md ("Seed 003 comparison families").
#include <stdexcept>
#include <string>
#include <vector>

#include "graphs/family.h"
#include "graphs/generators/bundlefly.h"
#include "graphs/generators/family_args.h"
#include "graphs/generators/finite_field.h"
#include "graphs/generators/hyperx.h"
#include "graphs/generators/kary_n_tree.h"
#include "graphs/generators/megafly.h"
#include "graphs/generators/slimfly.h"
#include "graphs/generators/spectralfly.h"

namespace collsynth {
namespace {

constexpr std::int64_t kMaxParam = kMaxFamilyParameter;

std::vector<std::int64_t> Sides(const std::vector<GenArg>& a) {
  RequireArgCount(a, 1, 16, "hyperx(S_1,...,S_L)");
  std::vector<std::int64_t> sides;
  for (std::size_t i = 0; i < a.size(); ++i)
    sides.push_back(IntArg(a, i, "S_" + std::to_string(i + 1), 2, kMaxParam));
  return sides;
}

// Size of a topology of routers (switches when `switches`) with `endpoints` compute nodes
// hanging off them; `links` directed links exactly.
TopologySize SwitchSize(const BigInt& routers, const BigInt& endpoints, const BigInt& links,
                        const BigInt& max_degree) {
  TopologySize s;
  s.nodes = routers + endpoints;
  s.links = links;
  s.unit_links = links;
  s.max_out = s.max_in = max_degree;
  s.has_switches = true;
  return s;
}

}  // namespace

std::vector<Family> Seed003ComparisonFamilies() {
  std::vector<Family> f;
  f.push_back({"slimfly", "slimfly(q)", "seed 003 ref. [7] (Besta & Hoefler), Table 1",
               "Slim Fly: MMS graph of a prime power q = 4w+δ, 2q² routers, degree (3q−δ)/2, "
               "diameter 2",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, "slimfly(q)");
                 return SlimFly(IntArg(a, 0, "q", 3, kMaxFieldOrder));
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 1, "slimfly(q)");
                 const std::int64_t q = IntArg(a, 0, "q", 3, kMaxFieldOrder);
                 const BigInt n = SlimFlyOrder(q), d = SlimFlyDegree(q);
                 return RegularSize(n, d, n * d, true);
               }});
  f.push_back({"bundlefly", "bundlefly(q,d')", "seed 003 ref. [40] (Lei et al.), Table 3",
               "Bundlefly: star product MMS_q * Paley(2d'+1), 2q²(2d'+1) routers, radix "
               "(3q−δ)/2+d', diameter 3",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "bundlefly(q,d')");
                 return Bundlefly(IntArg(a, 0, "q", 3, kMaxFieldOrder),
                                  IntArg(a, 1, "d'", 2, kMaxFieldOrder));
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "bundlefly(q,d')");
                 const std::int64_t q = IntArg(a, 0, "q", 3, kMaxFieldOrder);
                 const std::int64_t dp = IntArg(a, 1, "d'", 2, kMaxFieldOrder);
                 const BigInt n = BundleflyOrder(q, dp), d = BundleflyRadix(q, dp);
                 return RegularSize(n, d, n * d, true);
               }});
  f.push_back({"hyperx", "hyperx(S_1,...,S_L)", "seed 003 ref. [2] (Ahn et al.), Table 3",
               "HyperX K_S1 □ ... □ K_SL: Π S_i routers, radix Σ(S_i−1), diameter L",
               [](const std::vector<GenArg>& a) { return HyperX(Sides(a)); },
               [](const std::vector<GenArg>& a) {
                 const auto sides = Sides(a);
                 const BigInt n = HyperXOrder(sides), d = HyperXRadix(sides);
                 return RegularSize(n, d, n * d, true);
               }});
  f.push_back({"spectralfly", "spectralfly(p,q)", "seed 003 ref. [63] (Young et al.), Table 3",
               "Spectralfly: LPS Ramanujan graph X^{p,q} on PSL(2,q) or PGL(2,q), degree p+1",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "spectralfly(p,q)");
                 return Spectralfly(IntArg(a, 0, "p", 3, kMaxParam),
                                    IntArg(a, 1, "q", 3, kMaxParam));
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "spectralfly(p,q)");
                 const std::int64_t p = IntArg(a, 0, "p", 3, kMaxParam);
                 const BigInt n = SpectralflyOrder(p, IntArg(a, 1, "q", 3, kMaxParam));
                 return RegularSize(n, p + 1, n * (p + 1), true);
               }});
  f.push_back(
      {"megafly", "megafly(rho,a,p)", "seed 003 refs. [23, 57] (Megafly / Dragonfly+), Table 3",
       "Megafly: (a/2)ρ+1 groups of K_{a/2,a/2} leaf/spine routers, p endpoints per leaf, "
       "one global link per group pair",
       [](const std::vector<GenArg>& a) {
         RequireArgCount(a, 3, "megafly(rho,a,p)");
         return Megafly(IntArg(a, 0, "rho", 1, kMaxParam), IntArg(a, 1, "a", 2, kMaxParam),
                        IntArg(a, 2, "p", 1, kMaxParam));
       },
       [](const std::vector<GenArg>& a) {
         RequireArgCount(a, 3, "megafly(rho,a,p)");
         const std::int64_t rho = IntArg(a, 0, "rho", 1, kMaxParam);
         const std::int64_t aa = IntArg(a, 1, "a", 2, kMaxParam);
         const std::int64_t p = IntArg(a, 2, "p", 1, kMaxParam);
         const BigInt g = MegaflyGroups(rho, aa, p);
         const BigInt links = g * 2 * ((aa / 2) * p + (aa / 2) * (aa / 2)) + g * (aa / 2) * rho;
         return SwitchSize(MegaflyRouters(rho, aa, p), MegaflyEndpoints(rho, aa, p), links,
                           std::max(aa / 2 + p, aa / 2 + rho));
       }});
  f.push_back({"karyntree", "karyntree(k,n)", "seed 003 §9.1, Table 3 (BookSim fat-tree)",
               "k-ary n-tree: n levels of k^(n−1) switches of radix 2k, k^n endpoints",
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "karyntree(k,n)");
                 return KaryNTree(IntArg(a, 0, "k", 2, kMaxParam), IntArg(a, 1, "n", 1, 20));
               },
               [](const std::vector<GenArg>& a) {
                 RequireArgCount(a, 2, "karyntree(k,n)");
                 const std::int64_t k = IntArg(a, 0, "k", 2, kMaxParam);
                 const std::int64_t n = IntArg(a, 1, "n", 1, 20);
                 const BigInt sw = KaryNTreeSwitches(k, n), hosts = KaryNTreeEndpoints(k, n);
                 const BigInt links = hosts * 2 + (sw / n) * (n - 1) * k * 2;
                 return SwitchSize(sw, hosts, links, 2 * k);
               }});
  return f;
}

}  // namespace collsynth
