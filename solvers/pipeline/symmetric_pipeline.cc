#include "solvers/pipeline/symmetric_pipeline.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <queue>
#include <set>
#include <stdexcept>

#include "core/stopwatch.h"
#include "graphs/perm_group_schreier_sims.h"
#include "graphs/permutation_group.h"
#include "graphs/symmetry.h"
#include "solvers/backends/lp_backend.h"
#include "solvers/pipeline/allgather_optimum.h"
#include "solvers/pipeline/collective_bounds.h"

namespace collsynth {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::int64_t kMaxOrder = std::int64_t{1} << 31;
// Distinct candidate generators (automorphisms fixing no compute node and commuting with
// those kept) tried by ChooseRegularGroup; at most log2(N) of them can be kept.
constexpr int kMaxGeneratorTrials = 64;
// The small-k search tries k = k0, 2·k0, ..., this many times k0; a larger k is refused.
constexpr int kMaxSymmetricKFactor = 16;
// Branch-and-bound nodes per CBC search for small integer multiplicities (at most
// kMaxSymmetricKFactor searches per phase). A count, not seconds, so that k does not depend on
// the machine or its load.
constexpr int kSmallMixtureNodes = 500;
// A k above both that range and the exporters' default chunk bound (export msccl
// --max-chunks 256) makes the symmetric schedule useless to executors: no schedule.
constexpr int kMaxPlainSymmetricK = 256;

// Exponent vectors by BFS over every compute orbit (see the header); false on a conflict.
bool AssignExponents(const Topology& g, RegularGroup* h) {
  const int n = g.num_nodes();
  const std::size_t m = h->generators.size();
  h->representatives.clear();
  h->representative_of.assign(n, -1);
  h->exponents.assign(n, {});
  h->order = 1;
  for (std::int64_t o : h->orders) h->order *= o;  // each <= 2^31; checked against N below
  for (int r = 0; r < n; ++r) {
    if (!g.IsCompute(r) || h->representative_of[r] >= 0) continue;
    const int rep = static_cast<int>(h->representatives.size());
    h->representatives.push_back(r);
    h->representative_of[r] = rep;
    h->exponents[r].assign(m, 0);
    std::vector<int> queue = {r};
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const int t = queue[head];
      for (std::size_t j = 0; j < m; ++j) {
        const int u = h->generators[j][t];
        std::vector<std::int64_t> e = h->exponents[t];
        e[j] = (e[j] + 1) % h->orders[j];
        if (h->representative_of[u] < 0) {
          h->representative_of[u] = rep;
          h->exponents[u] = std::move(e);
          queue.push_back(u);
        } else if (h->representative_of[u] != rep || h->exponents[u] != e) {
          return false;
        }
      }
    }
    // Consistent: the orbit is in bijection with Π Z_{n_j} (docs/symmetry.md).
    if (static_cast<std::int64_t>(queue.size()) != h->order) return false;
  }
  return true;
}

void LinkOrbits(const Topology& g, RegularGroup* h) {
  const int e_count = g.num_links();
  std::vector<int> parent(e_count);
  std::iota(parent.begin(), parent.end(), 0);
  std::function<int(int)> find = [&](int x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  };
  for (const std::vector<int>& p : h->generators) {
    for (int e = 0; e < e_count; ++e) {
      const Link& l = g.link(e);
      std::optional<int> image = g.FindLink(p[l.from], p[l.to]);
      if (!image) throw std::logic_error("symmetric pipeline: generator is not an automorphism");
      int a = find(e), b = find(*image);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  }
  h->link_orbit.assign(e_count, -1);
  h->link_orbit_size.clear();
  std::vector<int> index(e_count, -1);
  for (int e = 0; e < e_count; ++e) {
    int root = find(e);
    if (index[root] < 0) {
      index[root] = static_cast<int>(h->link_orbit_size.size());
      h->link_orbit_size.push_back(0);
    }
    h->link_orbit[e] = index[root];
    ++h->link_orbit_size[index[root]];
  }
}

// One tree of a representative: for every compute node but the root, its parent and the links
// of its route (parent -> ... -> node, switches inside).
struct Column {
  int rep = -1;
  std::vector<int> parent;                // per node (-1: root or switch)
  std::vector<std::vector<int>> route;    // per node: link ids
  std::vector<std::int64_t> orbit_steps;  // c_O(T)
};

// Prim-like growth from root (see the header): a compute node joins through the cheapest
// switch-only path from a node already in the tree; every route pays for its own steps.
Column GrowTree(const Topology& g, const RegularGroup& h, int rep, const std::vector<double>& w) {
  const int n = g.num_nodes();
  const int root = h.representatives[rep];
  std::vector<double> dist(n, std::numeric_limits<double>::infinity());
  std::vector<int> via(n, -1);
  std::vector<char> in_tree(n, 0);
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
  Column c;
  c.rep = rep;
  c.parent.assign(n, -1);
  c.route.assign(n, {});
  c.orbit_steps.assign(h.link_orbit_size.size(), 0);
  auto expand = [&](int x, double base) {
    for (int e : g.OutLinks(x)) {
      const int y = g.link(e).to;
      if (y == x || (g.IsCompute(y) && in_tree[y])) continue;
      const double nd = base + w[e];
      if (nd < dist[y]) {
        dist[y] = nd;
        via[y] = e;
        heap.push({nd, y});
      }
    }
  };
  in_tree[root] = 1;
  dist[root] = 0;
  expand(root, 0);
  while (!heap.empty()) {
    auto [d, x] = heap.top();
    heap.pop();
    if (d > dist[x]) continue;
    if (g.IsSwitch(x)) {
      expand(x, d);
      continue;
    }
    if (in_tree[x]) continue;
    // Join x through its route back to the first compute node.
    std::vector<int> links;
    int y = x;
    do {
      const int e = via[y];
      links.push_back(e);
      y = g.link(e).from;
    } while (g.IsSwitch(y));
    std::reverse(links.begin(), links.end());
    for (int e : links) ++c.orbit_steps[h.link_orbit[e]];
    c.parent[x] = y;
    c.route[x] = std::move(links);
    in_tree[x] = 1;
    dist[x] = 0;
    expand(x, 0);
  }
  for (int v = 0; v < n; ++v) {
    if (g.IsCompute(v) && !in_tree[v]) {
      throw std::logic_error("symmetric pipeline: a compute node is unreachable");
    }
  }
  return c;
}

// Solves rows [a | b] (a·x = b) exactly; unknowns without a pivot are 0. std::nullopt when the
// system is inconsistent. Gauss-Jordan over the rationals; the systems have at most
// #link orbits + #representatives rows.
std::optional<std::vector<Rational>> SolveExactly(std::vector<std::vector<Rational>> rows,
                                                  std::size_t unknowns) {
  std::vector<int> pivot_row_of(unknowns, -1);
  std::size_t rank = 0;
  for (std::size_t col = 0; col < unknowns && rank < rows.size(); ++col) {
    std::size_t p = rank;
    while (p < rows.size() && rows[p][col] == 0) ++p;
    if (p == rows.size()) continue;
    std::swap(rows[p], rows[rank]);
    const Rational inv = 1 / rows[rank][col];
    for (Rational& a : rows[rank]) a *= inv;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (i == rank || rows[i][col] == 0) continue;
      const Rational f = rows[i][col];
      for (std::size_t j = col; j <= unknowns; ++j) rows[i][j] -= f * rows[rank][j];
    }
    pivot_row_of[col] = static_cast<int>(rank);
    ++rank;
  }
  for (std::size_t i = rank; i < rows.size(); ++i) {
    if (rows[i][unknowns] != 0) return std::nullopt;
  }
  std::vector<Rational> x(unknowns, Rational(0));
  for (std::size_t col = 0; col < unknowns; ++col) {
    if (pivot_row_of[col] >= 0) x[col] = rows[pivot_row_of[col]][unknowns];
  }
  return x;
}

