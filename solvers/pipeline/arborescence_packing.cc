#include "solvers/pipeline/arborescence_packing.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <set>
#include <stdexcept>
#include <tuple>

#include "solvers/backends/lemon_graph.h"
#include "solvers/backends/max_flow.h"

namespace collsynth {
namespace {

struct RootSet {
  int root = -1;  // local index
  BigInt m;
  std::vector<char> in;
  std::vector<int> members;
  std::vector<std::pair<int, int>> edges;  // local indices
};

class Packer {
 public:
  Packer(const Topology& g, const CapacityGraph& graph,
         const std::vector<std::pair<int, BigInt>>& demands, const PackingOptions& options)
      : options_(options) {
    for (int v : g.ComputeNodes()) {
      local_[v] = static_cast<int>(global_.size());
      global_.push_back(v);
    }
    n_ = static_cast<int>(global_.size());
    out_.resize(n_);
    for (const auto& [arc, c] : graph.capacity) {
      if (c <= 0 || arc.first == arc.second) continue;
      auto a = local_.find(arc.first), b = local_.find(arc.second);
      if (a == local_.end() || b == local_.end()) {
        throw std::logic_error("PackArborescences: arc touches a switch node");
      }
      out_[a->second][b->second] += c;
    }
    for (const auto& [r, m] : demands) {
      auto it = local_.find(r);
      if (it == local_.end() || m < 1) throw std::logic_error("PackArborescences: bad demand");
      RootSet s;
      s.root = it->second;
      s.m = m;
      s.in.assign(n_, 0);
      s.in[s.root] = 1;
      s.members.push_back(s.root);
      sets_.push_back(std::move(s));
    }
  }

  PackingResult Run() {
    PackingResult r;
    // Root-sets are grown one at a time; a copy made by a split is grown right after the
    // set it was split from (depth first), so only a few partial non-singleton root-sets
    // exist at any time and D̄ stays small (O(N) auxiliary arcs, not O(N^2)).
    const std::size_t initial = sets_.size();
    for (std::size_t next = 0; next < initial || !pending_.empty();) {
      std::size_t i;
      if (!pending_.empty()) {
        i = pending_.back();
        pending_.pop_back();
      } else {
        i = next++;
        if (options_.batch_certify) GrowSetsBatch(i, initial);
      }
      while (static_cast<int>(sets_[i].members.size()) < n_) {
        if (options_.batch_certify && GrowBatch(i)) continue;
        if (!GrowOnce(i)) {
          r.ok = false;
          FillStats(&r);
          return r;
        }
      }
    }
    r.ok = true;
    for (const RootSet& s : sets_) {
      PackedTree t;
      t.root = global_[s.root];
      t.multiplicity = s.m;
      for (const auto& [x, y] : s.edges) t.edges.push_back({global_[x], global_[y]});
      r.trees.push_back(std::move(t));
    }
    FillStats(&r);
    return r;
  }

 private:
  void FillStats(PackingResult* r) const {
    r->mu_evaluations = evaluations_;
    r->condition_checks = condition_checks_;
    r->batch_arcs = batch_arcs_;
    r->rejected_proposals = rejected_proposals_;
    r->condition_check_seconds = check_seconds_;
  }

  // D̄ of Theorem 12 for the root-set i being grown, built once per (i, set structure):
  // compute nodes 0..N-1, a hub z, one node s_j per other partial root-set. Arcs: G* (by
  // current g), z -> s_j (m_j), s_j -> R_j (infinite), z -> r (Σ m_j of the other singleton
  // root-sets {r}), and x -> z (infinite) for the current flow source x, which forces z to
  // the source side, so z -> s_j / z -> r cross a cut exactly when x -> s_j would: the same
  // min cut value as the paper's D̄.
  // Root-sets equal to V_c are left out (each adds m_j to every finite x-y cut).
  void BuildNetwork(std::size_t i) {
    FlowNetwork net(n_ + 1);
    const int z = n_;
    arc_of_.clear();
    for (int a = 0; a < n_; ++a) {
      for (const auto& [b, c] : out_[a]) arc_of_[{a, b}] = net.AddArc(a, b, c);
    }
    hub_arc_.clear();
    for (int v = 0; v < n_; ++v)
      hub_arc_.push_back(net.AddArc(v, z, 0));  // x -> z made infinite per query
    std::vector<BigInt> single(n_, 0);
    included_demand_ = 0;
    for (std::size_t j = 0; j < sets_.size(); ++j) {
      const RootSet& s = sets_[j];
      if (j == i || static_cast<int>(s.members.size()) == n_) continue;
      included_demand_ += s.m;
      if (s.members.size() == 1) {
        single[s.root] += s.m;
        continue;
      }
      int sj = net.AddNode();
      net.AddArc(z, sj, s.m);
      for (int v : s.members) net.AddInfiniteArc(sj, v);
    }
    for (int v = 0; v < n_; ++v) {
      if (single[v] > 0) net.AddArc(z, v, single[v]);
    }
    solver_ = std::make_unique<MaxFlowSolver>(net);
    hub_source_ = -1;
    built_for_ = i;
    built_sets_ = sets_.size();
  }

