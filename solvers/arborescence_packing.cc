#include "solvers/arborescence_packing.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

#include "solvers/max_flow.h"

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
         const std::vector<std::pair<int, BigInt>>& demands)
      : g_(g) {
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
        throw std::invalid_argument("PackArborescences: arc touches a switch node");
      }
      out_[a->second][b->second] += c;
    }
    for (const auto& [r, m] : demands) {
      auto it = local_.find(r);
      if (it == local_.end() || m < 1) throw std::invalid_argument("PackArborescences: bad demand");
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
      }
      while (static_cast<int>(sets_[i].members.size()) < n_) {
        if (!GrowOnce(i)) {
          r.ok = false;
          r.mu_evaluations = evaluations_;
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
    r.mu_evaluations = evaluations_;
    return r;
  }

 private:
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
    for (int v = 0; v < n_; ++v) hub_arc_.push_back(net.AddArc(v, z, 0));  // x -> z made infinite per query
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
    if (f.unbounded) return limit;
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

  const Topology& g_;
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
                                const std::vector<std::pair<int, BigInt>>& demands) {
  Packer packer(g, graph, demands);
  return packer.Run();
}

}  // namespace collsynth