// Integer multiplicities m_T >= 0 with Σ_T m_T = d per representative and, for every link
// orbit, Σ_T w_r(T)·m_T·c_O(T) <= ratio·cap_O·d (w_r the representatives' integer weights) (exact
// right-hand sides, floored), by CBC with a 1 s budget; std::nullopt when CBC finds none. The
// caller re-checks the answer exactly.
std::optional<std::vector<BigInt>> SmallIntegerMixture(const std::vector<Column>& columns,
                                                       const std::vector<std::int64_t>& rep_weight,
                                                       const std::vector<Rational>& cap,
                                                       const Rational& ratio, const BigInt& d) {
  const int num_orbits = static_cast<int>(cap.size());
  const int num_reps = static_cast<int>(rep_weight.size());
  LpProblem ilp;
  const int cols = static_cast<int>(columns.size());
  ilp.objective.assign(cols, 0.0);
  ilp.col_lower.assign(cols, 0.0);
  ilp.col_upper.assign(cols, d.convert_to<double>());
  ilp.integer.assign(cols, true);
  for (int o = 0; o < num_orbits; ++o) {
    ilp.row_lower.push_back(-kLpInfinity);
    ilp.row_upper.push_back(Floor(ratio * cap[o] * Rational(d)).convert_to<double>());
  }
  for (int r = 0; r < num_reps; ++r) {
    ilp.row_lower.push_back(d.convert_to<double>());
    ilp.row_upper.push_back(d.convert_to<double>());
  }
  for (int i = 0; i < cols; ++i) {
    for (int o = 0; o < num_orbits; ++o) {
      if (columns[i].orbit_steps[o] != 0) {
        ilp.entries.push_back({o, i,
                               static_cast<double>(rep_weight[columns[i].rep]) *
                                   static_cast<double>(columns[i].orbit_steps[o])});
      }
    }
    ilp.entries.push_back({num_orbits + columns[i].rep, i, 1.0});
  }
  // A node budget, not a clock: the same k on every machine and under any load.
  CbcOptions options;
  options.max_nodes = kSmallMixtureNodes;
  LpSolution sol = SolveIlpWithCbc(ilp, options);
  if (sol.outcome != LpOutcome::kOptimal) return std::nullopt;
  std::vector<BigInt> m(cols);
  std::vector<BigInt> sum(num_reps, 0);
  for (int i = 0; i < cols; ++i) {
    const double v = std::round(sol.primal[i]);
    if (v < 0 || std::abs(v - sol.primal[i]) > 1e-6) return std::nullopt;
    m[i] = static_cast<long long>(v);
    sum[columns[i].rep] += m[i];
  }
  for (const BigInt& s : sum) {
    if (s != d) return std::nullopt;
  }
  for (int o = 0; o < num_orbits; ++o) {
    BigInt load = 0;
    for (int i = 0; i < cols; ++i) {
      load += m[i] * rep_weight[columns[i].rep] * columns[i].orbit_steps[o];
    }
    if (Rational(load) > ratio * cap[o] * Rational(d)) return std::nullopt;
  }
  return m;
}