  // Theorem 12: μ for arc (x, y) leaving sets_[i].
  BigInt Mu(std::size_t i, int x, int y) {
    ++evaluations_;
    if (!solver_ || built_for_ != i || built_sets_ != sets_.size()) BuildNetwork(i);
    BigInt limit = std::min(out_[x][y], sets_[i].m);
    if (hub_source_ != x) {
      if (hub_source_ >= 0) solver_->SetCapacity(hub_arc_[hub_source_], 0);
      solver_->SetInfinite(hub_arc_[x]);
      hub_source_ = x;
    }
    // Same source as the previous flow (only capacities dropped since): warm start.
    MaxFlowResult f = solver_->SolveFromLast(x, y, false);
    if (f.unbounded()) return limit;
    BigInt mu = std::min(limit, BigInt(f.value - included_demand_));
    return mu > 0 ? mu : BigInt(0);
  }

  void DecreaseCapacity(int x, int y, const BigInt& by) {
    out_[x][y] -= by;
    if (solver_) solver_->SetCapacity(arc_of_.at({x, y}), out_[x][y]);
    if (out_[x][y] == 0) out_[x].erase(y);
  }

  // Adds one arc to sets_[i]. Arcs are tried from the oldest member outwards (breadth
  // first), so consecutive Theorem-12 flows share their source x and warm-start from each
  // other. μ(x, y) never grows while sets_[i] is being grown (capacities only drop, a
  // split only adds demand and lowers m(R_1)), so a pair with μ = 0 is never tried again
  // for this set, and a member none of whose arcs can be used is passed over for good.
  bool GrowOnce(std::size_t i) {
    if (scan_set_ != i) {
      scan_set_ = i;
      scan_pos_ = 0;
      dead_.clear();
    }
    for (; scan_pos_ < sets_[i].members.size(); ++scan_pos_) {
      int x = sets_[i].members[scan_pos_];
      std::vector<int> heads;
      for (const auto& [y, c] : out_[x]) {
        if (c > 0 && !sets_[i].in[y] && !dead_.count({x, y})) heads.push_back(y);
      }
      for (int y : heads) {
        BigInt mu = Mu(i, x, y);
        if (mu == 0) {
          dead_.insert({x, y});
          continue;
        }
        if (mu < sets_[i].m) {
          RootSet copy = sets_[i];
          copy.m = sets_[i].m - mu;
          sets_[i].m = mu;
          sets_.push_back(std::move(copy));
          pending_.push_back(sets_.size() - 1);
        }
        RootSet& s = sets_[i];
        s.edges.push_back({x, y});
        s.in[y] = 1;
        s.members.push_back(y);
        DecreaseCapacity(x, y, mu);
        return true;
      }
    }
    return false;
  }

