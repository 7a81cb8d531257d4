#include "solvers/finder/finder.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <stdexcept>

#include "graphs/expression.h"
#include "solvers/finder/finder_base_table.h"
#include "solvers/finder/finder_bfb_value.h"
#include "theory/expansion_bounds.h"
#include "theory/kautz_circulant_bounds.h"
#include "theory/moore_bound.h"

namespace collsynth {
namespace {

using CandidatePtr = std::shared_ptr<const FinderCandidate>;

constexpr std::int64_t kMaxNodes = 10000000;

// Table 7 (seed 000), as built by `drg(name)`: all degree 4, T_L = D.
struct DrgRow {
  const char* name;
  int nodes, diameter;
};
constexpr DrgRow kDrgs[] = {{"octahedron", 6, 2},    {"paley9", 9, 2},        {"k55minus", 10, 3},
                            {"heawooddist3", 14, 3}, {"petersenline", 15, 3}, {"q4", 16, 4},
                            {"heawoodline", 21, 3},  {"pg23", 26, 3},         {"odd4", 35, 3},
                            {"tutte8line", 45, 4},   {"doubledodd4", 70, 7},  {"gq33", 80, 4}};

std::int64_t Binomial(int n, int k) {
  std::int64_t r = 1;
  for (int i = 1; i <= k; ++i) {
    r = r * (n - k + i) / i;
    if (r > kMaxNodes) return kMaxNodes + 1;
  }
  return r;
}

// Exact integer n-th root of x, or 0 when x is not a perfect n-th power.
std::int64_t ExactRoot(std::int64_t x, int n) {
  for (std::int64_t r = 2;; ++r) {
    std::int64_t p = 1;
    for (int i = 0; i < n && p <= x; ++i) p *= r;
    if (p == x) return r;
    if (p > x) return 0;
  }
}

AllgatherPerformance Perf(const FinderCandidate& c) {
  AllgatherPerformance p;
  p.nodes = c.nodes;
  p.degree = c.degree;
  p.latency_steps = c.tl;
  p.bandwidth = c.tb;
  return p;
}

void Finish(FinderCandidate* c) {
  c->bw_optimal = c->tb == BandwidthLowerBound(BigInt(c->nodes));
  c->moore_optimal = IsMooreOptimal(BigInt(c->nodes), c->degree, c->tl);
}

// Table 9's reverse-symmetric families (GenKautz is not).
bool ReverseSymmetricFamily(const std::string& family) { return family != "GenKautz"; }

// Table 9's bidirectional families (every link's reverse is a link).
bool BidirectionalFamily(const std::string& family) {
  return family == "Complete" || family == "Bipartite" || family == "Hamming" ||
         family == "BiRing" || family == "Circulant" || family == "DistReg";
}

FinderCandidate Base(std::string expr, std::int64_t n, int d, std::int64_t tl, Rational tb,
                     std::string family, std::string derivation, bool self_loops = false,
                     bool multi = false) {
  FinderCandidate c;
  c.reverse_symmetric = ReverseSymmetricFamily(family);
  c.topology = std::move(expr);
  c.nodes = n;
  c.degree = d;
  c.tl = tl;
  c.tb = std::move(tb);
  c.method = FinderMethod::kBfb;
  c.base_family = std::move(family);
  c.derivation = std::move(derivation);
  c.bfb_optimal = true;
  c.self_loops = self_loops;
  c.multi_links = multi;
  Finish(&c);
  return c;
}

FinderCandidate BwOptimalBase(std::string expr, std::int64_t n, int d, std::int64_t tl,
                              std::string family, std::string why, bool multi = false) {
  return Base(std::move(expr), n, d, tl, BandwidthLowerBound(BigInt(n)), std::move(family),
              "BFB, BW optimal (" + why + "), T_L = D = " + std::to_string(tl), false, multi);
}

bool LineOk(const FinderCandidate& c) { return c.bfb_optimal && !c.multi_links && c.degree >= 2; }
bool DegreeOk(const FinderCandidate& c) { return !c.self_loops; }
bool ProductOk(const FinderCandidate& c) {
  return c.bfb_optimal && c.bw_optimal && !c.self_loops && !c.multi_links;
}
int Flags(const FinderCandidate& c) {
  return (LineOk(c) ? 1 : 0) | (DegreeOk(c) ? 2 : 0) | (ProductOk(c) ? 4 : 0);
}

// Preference among equal (T_L, T_B): more eligibility, bases before expansions, shorter names.
bool Preferred(const FinderCandidate& a, const FinderCandidate& b) {
  if (a.tl != b.tl) return a.tl < b.tl;
  if (a.tb != b.tb) return a.tb < b.tb;
  int fa = __builtin_popcount(Flags(a)), fb = __builtin_popcount(Flags(b));
  if (fa != fb) return fa > fb;
  if (a.expansions.size() != b.expansions.size()) return a.expansions.size() < b.expansions.size();
  if (a.topology.size() != b.topology.size()) return a.topology.size() < b.topology.size();
  return a.topology < b.topology;
}

void AddAlternative(FinderCandidate* keep, const FinderCandidate& c, int cap) {
  auto add = [&](const std::string& e) {
    if (e == keep->topology) return;
    if (std::find(keep->alternatives.begin(), keep->alternatives.end(), e) !=
        keep->alternatives.end())
      return;
    if (static_cast<int>(keep->alternatives.size()) < cap) keep->alternatives.push_back(e);
  };
  add(c.topology);
  for (const auto& e : c.alternatives) add(e);
}

// Keeps the candidates not dominated in (T_L, T_B) [and eligibility, when with_flags].
std::vector<FinderCandidate> Prune(std::vector<FinderCandidate> all, bool with_flags, int cap) {
  std::sort(all.begin(), all.end(), Preferred);
  std::vector<FinderCandidate> kept;
  for (auto& c : all) {
    bool dominated = false;
    for (auto& k : kept) {
      int fk = with_flags ? Flags(k) : 0, fc = with_flags ? Flags(c) : 0;
      if (k.tl <= c.tl && k.tb <= c.tb && (fk & fc) == fc) {
        if (k.tl == c.tl && k.tb == c.tb && (!with_flags || fk == fc)) AddAlternative(&k, c, cap);
        dominated = true;
        break;
      }
    }
    if (!dominated) kept.push_back(std::move(c));
  }
  return kept;
}

FinderCandidate Expanded(const FinderCandidate& op, FinderMethod m, const AllgatherPerformance& p,
                         std::string expr, const char* letter, int power = 0) {
  FinderCandidate c;
  c.topology = std::move(expr);
  c.nodes = static_cast<std::int64_t>(p.nodes);
  c.degree = static_cast<int>(p.degree);
  c.tl = p.latency_steps;
  c.tb = p.bandwidth;
  c.method = m;
  c.operands = {std::make_shared<const FinderCandidate>(op)};
  c.power = power;
  c.base_family = op.base_family;
  c.expansions = letter + op.expansions;
  c.derivation = op.derivation + p.derivation.substr(p.derivation.rfind(';'));
  c.self_loops = op.self_loops;
  c.multi_links = op.multi_links;
  c.reverse_symmetric = op.reverse_symmetric;
  Finish(&c);
  return c;
}

}  // namespace

// Diameter of the circulant C(n, {±offsets}) (vertex transitive: one BFS from 0).
int CirculantDiameter(std::int64_t n, const std::vector<std::int64_t>& offsets) {
  std::vector<int> dist(n, -1);
  std::vector<std::int64_t> q{0};
  dist[0] = 0;
  for (std::size_t i = 0; i < q.size(); ++i) {
    for (std::int64_t a : offsets) {
      for (std::int64_t y : {(q[i] + a) % n, (q[i] - a + n) % n}) {
        if (dist[y] < 0) dist[y] = dist[q[i]] + 1, q.push_back(y);
      }
    }
  }
  return q.size() == static_cast<std::size_t>(n) ? dist[q.back()] : -1;
}

const char* FinderMethodName(FinderMethod m) {
  switch (m) {
    case FinderMethod::kBfb:
      return "bfb";
    case FinderMethod::kLine:
      return "line (Thm 10)";
    case FinderMethod::kDegree:
      return "degree (Thm 11)";
    case FinderMethod::kPower:
      return "power (Thm 12)";
    case FinderMethod::kProduct:
      return "product (Thm 13)";
    case FinderMethod::kBidir:
      return "bidir (App. F)";
  }
  return "?";
}

Rational AllreduceTime(const FinderCandidate& c, const FinderWorkload& w) {
  return 2 * (c.tl * w.alpha + c.tb * w.size_bytes * 8 / w.bandwidth_bps);
}

TopologyFinder::TopologyFinder(FinderOptions options) : options_(options) {}

void TopologyFinder::Bases(std::int64_t n, int d, std::vector<FinderCandidate>* out) {
  auto s = [](std::int64_t x) { return std::to_string(x); };
  if (n == d + 1)
    out->push_back(BwOptimalBase("complete(" + s(n) + ")", n, d, 1, "Complete", "Table 9"));
  if (n == 2 * d && d >= 2)
    out->push_back(BwOptimalBase("bipartite(" + s(d) + ")", n, d, 2, "Bipartite", "Fig. 1"));
  for (int k = 2; k <= d; ++k) {  // Hamming H(k, q): d = k(q-1), N = q^k
    if (d % k) continue;
    std::int64_t q = d / k + 1, p = 1;
    for (int i = 0; i < k && p <= n; ++i) p *= q;
    if (p == n)
      out->push_back(
          BwOptimalBase("hamming(" + s(k) + "," + s(q) + ")", n, d, k, "Hamming", "Thm 13"));
  }
  if (n == d + 2 && d >= 2) {
    std::string e = "dcirculant(" + s(n);
    for (int a = 1; a <= d; ++a) e += "," + s(a);
    out->push_back(BwOptimalBase(e + ")", n, d, 2, "DirCirculant", "Table 9"));
  }
  if (d == 1 || n <= 64) {  // UniRing(d, m): multi-links when d > 1
    out->push_back(BwOptimalBase("uniring(" + s(d) + "," + s(n) + ")", n, d, n - 1, "UniRing",
                                 "Table 9", d > 1));
  }
  if (d % 2 == 0 && n >= 3) {
    out->push_back(BwOptimalBase("biring(" + s(d) + "," + s(n) + ")", n, d, n / 2, "BiRing",
                                 "App. E.1", d > 2));
  }
  if (d % 4 == 0 && n >= 5) {  // C(n, {m, m+1}), Thm 22; repeated j = d/4 times
    std::int64_t m = n > 6 ? Theorem22Offset(n) : 1;
    std::vector<std::int64_t> off{m, m + 1};
    int diam = CirculantDiameter(n, off);
    std::set<std::int64_t> targets;
    for (std::int64_t a : off) targets.insert(a % n), targets.insert((n - a) % n);
    bool multi = d > 4 || targets.size() < 4 || targets.count(0);
    if (diam > 0 && !targets.count(0)) {
      std::string e = "circulant(" + s(n);
      for (int j = 0; j < d / 4; ++j) e += "," + s(m) + "," + s(m + 1);
      out->push_back(BwOptimalBase(e + ")", n, d, diam, "Circulant",
                                   "Conjecture 1, proven k = 2; Thm 22", multi));
    }
  }
  if (d == 4) {
    for (const DrgRow& r : kDrgs) {
      if (r.nodes == n)
        out->push_back(BwOptimalBase(std::string("drg(") + r.name + ")", n, 4, r.diameter,
                                     "DistReg", "App. E.3, Thm 18"));
    }
  }
  for (int k = 2; 2 * k <= 64; ++k) {  // Johnson J(v, k), v >= 2k: d = k(v-k), D = k
    for (int v = 2 * k; k * (v - k) <= d; ++v) {
      if (k * (v - k) == d && Binomial(v, k) == n) {
        out->push_back(BwOptimalBase("johnson(" + s(v) + "," + s(k) + ")", n, d, k, "DistReg",
                                     "App. E.3, Thm 18"));
      }
    }
  }
  if (d >= 3 && Binomial(2 * d - 1, d - 1) == n) {  // odd graph O_d: D = d - 1
    out->push_back(
        BwOptimalBase("oddgraph(" + s(d) + ")", n, d, d - 1, "DistReg", "App. E.3, Thm 18"));
  }
  if (d >= 2) {  // Kautz K(d, k) = L^k(K_{d+1}): Cor 10.1
    std::int64_t p = d + 1;
    for (int k = 1; p * d <= n; ++k) {
      p *= d;
      if (p == n) {
        AllgatherPerformance b = BandwidthOptimalBase(BigInt(d + 1), d, 1, "K");
        AllgatherPerformance r = LineGraphPowerBfb(b, k);
        out->push_back(Base("kautz(" + s(d) + "," + s(k) + ")", n, d, r.latency_steps, r.bandwidth,
                            "Kautz", "BFB = L^" + s(k) + "(K_" + s(d + 1) + "), Cor 10.1"));
      }
    }
  }
  if (d >= 2 && n >= d + 2) {  // generalized Kautz Π_{d,n}: self-loops unless (d+1) | n
    bool loops = n % (d + 1) != 0;
    std::string e = "genkautz(" + s(d) + "," + s(n) + ")";
    if (auto t = LookupGenKautzTable(d, static_cast<int>(n))) {
      out->push_back(Base(e, n, d, t->diameter, t->tb_shard * d / n, "GenKautz",
                          "BFB (precomputed table)", loops));
    } else if (n <= options_.genkautz_direct_max_nodes) {
      BfbValue v = ComputeBfbValue(EvaluateTopologyExpression(e), e);
      out->push_back(Base(e, n, d, v.diameter, *v.tb, "GenKautz", "BFB (computed)", loops));
    }
  }
}

std::optional<FinderCandidate> TopologyFinder::BestProduct(std::int64_t n, int d) {
  auto key = std::make_pair(n, d);
  if (auto it = product_memo_.find(key); it != product_memo_.end()) return it->second;
  std::optional<FinderCandidate> best;
  auto best_factor = [&](std::int64_t m, int k) -> const FinderCandidate* {
    const FinderCandidate* f = nullptr;
    for (const auto& c : Candidates(m, k)) {
      if (ProductOk(c) && (!f || c.tl < f->tl)) f = &c;
    }
    return f;
  };
  for (std::int64_t n1 = 2; n1 * n1 <= n; ++n1) {
    if (n % n1) continue;
    std::int64_t n2 = n / n1;
    for (int d1 = 1; d1 < d; ++d1) {
      int d2 = d - d1;
      if (n1 == n2 && d1 > d2) continue;
      const FinderCandidate* a = best_factor(n1, d1);
      if (!a) continue;
      const FinderCandidate* b = best_factor(n2, d2);
      if (!b) continue;
      std::int64_t tl = a->tl + b->tl;
      if (best && best->tl <= tl) continue;
      FinderCandidate c;
      c.nodes = n;
      c.degree = d;
      c.tl = tl;
      c.tb = BandwidthLowerBound(BigInt(n));
      c.method = FinderMethod::kProduct;
      std::vector<CandidatePtr> factors;
      for (const FinderCandidate* f : {a, b}) {
        if (f->method == FinderMethod::kProduct) {
          factors.insert(factors.end(), f->operands.begin(), f->operands.end());
        } else {
          factors.push_back(std::make_shared<const FinderCandidate>(*f));
        }
      }
      c.operands = factors;
      c.topology = "product(";
      c.derivation = "Thm 13 product(";
      for (std::size_t i = 0; i < factors.size(); ++i) {
        c.topology += (i ? "," : "") + factors[i]->topology;
        c.derivation += (i ? ", " : "") + factors[i]->topology;
      }
      c.topology += ")";
      c.derivation += "): BFB, BW optimal, T_L = sum of diameters";
      c.base_family = "Product";
      c.expansions = "C";
      c.bfb_optimal = true;
      c.reverse_symmetric = a->reverse_symmetric && b->reverse_symmetric;
      Finish(&c);
      best = std::move(c);
    }
  }
  product_memo_[key] = best;
  return best;
}

const std::vector<FinderCandidate>& TopologyFinder::Candidates(std::int64_t n, int d) {
  auto key = std::make_pair(n, d);
  if (auto it = memo_.find(key); it != memo_.end()) return it->second;
  std::vector<FinderCandidate> c = Compute(n, d);
  return memo_.emplace(key, std::move(c)).first->second;
}

std::vector<FinderCandidate> TopologyFinder::Compute(std::int64_t n, int d) {
  std::vector<FinderCandidate> all;
  Bases(n, d, &all);
  const bool bidir = options_.bidirectional;
  if (bidir) {
    all.erase(std::remove_if(all.begin(), all.end(),
                             [](const FinderCandidate& c) {
                               return !BidirectionalFamily(c.base_family) &&
                                      !(c.base_family == "UniRing" && c.nodes == 2);
                             }),
              all.end());
  }
  const int cap = options_.max_alternatives;
  // App. F: G ∪ G^T of a reverse-symmetric unidirectional candidate at (N, d/2).
  if (bidir && d % 2 == 0) {
    if (!unidirectional_) {
      FinderOptions uni = options_;
      uni.bidirectional = false;
      unidirectional_ = std::make_unique<TopologyFinder>(uni);
    }
    for (const auto& op : unidirectional_->Candidates(n, d / 2)) {
      if (!op.reverse_symmetric) continue;
      FinderCandidate c = Expanded(op, FinderMethod::kBidir, BidirectionalPerformance(Perf(op)),
                                   "bidir(" + op.topology + ")", "B");
      c.bfb_optimal = false;  // App. F's schedule, not necessarily the optimal BFB one
      c.multi_links = true;   // opposite links of G merge (conservative: no product use)
      for (const auto& a : op.alternatives) c.alternatives.push_back("bidir(" + a + ")");
      all.push_back(std::move(c));
    }
  }
  // Line graph: operand at (N/d, d), Thm 10 (never bidirectional).
  if (!bidir && d >= 2 && n % d == 0 && n / d >= d + 1) {
    for (const auto& op : Candidates(n / d, d)) {
      if (!LineOk(op)) continue;
      FinderCandidate c = Expanded(op, FinderMethod::kLine, LineGraphPowerBfb(Perf(op), 1),
                                   "line(" + op.topology + ")", "L");
      c.bfb_optimal = true;
      c.multi_links = false;
      for (const auto& a : op.alternatives) c.alternatives.push_back("line(" + a + ")");
      all.push_back(std::move(c));
    }
  }
  // Degree expansion: operand at (N/k, d/k), Thm 11.
  for (int k = 2; k <= d; ++k) {
    if (d % k || n % k || n / k < 2) continue;
    for (const auto& op : Candidates(n / k, d / k)) {
      if (!DegreeOk(op)) continue;
      std::string tail = "," + std::to_string(k) + ")";
      FinderCandidate c =
          Expanded(op, FinderMethod::kDegree, DegreeExpansionPerformance(Perf(op), k),
                   "degree(" + op.topology + tail, "D", k);
      for (const auto& a : op.alternatives) c.alternatives.push_back("degree(" + a + tail);
      all.push_back(std::move(c));
    }
  }
  // Cartesian power: operand at (N^{1/k}, d/k), Thm 12 (and Thm 13 for BW-optimal BFB bases).
  for (int k = 2; k <= d; ++k) {
    if (d % k) continue;
    std::int64_t r = ExactRoot(n, k);
    if (r < 2) continue;
    for (const auto& op : Candidates(r, d / k)) {
      if (op.method == FinderMethod::kPower) continue;  // power(power(G,a),b) = power(G,ab)
      std::string tail = "," + std::to_string(k) + ")";
      FinderCandidate c = Expanded(op, FinderMethod::kPower, CartesianPowerPerformance(Perf(op), k),
                                   "power(" + op.topology + tail, "P", k);
      c.bfb_optimal = ProductOk(op);
      for (const auto& a : op.alternatives) c.alternatives.push_back("power(" + a + tail);
      all.push_back(std::move(c));
    }
  }
  if (auto p = BestProduct(n, d)) all.push_back(*p);
  // Small expanded topologies: their own optimal BFB value.
  if (n <= options_.direct_bfb_max_nodes) {
    std::size_t count = all.size();
    for (std::size_t i = 0; i < count; ++i) {
      if (all[i].bfb_optimal) continue;
      FinderCandidate c = all[i];
      Topology g = EvaluateTopologyExpression(c.topology);
      BfbValue v = ComputeBfbValue(g, c.topology);
      if (!v.tb) continue;
      // Tied alternatives are other topologies: keep those whose own BFB value agrees.
      c.alternatives.clear();
      for (const auto& a : all[i].alternatives) {
        BfbValue va = ComputeBfbValue(EvaluateTopologyExpression(a), a);
        if (va.tb && *va.tb == *v.tb && va.diameter == v.diameter) c.alternatives.push_back(a);
      }
      c.method = FinderMethod::kBfb;
      c.operands.clear();
      c.power = 0;
      c.tl = v.diameter;
      c.tb = *v.tb;
      c.derivation = "BFB on " + c.topology + " (computed)";
      c.bfb_optimal = true;
      c.self_loops = false;
      c.multi_links = false;
      for (const Link& l : g.links()) {
        if (l.from == l.to) c.self_loops = true;
        if (l.multiplicity > 1) c.multi_links = true;
      }
      Finish(&c);
      all.push_back(std::move(c));
    }
  }
  for (auto& c : all) c.alternatives.resize(std::min<std::size_t>(c.alternatives.size(), cap));
  return Prune(std::move(all), true, cap);
}

FinderResult TopologyFinder::Find(std::int64_t nodes, int degree) {
  if (nodes < 2 || nodes > kMaxNodes) {
    throw std::invalid_argument("N = " + std::to_string(nodes) + " is not in 2.." +
                                std::to_string(kMaxNodes));
  }
  if (degree < 1 || degree > 64)
    throw std::invalid_argument("d = " + std::to_string(degree) + " is not in 1..64");
  FinderResult r;
  r.nodes = nodes;
  r.degree = degree;
  r.frontier = Prune(Candidates(nodes, degree), false, options_.max_alternatives);
  r.moore_steps = MooreOptimalSteps(BigInt(nodes), degree);
  r.tb_lower_bound = BandwidthLowerBound(BigInt(nodes));
  return r;
}

FinderResult FindTopologies(std::int64_t nodes, int degree, const FinderOptions& options) {
  TopologyFinder f(options);
  return f.Find(nodes, degree);
}

const FinderCandidate& BestForWorkload(const FinderResult& r, const FinderWorkload& w) {
  if (r.frontier.empty()) throw std::logic_error("BestForWorkload: empty frontier");
  const FinderCandidate* best = &r.frontier.front();
  Rational bt = AllreduceTime(*best, w);
  for (const auto& c : r.frontier) {
    Rational t = AllreduceTime(c, w);
    if (t < bt) best = &c, bt = t;
  }
  return *best;
}

}  // namespace collsynth