// The declared generators' indices without repeats, in the declared order (a repeat is found
// by its hash), each checked to be an automorphism (std::invalid_argument naming it if not).
std::vector<std::size_t> DistinctDeclaredGenerators(const Topology& g) {
  const auto& declared = g.automorphisms();
  std::vector<std::size_t> distinct;
  std::unordered_map<std::size_t, std::vector<std::size_t>> by_hash;
  for (std::size_t i = 0; i < declared.size(); ++i) {
    std::size_t hash = declared[i].size();
    for (int v : declared[i]) hash = hash * 1000003u ^ static_cast<std::size_t>(v);
    std::vector<std::size_t>& same = by_hash[hash];
    bool repeat = false;
    for (std::size_t j : same) repeat = repeat || declared[j] == declared[i];
    if (repeat) continue;
    same.push_back(i);
    distinct.push_back(i);
  }
  for (std::size_t i : distinct) {
    AutomorphismCheck check = CheckAutomorphism(g, declared[i]);
    if (!check.ok) {
      throw std::invalid_argument("automorphisms[" + std::to_string(i) +
                                  "] is not an automorphism: " + check.problem);
    }
  }
  return distinct;
}

}  // namespace

std::optional<RegularGroup> ChooseRegularGroup(const Topology& g, std::string* why) {
  const auto& declared = g.automorphisms();
  const std::vector<std::size_t> distinct = DistinctDeclaredGenerators(g);
  // Generators are tried one at a time, in the declared order, and kept when the group stays
  // a regular direct product of cyclic groups. Each kept generator at least doubles |H| <= N,
  // so at most log2(N) are kept, and at most kMaxGeneratorTrials candidates are tried (each
  // costs one BFS).
  RegularGroup h;
  int trials = 0;
  bool assigned = true;  // h's exponents and orbits describe its current generators
  for (std::size_t i : distinct) {
    const std::vector<int>& p = declared[i];
    bool fixes_compute = false;
    bool identity = true;
    for (int v = 0; v < g.num_nodes(); ++v) {
      if (p[v] != v) identity = false;
      if (p[v] == v && g.IsCompute(v)) fixes_compute = true;
    }
    if (identity || fixes_compute) continue;
    const std::int64_t order = PermutationOrder(p, kMaxOrder);
    if (order == 0) continue;
    bool commutes = true;
    for (const std::vector<int>& q : h.generators) commutes = commutes && PermutationsCommute(p, q);
    if (!commutes) continue;
    if (++trials > kMaxGeneratorTrials) break;
    h.generators.push_back(p);
    h.orders.push_back(order);
    assigned = AssignExponents(g, &h);
    if (!assigned) {
      h.generators.pop_back();
      h.orders.pop_back();
      continue;
    }
    // One orbit holding every compute node: no generator outside H can keep it regular.
    if (h.representatives.size() == 1) break;
  }
  if (!assigned && !h.generators.empty() && !AssignExponents(g, &h)) {  // undo the last try
    throw std::logic_error("ChooseRegularGroup: the kept generators stopped acting regularly");
  }
  if (h.generators.empty()) {
    *why = declared.empty() ? "the topology declares no automorphisms"
                            : "no declared automorphisms generate a group acting regularly on the "
                              "compute nodes";
    return std::nullopt;
  }
  LinkOrbits(g, &h);
  h.orbit_size.assign(h.representatives.size(), h.order);
  return h;
}

std::optional<RegularGroup> ChooseWholeGroup(const Topology& g, std::string* why) {
  const auto& declared = g.automorphisms();
  RegularGroup h;
  h.whole_group = true;
  for (std::size_t i : DistinctDeclaredGenerators(g)) {
    const std::vector<int>& p = declared[i];
    bool identity = true;
    for (int v = 0; v < g.num_nodes() && identity; ++v) identity = p[v] == v;
    if (identity) continue;
    const std::int64_t order = PermutationOrder(p, kMaxOrder);
    if (order == 0) continue;
    h.generators.push_back(p);
    h.orders.push_back(order);
  }
  if (h.generators.empty()) {
    *why = declared.empty() ? "the topology declares no automorphisms"
                            : "no declared automorphism other than the identity";
    return std::nullopt;
  }
  // BFS over each orbit; one step is gen_j^e for any e (the whole cycle of gen_j through the
  // node, walked once per generator and cycle).
  const int n = g.num_nodes();
  const std::size_t m = h.generators.size();
  h.representative_of.assign(n, -1);
  h.words.assign(n, {});
  std::vector<char> walked(static_cast<std::size_t>(n) * m, 0);
  for (int r = 0; r < n; ++r) {
    if (!g.IsCompute(r) || h.representative_of[r] >= 0) continue;
    const int rep = static_cast<int>(h.representatives.size());
    h.representatives.push_back(r);
    h.representative_of[r] = rep;
    std::vector<int> queue = {r};
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const int t = queue[head];
      for (std::size_t j = 0; j < m; ++j) {
        if (walked[static_cast<std::size_t>(t) * m + j]) continue;
        walked[static_cast<std::size_t>(t) * m + j] = 1;
        std::int64_t e = 1;
        for (int u = h.generators[j][t]; u != t; u = h.generators[j][u], ++e) {
          walked[static_cast<std::size_t>(u) * m + j] = 1;
          if (h.representative_of[u] >= 0) continue;
          h.representative_of[u] = rep;
          GroupWord word = {{static_cast<int>(j), e}};  // g_u = gen_j^e ∘ g_t
          word.insert(word.end(), h.words[t].begin(), h.words[t].end());
          if (word.size() > kMaxSymmetricWordLength) {
            *why = "a root's word in the generators would have more than " +
                   std::to_string(kMaxSymmetricWordLength) + " letters";
            return std::nullopt;
          }
          h.words[u] = std::move(word);
          queue.push_back(u);
        }
      }
    }
    h.orbit_size.push_back(static_cast<std::int64_t>(queue.size()));
  }
  LinkOrbits(g, &h);
  h.order = 0;  // set by the caller from a base and strong generating set
  // When the generators commute and act regularly (case 1's test on a copy), every Γ_r is
  // trivial and |Γ| = Π orders: Symmetrise then needs no Schreier-Sims.
  bool commute = true;
  for (std::size_t i = 0; i < m && commute; ++i) {
    for (std::size_t j = i + 1; j < m && commute; ++j) {
      commute = PermutationsCommute(h.generators[i], h.generators[j]);
    }
  }
  std::int64_t product = 1;
  for (std::int64_t order : h.orders) {
    if (product > g.num_compute() / order) commute = false;  // more elements than nodes
    if (commute) product *= order;
  }
  RegularGroup copy;
  copy.generators = h.generators;
  copy.orders = h.orders;
  if (commute && AssignExponents(g, &copy)) {
    h.regular_action = true;
    h.order = copy.order;
  }
  return h;
}