  // ---- Batch certification (PackingOptions::batch_certify) ----
  //
  // Condition (3) with demands — for every nonempty X ⊆ V_c, ρ_g(X) >= Σ{m_j : R_j ∩ X = ∅}
  // — is a rooted-connectivity test when every root-set is a singleton {r} or all of V_c:
  // with a super-root σ and arcs σ -> r of capacity m_j (sets equal to V_c add m_j to both
  // sides and are left out), every cut with σ on the source side must have capacity
  // >= Σ_j m_j. LEMON's HaoOrlin first phase (calculateOut) gives the minimum over all such
  // cuts in one push-relabel run. (Partial root-sets would need an auxiliary node each,
  // which Hao-Orlin would also try as a sink: then the test is not exact, and is not used.)
  // Returns std::nullopt when the test does not apply: a partial non-singleton root-set,
  // or a risk of int64 overflow.
  std::optional<bool> ConditionHolds(std::vector<char>* violated = nullptr) {
    using Digraph = lemon::SmartDigraph;
    BigInt finite_sum = 0, demand = 0;
    std::vector<BigInt> single(n_, 0);
    for (const RootSet& s : sets_) {
      if (static_cast<int>(s.members.size()) == n_) continue;
      if (s.members.size() != 1) return std::nullopt;
      demand += s.m;
      single[s.root] += s.m;
    }
    finite_sum = demand;
    Digraph net;
    std::vector<Digraph::Node> node(n_);
    for (int v = 0; v < n_; ++v) node[v] = net.addNode();
    Digraph::Node sigma = net.addNode();
    std::vector<std::tuple<Digraph::Node, Digraph::Node, std::int64_t>> arcs;
    for (int a = 0; a < n_; ++a) {
      for (const auto& [b, c] : out_[a]) {
        if (c <= 0) continue;
        finite_sum += c;
        if (finite_sum >= (BigInt(1) << 62)) return std::nullopt;
        arcs.emplace_back(node[a], node[b], static_cast<std::int64_t>(c));
      }
    }
    if (finite_sum >= (BigInt(1) << 62)) return std::nullopt;
    for (int v = 0; v < n_; ++v) {
      if (single[v] > 0) arcs.emplace_back(sigma, node[v], static_cast<std::int64_t>(single[v]));
    }
    ++condition_checks_;
    auto t0 = std::chrono::steady_clock::now();
    Digraph::ArcMap<std::int64_t> cap(net);
    for (const auto& [a, b, c] : arcs) cap[net.addArc(a, b)] = c;
    lemon::HaoOrlin<Digraph, Digraph::ArcMap<std::int64_t>> ho(net, cap);
    ho.init(sigma);
    ho.calculateOut();
    check_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    bool ok = BigInt(ho.minCutValue()) >= demand;
    if (!ok && violated) {  // X = the sink side of the minimum cut: ρ_g(X) < p(X)
      Digraph::NodeMap<bool> source_side(net);
      ho.minCutMap(source_side);
      violated->assign(n_, 0);
      for (int v = 0; v < n_; ++v) (*violated)[v] = source_side[node[v]] ? 0 : 1;
    }
    return ok;
  }

  // A greedy spanning proposal for completing sets_[i]: Prim-like growth over arcs (x, y)
  // with g(x, y) >= m(R_i), taking the arc with the most capacity left first (trees spread
  // over the links), then the shallower tail, then the older arc. `avoid` lists sets X
  // that made earlier proposals fail (3): the tree enters each of them from outside at
  // most once, and not at all if it already meets X. Empty if it cannot span.
  std::vector<std::pair<int, int>> Propose(std::size_t i,
                                           const std::vector<std::vector<char>>& avoid = {}) {
    const RootSet& s = sets_[i];
    std::vector<char> in = s.in;
    std::vector<char> entered(avoid.size(), 0);
    for (std::size_t f = 0; f < avoid.size(); ++f) {
      for (int v : s.members) entered[f] |= avoid[f][v];
    }
    auto blocked = [&](int x, int y) {
      for (std::size_t f = 0; f < avoid.size(); ++f) {
        if (entered[f] && avoid[f][y] && !avoid[f][x]) return true;
      }
      return false;
    };
    std::vector<int> depth(n_, 0);
    using Item = std::tuple<BigInt, int, std::int64_t, int, int>;  // max-heap order
    std::priority_queue<Item> heap;
    std::int64_t seq = 0;
    auto push_arcs = [&](int x) {
      for (const auto& [y, c] : out_[x]) {
        if (in[y] || c < s.m) continue;
        heap.emplace(c, -depth[x], -(seq++), x, y);
      }
    };
    for (int x : s.members) push_arcs(x);
    std::vector<std::pair<int, int>> arcs;
    while (!heap.empty()) {
      auto [c, d, q, x, y] = heap.top();
      heap.pop();
      if (in[y] || blocked(x, y)) continue;
      in[y] = 1;
      for (std::size_t f = 0; f < avoid.size(); ++f) entered[f] |= avoid[f][y];
      depth[y] = depth[x] + 1;
      arcs.push_back({x, y});
      push_arcs(y);
    }
    if (arcs.size() + s.members.size() != static_cast<std::size_t>(n_)) arcs.clear();
    return arcs;
  }