namespace {

// One phase (allgather, or reduce-scatter as the allgather of G^T), built in named steps
// (see the header): ChooseGroup, ComputeOptimum, GenerateColumns, ExactWeights,
// IntegerMultiplicities, CheckMixture, EmitSchedule. A step that fails says why in
// `out_.why` and returns false; the caller then takes the plain path.
class PhaseBuilder {
 public:
  PhaseBuilder(const Topology& topology, Collective collective,
               const SymmetricPipelineOptions& options)
      : collective_(collective),
        // Reduce-scatter: the allgather of G^T (automorphisms of G are automorphisms of G^T).
        transposed_(collective == Collective::kReduceScatter ? topology.Transpose() : Topology()),
        g_(collective == Collective::kReduceScatter ? transposed_ : topology),
        options_(options) {}

  SymmetricPipelineResult Build() {
    if (!ChooseGroup()) return std::move(out_);
    ComputeOptimum();
    t_pack_ = Clock::now();
    if (GenerateColumns() && ExactWeights() && IntegerMultiplicities() && Symmetrise() &&
        CheckMixture()) {
      EmitSchedule();
    }
    return std::move(out_);
  }

 private:
  bool ChooseGroup();
  // The optimum: one sink per orbit of the whole declared group.
  void ComputeOptimum();
  // Column generation (see the header): trees of the representatives priced by CLP's duals.
  bool GenerateColumns();
  // Exact weights from CLP's answer (a vertex of the restricted LP): the columns it uses and
  // the rows it makes tight, solved exactly (Gaussian elimination over the rationals, free
  // unknowns at 0), then checked: weights >= 0, one distribution per representative.
  bool ExactWeights();
  // k and the integer multiplicities: from the weights' denominators, or a smaller D found by
  // CBC (SmallIntegerMixture).
  bool IntegerMultiplicities();
  void AddPriorityColumns();
  // Case 2 only (a no-op in case 1): each representative's trees symmetrised over its
  // stabiliser Γ_r (SymmetricPipelineOptions::whole_group); also sets |Γ|.
  bool Symmetrise();
  // The mixture's exact ratio must be the optimum, and k within bounds.
  bool CheckMixture();
  void EmitSchedule();

  bool AddColumn(Column c) {
    if (!seen_.insert({c.rep, c.orbit_steps}).second) return false;
    columns_.push_back(std::move(c));
    return true;
  }
  LpProblem RestrictedLp() const;

  const Collective collective_;
  const Topology transposed_;
  const Topology& g_;
  const SymmetricPipelineOptions& options_;
  SymmetricPipelineResult out_;
  std::optional<RegularGroup> group_;  // ChooseGroup
  AllgatherOptimum opt_;               // ComputeOptimum
  Clock::time_point t_pack_;
  int num_orbits_ = 0, num_reps_ = 0;
  std::vector<Rational> cap_;  // per link orbit: b_O·|O| / W
  // Per representative: w_r = |Γr| / W, W the gcd of the orbit sizes (case 1: all 1).
  std::vector<std::int64_t> rep_weight_;
  std::vector<Column> columns_;
  std::set<std::pair<int, std::vector<std::int64_t>>> seen_;
  LpSolution sol_;            // GenerateColumns: the last restricted LP
  std::vector<Rational> x_;   // ExactWeights: per column
  BigInt k_ = 1;              // IntegerMultiplicities
  BigInt k0_;                 // IntegerMultiplicities: Proposition 3's least k
  std::vector<BigInt> mult_;  // IntegerMultiplicities: per column
  Rational ratio_ = 0;        // CheckMixture
};

bool PhaseBuilder::ChooseGroup() {
  auto t_group = Clock::now();
  group_ =
      options_.whole_group ? ChooseWholeGroup(g_, &out_.why) : ChooseRegularGroup(g_, &out_.why);
  out_.no_regular_group =
      !options_.whole_group && !group_.has_value() && !g_.automorphisms().empty();
  out_.stats.group_seconds = SecondsSince(t_group);
  return group_.has_value();
}

void PhaseBuilder::ComputeOptimum() {
  auto t_opt = Clock::now();
  std::vector<int> sinks;
  for (const std::vector<int>& orbit : ComputeOrbits(g_, g_.automorphisms())) {
    if (g_.IsCompute(orbit.front())) sinks.push_back(orbit.front());
  }
  opt_ = ComputeAllgatherOptimum(g_, OptimumMethod::kDinkelbach, {}, sinks);
  out_.optimal_ratio = opt_.ratio;
  out_.stats.optimum_max_flows = opt_.max_flow_calls;
  out_.stats.optimum_seconds = SecondsSince(t_opt);
}

LpProblem PhaseBuilder::RestrictedLp() const {
  LpProblem lp;
  const int cols = 1 + static_cast<int>(columns_.size());
  lp.objective.assign(cols, 0.0);
  lp.objective[0] = 1.0;
  lp.col_lower.assign(cols, 0.0);
  lp.col_upper.assign(cols, kLpInfinity);
  for (int o = 0; o < num_orbits_; ++o) {
    lp.row_lower.push_back(-kLpInfinity);
    lp.row_upper.push_back(0.0);
    lp.entries.push_back({o, 0, -cap_[o].convert_to<double>()});
  }
  for (int r = 0; r < num_reps_; ++r) {
    lp.row_lower.push_back(1.0);
    lp.row_upper.push_back(1.0);
  }
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    const int col = 1 + static_cast<int>(i);
    for (int o = 0; o < num_orbits_; ++o) {
      if (columns_[i].orbit_steps[o] != 0) {
        lp.entries.push_back({o, col,
                              static_cast<double>(rep_weight_[columns_[i].rep]) *
                                  static_cast<double>(columns_[i].orbit_steps[o])});
      }
    }
    lp.entries.push_back({num_orbits_ + columns_[i].rep, col, 1.0});
  }
  return lp;
}

bool PhaseBuilder::GenerateColumns() {
  const RegularGroup& h = *group_;
  num_orbits_ = static_cast<int>(h.link_orbit_size.size());
  num_reps_ = static_cast<int>(h.representatives.size());
  std::vector<Rational> orbit_bw(num_orbits_);
  for (int e = 0; e < g_.num_links(); ++e) orbit_bw[h.link_orbit[e]] = g_.link(e).bandwidth;
  // The condition Σ_r |Γr| Σ_T x_T c_O(T) <= ρ·b_O·|O| divided by W = gcd_r |Γr|:
  // Σ_r w_r Σ_T x_T c_O(T) <= ρ·cap_O with cap_O = b_O·|O| / W (case 1: W = |H|, w_r = 1).
  std::int64_t w = 0;
  for (std::int64_t size : h.orbit_size) w = std::gcd(w, size);
  rep_weight_.clear();
  for (std::int64_t size : h.orbit_size) rep_weight_.push_back(size / w);
  cap_.resize(num_orbits_);
  for (int o = 0; o < num_orbits_; ++o) {
    cap_[o] = orbit_bw[o] * Rational(h.link_orbit_size[o]) / Rational(w);
  }
  std::vector<double> base_cost(g_.num_links());
  for (int e = 0; e < g_.num_links(); ++e) {
    base_cost[e] = 1.0 / orbit_bw[h.link_orbit[e]].convert_to<double>();
  }
  for (int r = 0; r < num_reps_; ++r) AddColumn(GrowTree(g_, h, r, base_cost));
  for (int round = 0; round < options_.max_rounds; ++round) {
    ++out_.stats.column_generation_rounds;
    sol_ = SolveLpWithClp(RestrictedLp());
    if (sol_.outcome != LpOutcome::kOptimal) {
      out_.why = "the reduced LP failed: " + ToString(sol_.outcome);
      return false;
    }
    if (sol_.objective <= opt_.ratio.convert_to<double>() * (1 + 1e-12)) break;
    // Pricing: orbit prices from the duals (<= 0 on the <= rows of a minimisation).
    std::vector<double> price(num_orbits_);
    double max_price = 0;
    for (int o = 0; o < num_orbits_; ++o) {
      price[o] = std::max(0.0, -sol_.row_duals[o]);
      max_price = std::max(max_price, price[o]);
    }
    const double eps = (max_price > 0 ? max_price : 1.0) * 1e-7;
    std::vector<double> w(g_.num_links());
    for (int e = 0; e < g_.num_links(); ++e) w[e] = price[h.link_orbit[e]] + eps;
    bool added = false;
    for (int r = 0; r < num_reps_; ++r) {
      Column c = GrowTree(g_, h, r, w);
      double reduced = 0;
      for (int o = 0; o < num_orbits_; ++o) {
        reduced += price[o] * static_cast<double>(rep_weight_[r]) * c.orbit_steps[o];
      }
      reduced -= sol_.row_duals[num_orbits_ + r];
      if (reduced < -1e-9 * std::max(1.0, std::abs(sol_.objective)) && AddColumn(std::move(c))) {
        added = true;
      }
    }
    if (!added) break;
  }
  out_.stats.columns = static_cast<int>(columns_.size());
  return true;
}

bool PhaseBuilder::ExactWeights() {
  std::vector<int> support;
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    if (sol_.primal[1 + i] > 1e-9) support.push_back(static_cast<int>(i));
  }
  x_.assign(columns_.size(), Rational(0));
  const double rho = sol_.primal[0];
  std::vector<std::vector<Rational>> rows;  // [a_1..a_s | rhs], unknowns = support weights
  for (int o = 0; o < num_orbits_; ++o) {
    double lhs = 0;
    for (int i : support) {
      lhs += sol_.primal[1 + i] * static_cast<double>(rep_weight_[columns_[i].rep]) *
             columns_[i].orbit_steps[o];
    }
    const double slack = rho * cap_[o].convert_to<double>() - lhs;
    if (slack > 1e-7 * std::max(1.0, std::abs(lhs))) continue;
    std::vector<Rational> row(support.size() + 1);
    for (std::size_t j = 0; j < support.size(); ++j) {
      row[j] =
          Rational(rep_weight_[columns_[support[j]].rep] * columns_[support[j]].orbit_steps[o]);
    }
    row.back() = opt_.ratio * cap_[o];
    rows.push_back(std::move(row));
  }
  for (int r = 0; r < num_reps_; ++r) {
    std::vector<Rational> row(support.size() + 1);
    for (std::size_t j = 0; j < support.size(); ++j) {
      row[j] = columns_[support[j]].rep == r ? 1 : 0;
    }
    row.back() = 1;
    rows.push_back(std::move(row));
  }
  std::optional<std::vector<Rational>> solved = SolveExactly(rows, support.size());
  if (!solved) {
    out_.why = "the reduced LP's tight rows have no exact solution (LP value " +
               std::to_string(sol_.objective) + ")";
    return false;
  }
  for (std::size_t j = 0; j < support.size(); ++j) x_[support[j]] = (*solved)[j];
  return true;
}