  // Completes sets_[i] in one step when a greedy spanning proposal keeps condition (3):
  // then every arc of it, added in order, has Theorem 12's μ = m(R_i) (a completion of the
  // final configuration completes every intermediate one), so this is a run of Algorithm 2
  // with μ certified by (3) instead of by (4). Copies left partial by earlier splits get a
  // proposal too (after sets_[i]'s, on the capacities it leaves), so that the test sees
  // only singleton and complete root-sets. Returns false (nothing changed) when a proposal
  // is rejected or the test does not apply; GrowOnce then goes on arc by arc.
  bool GrowBatch(std::size_t i) {
    // After a rejection the set goes on arc by arc and proposes again once it has grown by
    // 1/kRetryDiv of what was missing (at least kRetryMin arcs).
    if (batch_failed_for_ == i && sets_[i].members.size() < retry_at_size_) return false;
    batch_failed_for_ = i;
    const std::size_t missing = static_cast<std::size_t>(n_) - sets_[i].members.size();
    retry_at_size_ =
        sets_[i].members.size() + std::max<std::size_t>(kRetryMin, missing / kRetryDiv);
    std::vector<std::size_t> partial = {i};
    for (std::size_t j = 0; j < sets_.size(); ++j) {
      std::size_t size = sets_[j].members.size();
      if (j != i && size > 1 && size < static_cast<std::size_t>(n_)) partial.push_back(j);
    }
    // A rejected proposal is repaired up to kRepairs times: the violated set X of the
    // minimum cut is added to the sets the next proposals must not enter twice.
    constexpr int kRepairs = 8;
    std::vector<std::vector<char>> avoid;
    for (int attempt = 0; attempt <= kRepairs; ++attempt) {
      std::vector<std::vector<std::pair<int, int>>> proposals;
      auto undo = [&] {
        for (std::size_t p = proposals.size(); p-- > 0;) {
          for (const auto& [x, y] : proposals[p]) out_[x][y] += sets_[partial[p]].m;
        }
      };
      for (std::size_t j : partial) {
        proposals.push_back(Propose(j, avoid));
        if (proposals.back().empty()) {
          proposals.pop_back();
          undo();
          return false;
        }
        for (const auto& [x, y] : proposals.back()) out_[x][y] -= sets_[j].m;
      }
      std::vector<std::size_t> before;
      for (std::size_t j : partial) {
        before.push_back(sets_[j].members.size());
        sets_[j].members.resize(n_);  // counts as complete in ConditionHolds
      }
      std::vector<char> violated;
      std::optional<bool> ok = ConditionHolds(&violated);
      for (std::size_t p = 0; p < partial.size(); ++p) sets_[partial[p]].members.resize(before[p]);
      undo();
      if (!ok) return false;
      if (*ok) {
        for (std::size_t p = 0; p < partial.size(); ++p) {
          for (const auto& [x, y] : proposals[p]) AddArc(partial[p], x, y, sets_[partial[p]].m);
          batch_arcs_ += static_cast<std::int64_t>(proposals[p].size());
        }
        batch_failed_for_ = static_cast<std::size_t>(-1);
        return true;
      }
      ++rejected_proposals_;
      avoid.push_back(std::move(violated));
    }
    return false;
  }