bool PhaseBuilder::IntegerMultiplicities() {
  std::vector<BigInt> rep_den(num_reps_, 1);
  std::vector<Rational> rep_total(num_reps_, Rational(0));
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    if (x_[i] < 0) {
      out_.why = "the reduced LP's exact solution has a negative weight";
      return false;
    }
    rep_total[columns_[i].rep] += x_[i];
    rep_den[columns_[i].rep] =
        boost::multiprecision::lcm(rep_den[columns_[i].rep], Denominator(x_[i]));
  }
  for (int r = 0; r < num_reps_; ++r) {
    if (rep_total[r] != 1) {
      out_.why = "the reduced LP's exact solution is not a distribution per representative";
      return false;
    }
  }
  k_ = 1;
  for (const BigInt& d : rep_den) k_ = boost::multiprecision::lcm(k_, d);
  mult_.assign(columns_.size(), 0);
  for (std::size_t i = 0; i < columns_.size(); ++i) mult_[i] = Numerator(x_[i] * Rational(k_));
  // A vertex of the LP may need a large k (denominators of the weights); executors split each
  // shard into k pieces. Look for integer multiplicities with Σ = D per representative for
  // small D (multiples of Proposition 3's least k, as the plain path uses), by CBC on the
  // columns found; any answer is checked exactly below like the vertex.
  Rational u0;
  MinimalUk(g_, opt_.ratio, &u0, &k0_);
  if (k_ > k0_ && num_orbits_ <= 12) AddPriorityColumns();
  for (BigInt d = k0_; d < k_ && d <= kMaxSymmetricKFactor * k0_ && d <= 1000000; d += k0_) {
    std::optional<std::vector<BigInt>> small =
        SmallIntegerMixture(columns_, rep_weight_, cap_, opt_.ratio, d);
    if (small) {
      mult_ = std::move(*small);
      k_ = d;
      break;
    }
  }
  return true;
}

// An automorphism as it acts on nodes and on links (link_image[e] = the link (p(u), p(v))).
struct Automorphism {
  std::vector<int> node_image, link_image;
};

Automorphism WithLinkImages(const Topology& g, std::vector<int> p) {
  Automorphism a;
  a.link_image.resize(g.num_links());
  for (int e = 0; e < g.num_links(); ++e) {
    const std::optional<int> image = g.FindLink(p[g.link(e).from], p[g.link(e).to]);
    if (!image) throw std::logic_error("symmetric pipeline: generator is not an automorphism");
    a.link_image[e] = *image;
  }
  a.node_image = std::move(p);
  return a;
}

// The image of tree c under the automorphism a (nodes and route links mapped; the link orbits
// are the group's, so c_O is unchanged).
Column MapColumn(const Column& c, const Automorphism& a) {
  const std::vector<int>& p = a.node_image;
  Column d;
  d.rep = c.rep;
  d.parent.assign(c.parent.size(), -1);
  d.route.assign(c.route.size(), {});
  d.orbit_steps = c.orbit_steps;
  for (std::size_t v = 0; v < c.parent.size(); ++v) {
    if (c.parent[v] < 0) continue;
    d.parent[p[v]] = p[c.parent[v]];
    std::vector<int>& links = d.route[p[v]];
    for (int l : c.route[v]) links.push_back(a.link_image[l]);
  }
  return d;
}

// A tree's identity: its parents, then every route's links (-1 between routes).
std::vector<int> ColumnKey(const Column& c) {
  std::vector<int> key = c.parent;
  for (const std::vector<int>& links : c.route) {
    key.insert(key.end(), links.begin(), links.end());
    key.push_back(-1);
  }
  return key;
}

// A tree orbit under Γ_r larger than this makes the symmetrised schedule too large (and its k
// with it): no case-2 schedule.
constexpr std::size_t kMaxTreeOrbit = 4096;

bool PhaseBuilder::Symmetrise() {
  if (!group_->whole_group) return true;
  RegularGroup& h = *group_;
  const int n = g_.num_nodes();
  // Generators of Γ_r: the strong generators fixing r of a base and strong generating set of Γ
  // with r as the first base point (they generate the first point stabiliser, by definition).
  std::vector<std::vector<Automorphism>> stabiliser(num_reps_);
  for (int r = 0; r < num_reps_ && !h.regular_action; ++r) {
    const int root = h.representatives[r];
    SchreierSimsGroup group(n, h.generators, {root}, options_.group_work);
    if (!group.complete()) {
      out_.why =
          "the base and strong generating set of the declared group exceeded its work "
          "budget";
      return false;
    }
    if (r == 0) {
      const BigInt order = group.Order();
      h.order = order <= (BigInt(1) << 62) ? order.convert_to<std::int64_t>() : 0;
    }
    std::set<std::vector<int>> distinct;
    for (std::vector<int>& p : group.StrongGenerators()) {
      bool identity = true;
      for (int v = 0; v < n && identity; ++v) identity = p[v] == v;
      if (p[root] != root || identity || !distinct.insert(p).second) continue;
      stabiliser[r].push_back(WithLinkImages(g_, std::move(p)));
    }
  }
  // Each tree's Γ_r-orbit by closure; images weighted m_T·L/|orbit| (L the lcm of the orbit
  // sizes), equal trees merged.
  std::vector<std::vector<Column>> orbits;
  std::vector<BigInt> orbit_mult;
  BigInt lcm = 1;
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    if (mult_[i] == 0) continue;
    std::vector<Column> orbit = {columns_[i]};
    std::set<std::vector<int>> seen = {ColumnKey(columns_[i])};
    for (std::size_t head = 0; head < orbit.size(); ++head) {
      for (const Automorphism& a : stabiliser[columns_[i].rep]) {
        Column image = MapColumn(orbit[head], a);
        if (!seen.insert(ColumnKey(image)).second) continue;
        if (orbit.size() >= kMaxTreeOrbit) {
          out_.why = "a tree's orbit under its root's stabiliser has more than " +
                     std::to_string(kMaxTreeOrbit) + " trees";
          return false;
        }
        orbit.push_back(std::move(image));
      }
    }
    lcm = boost::multiprecision::lcm(lcm, BigInt(orbit.size()));
    orbits.push_back(std::move(orbit));
    orbit_mult.push_back(mult_[i]);
  }
  std::vector<Column> columns;
  std::vector<BigInt> mult;
  std::map<std::vector<int>, std::size_t> index;
  for (std::size_t t = 0; t < orbits.size(); ++t) {
    const BigInt each = orbit_mult[t] * lcm / BigInt(orbits[t].size());
    for (Column& c : orbits[t]) {
      auto [it, added] = index.emplace(ColumnKey(c), columns.size());
      if (added) {
        columns.push_back(std::move(c));
        mult.push_back(each);
      } else {
        mult[it->second] += each;
      }
    }
  }
  columns_ = std::move(columns);
  mult_ = std::move(mult);
  k_ *= lcm;
  return true;
}

// More candidate trees for the integer search: Prim trees under a strict priority of two
// or three link orbits (costs 1, 2, 3 for them, 4 for the rest). On tori the trees that
// balance the directions with equal weights are of this kind.
void PhaseBuilder::AddPriorityColumns() {
  const RegularGroup& h = *group_;
  const int depth = num_orbits_ <= 8 ? 3 : 2;
  for (int a = 0; a < num_orbits_; ++a) {
    for (int b = 0; b < num_orbits_; ++b) {
      for (int c = depth == 3 ? 0 : -1; c < (depth == 3 ? num_orbits_ : 0); ++c) {
        if (a == b || c == a || c == b) continue;
        std::vector<double> w(g_.num_links(), 4.0);
        for (int e = 0; e < g_.num_links(); ++e) {
          const int o = h.link_orbit[e];
          w[e] = o == a ? 1.0 : o == b ? 2.0 : o == c ? 3.0 : 4.0;
        }
        for (int r = 0; r < num_reps_; ++r) {
          if (AddColumn(GrowTree(g_, h, r, w))) mult_.push_back(0);
        }
      }
    }
  }
}

bool PhaseBuilder::CheckMixture() {
  std::vector<BigInt> orbit_load(num_orbits_, 0);
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    if (mult_[i] == 0) continue;
    for (int o = 0; o < num_orbits_; ++o) {
      orbit_load[o] += mult_[i] * rep_weight_[columns_[i].rep] * columns_[i].orbit_steps[o];
    }
  }
  ratio_ = 0;
  for (int o = 0; o < num_orbits_; ++o) {
    Rational r = Rational(orbit_load[o]) / (Rational(k_) * cap_[o]);
    if (r > ratio_) ratio_ = r;
  }
  out_.lp_ratio = ratio_;
  out_.stats.packing_seconds = SecondsSince(t_pack_);
  if (ratio_ != opt_.ratio) {
    out_.why = "the tree mixture found has ratio " + ToString(ratio_) + ", above the optimum " +
               ToString(opt_.ratio) + " (column generation stopped after " +
               std::to_string(out_.stats.column_generation_rounds) + " rounds at LP value " +
               std::to_string(sol_.objective) + ")";
    return false;
  }
  // An absurd k makes the schedule useless to executors, which split every shard into k
  // pieces (e.g. fattree(8) under the 19 generators `topo symmetry` finds: k ~ 10^37, where
  // the plain path has k = 1): beyond the search's range and beyond what an export's default
  // chunk bound can hold, the caller takes the plain path.
  if (k_ > kMaxSymmetricKFactor * k0_ && k_ > kMaxPlainSymmetricK) {
    out_.why = "the symmetric trees need k = " + ToString(k_) +
               " trees per root, and none was found within " +
               std::to_string(kMaxSymmetricKFactor) + " times Proposition 3's least k (" +
               ToString(k0_) + ") or below " + std::to_string(kMaxPlainSymmetricK);
    return false;
  }
  return true;
}