  // Several fresh root-sets at once: when no partial non-singleton root-set exists, the
  // singleton sets first, first+1, ... (up to batch_width_ of them) get greedy spanning
  // proposals one after the other (each on the capacities the previous ones leave), and
  // the longest prefix of them whose completion keeps condition (3) is found by bisection
  // (a prefix of a valid configuration is valid: the trees of the others complete it).
  // The outcome equals proposing set by set; only the number of min-cut tests drops. The
  // width doubles after a full success and shrinks to what was accepted otherwise.
  void GrowSetsBatch(std::size_t first, std::size_t end) {
    if (sets_[first].members.size() != 1) return;
    if (first == known_rejected_) return;  // GrowBatch repairs its proposal
    for (const RootSet& s : sets_) {
      if (s.members.size() > 1 && static_cast<int>(s.members.size()) < n_) return;
    }
    std::vector<std::size_t> ids;
    std::vector<std::vector<std::pair<int, int>>> proposals;
    for (std::size_t j = first; j < end && ids.size() < batch_width_; ++j) {
      if (sets_[j].members.size() != 1) break;
      proposals.push_back(Propose(j));
      if (proposals.back().empty()) {
        proposals.pop_back();
        break;
      }
      for (const auto& [x, y] : proposals.back()) out_[x][y] -= sets_[j].m;
      ids.push_back(j);
    }
    for (std::size_t p = 0; p < ids.size(); ++p) {  // back to the committed capacities
      for (const auto& [x, y] : proposals[p]) out_[x][y] += sets_[ids[p]].m;
    }
    if (ids.empty()) return;
    auto valid = [&](std::size_t count) -> std::optional<bool> {
      for (std::size_t p = 0; p < count; ++p) {
        for (const auto& [x, y] : proposals[p]) out_[x][y] -= sets_[ids[p]].m;
        sets_[ids[p]].members.resize(n_);  // counts as complete in ConditionHolds
      }
      std::optional<bool> ok = ConditionHolds();
      for (std::size_t p = 0; p < count; ++p) {
        for (const auto& [x, y] : proposals[p]) out_[x][y] += sets_[ids[p]].m;
        sets_[ids[p]].members.resize(1);
      }
      return ok;
    };
    std::size_t lo = 0, hi = ids.size();
    std::optional<bool> all = valid(hi);
    if (!all) return;
    if (*all) {
      lo = hi;
      batch_width_ = std::min<std::size_t>(2 * batch_width_, 1024);
    } else {
      while (hi - lo > 1) {
        std::size_t mid = lo + (hi - lo) / 2;
        std::optional<bool> ok = valid(mid);
        if (!ok) return;
        if (*ok)
          lo = mid;
        else
          hi = mid;
      }
      ++rejected_proposals_;
      known_rejected_ = ids[lo];  // its proposal, on these capacities, breaks (3)
      batch_width_ = std::max<std::size_t>(1, lo);
    }
    for (std::size_t p = 0; p < lo; ++p) {
      for (const auto& [x, y] : proposals[p]) AddArc(ids[p], x, y, sets_[ids[p]].m);
      batch_arcs_ += static_cast<std::int64_t>(proposals[p].size());
    }
  }

  void AddArc(std::size_t i, int x, int y, const BigInt& mu) {
    RootSet& s = sets_[i];
    s.edges.push_back({x, y});
    s.in[y] = 1;
    s.members.push_back(y);
    DecreaseCapacity(x, y, mu);
  }

  PackingOptions options_;
  std::int64_t condition_checks_ = 0, batch_arcs_ = 0, rejected_proposals_ = 0;
  double check_seconds_ = 0;
  static constexpr std::size_t kRetryMin = 8, kRetryDiv = 4;
  std::size_t batch_width_ = 1, known_rejected_ = static_cast<std::size_t>(-1);
  std::size_t batch_failed_for_ = static_cast<std::size_t>(-1), retry_at_size_ = 0;
  std::map<int, int> local_;
  std::vector<int> global_;
  int n_ = 0;
  std::vector<std::map<int, BigInt>> out_;
  std::vector<RootSet> sets_;
  std::vector<std::size_t> pending_;  // copies made by splits, grown next (LIFO)
  std::int64_t evaluations_ = 0;
  std::unique_ptr<MaxFlowSolver> solver_;
  std::map<std::pair<int, int>, int> arc_of_;
  std::vector<int> hub_arc_;
  int hub_source_ = -1;
  BigInt included_demand_ = 0;
  std::size_t built_for_ = 0, built_sets_ = 0;
  // GrowOnce's scan state for the set being grown.
  std::size_t scan_set_ = static_cast<std::size_t>(-1), scan_pos_ = 0;
  std::set<std::pair<int, int>> dead_;
};

}  // namespace

PackingResult PackArborescences(const Topology& g, const CapacityGraph& graph,
                                const std::vector<std::pair<int, BigInt>>& demands,
                                const PackingOptions& options) {
  Packer packer(g, graph, demands, options);
  return packer.Run();
}

}  // namespace collsynth