void PhaseBuilder::EmitSchedule() {
  const RegularGroup& h = *group_;
  SymmetricPipelineSchedule s;
  s.collective = collective_;
  s.ratio = ratio_;
  s.k = k_;
  s.U = ratio_ * Rational(k_);
  s.generators = h.generators;
  s.orders = h.orders;
  s.representatives.resize(num_reps_);
  for (int r = 0; r < num_reps_; ++r) s.representatives[r].root = h.representatives[r];
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    if (mult_[i] == 0) continue;
    const Column& c = columns_[i];
    PipelineTree t;
    t.root = h.representatives[c.rep];
    t.multiplicity = mult_[i];
    // Edges in the order the nodes joined is not kept; parents before children is not
    // required by the format. Emit them by node id.
    for (int v = 0; v < g_.num_nodes(); ++v) {
      if (c.parent[v] < 0) continue;
      PipelineTreeEdge e;
      e.from = c.parent[v];
      e.to = v;
      PipelineRoute route;
      route.path.push_back(c.parent[v]);
      for (int l : c.route[v]) route.path.push_back(g_.link(l).to);
      route.multiplicity = mult_[i];
      e.routes.push_back(std::move(route));
      t.edges.push_back(std::move(e));
    }
    s.representatives[c.rep].trees.push_back(std::move(t));
  }
  s.stabiliser_invariant = h.whole_group;
  for (int v : g_.ComputeNodes()) {
    if (h.whole_group) {
      s.roots.push_back(SymmetricRoot{v, h.representative_of[v], {}, h.words[v]});
    } else {
      s.roots.push_back(SymmetricRoot{v, h.representative_of[v], h.exponents[v], {}});
    }
  }
  s.bottleneck_cut = opt_.bottleneck_cut;
  s.extra["optimal_ratio"] = ToString(opt_.ratio);
  s.extra["cut_compute"] = opt_.cut_compute;
  s.extra["cut_bandwidth"] = ToString(opt_.cut_bandwidth);
  s.extra["group_order"] = h.order;
  s.extra["link_orbits"] = num_orbits_;
  out_.group_order = h.order;
  out_.link_orbits = num_orbits_;
  out_.schedule = std::move(s);
}

SymmetricPipelineResult BuildPhase(const Topology& topology, Collective collective,
                                   const SymmetricPipelineOptions& options) {
  return PhaseBuilder(topology, collective, options).Build();
}

// Allreduce (Appendix B): reduce-scatter then allgather, each symmetric; the certificate of
// bound (7) from one min cut per representative mapped to every compute node by its group
// element (μ_v and S_v move along automorphisms); without switches ComputeAllreduceBounds
// itself is cheap (one Hao-Orlin run for (6), S_v = {v} for (7)) and gives both bounds.
SymmetricPipelineResult BuildAllreduce(const Topology& g, const SymmetricPipelineOptions& options) {
  SymmetricPipelineResult rs = BuildPhase(g, Collective::kReduceScatter, options);
  if (!rs.schedule) return rs;
  SymmetricPipelineResult ag = BuildPhase(g, Collective::kAllgather, options);
  if (!ag.schedule) return ag;
  SymmetricPipelineResult out;
  out.optimal_ratio = rs.optimal_ratio + ag.optimal_ratio;
  out.lp_ratio = rs.lp_ratio + ag.lp_ratio;
  out.group_order = ag.group_order;
  out.link_orbits = ag.link_orbits;
  for (const SymmetricPipelineStats* st : {&rs.stats, &ag.stats}) {
    out.stats.optimum_max_flows += st->optimum_max_flows;
    out.stats.column_generation_rounds += st->column_generation_rounds;
    out.stats.columns += st->columns;
    out.stats.optimum_seconds += st->optimum_seconds;
    out.stats.group_seconds += st->group_seconds;
    out.stats.packing_seconds += st->packing_seconds;
  }
  SymmetricPipelineSchedule s =
      ComposeRsAgAllreduce(std::move(*rs.schedule), std::move(*ag.schedule));
  const SymmetricPipelineSchedule& a = s.phases.back();  // the allgather phase
  const int n = g.num_compute();
  auto t0 = Clock::now();
  Rational bound6 = 0, bound7;
  std::vector<std::vector<int>> single_cuts;
  std::optional<std::vector<int>> cut6;
  if (g.num_compute() == g.num_nodes()) {
    AllgatherOptimum opt;  // only Theorem 19's flags read it; the bounds do not
    opt.ratio = ag.optimal_ratio;
    AllreduceBounds b = ComputeAllreduceBounds(g, opt);
    bound6 = b.bound6;
    bound7 = b.bound7;
    single_cuts = std::move(b.single_cuts);
    cut6 = b.min_cut_set;
  } else {
    std::vector<int> reps;
    for (const SymmetricRepresentative& r : a.representatives) reps.push_back(r.root);
    std::vector<SingleNodeCut> rep_cuts = ComputeSingleNodeCuts(g, reps);
    std::vector<PermutationPowers> powers;
    for (const std::vector<int>& p : a.generators) powers.emplace_back(p);
    std::vector<const SymmetricRoot*> root_of(g.num_nodes(), nullptr);
    for (const SymmetricRoot& r : a.roots) root_of[r.node] = &r;
    Rational max_mu = 0;
    for (int v : g.ComputeNodes()) {
      const SymmetricRoot& r = *root_of[v];
      const SingleNodeCut& c = rep_cuts[r.representative];
      if (c.mu > max_mu) max_mu = c.mu;
      std::vector<int> image;
      for (int x : c.cut) {
        image.push_back(a.stabiliser_invariant ? ApplyGroupWord(powers, x, r.word)
                                               : ApplyGroupElement(powers, x, r.exponents));
      }
      std::sort(image.begin(), image.end());
      single_cuts.push_back(std::move(image));
    }
    bound7 = Rational(2 * (n - 1)) / max_mu;
  }
  out.stats.optimum_seconds += SecondsSince(t0);
  out.allreduce = CertifyRsAgAllreduce(s, bound6, cut6, bound7, std::move(single_cuts));
  out.schedule = std::move(s);
  return out;
}

}  // namespace

SymmetricPipelineResult BuildSymmetricPipelineSchedule(const Topology& topology,
                                                       Collective collective,
                                                       const SymmetricPipelineOptions& options) {
  switch (collective) {
    case Collective::kAllgather:
    case Collective::kReduceScatter:
      return BuildPhase(topology, collective, options);
    case Collective::kAllreduce:
      return BuildAllreduce(topology, options);
    default:
      throw std::invalid_argument(
          "symmetric pipeline: allgather, reduce-scatter and allreduce only");
  }
}

}  // namespace collsynth
