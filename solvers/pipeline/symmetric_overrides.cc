#include "solvers/pipeline/symmetric_overrides.h"

#include <algorithm>
#include <cassert>
#include <numeric>
#include <utility>
#include <vector>

#include "graphs/permutation_group.h"
#include "proofs_check/symmetric_pipeline_checker.h"
#include "solvers/pipeline/residual_routes.h"

namespace collsynth {
namespace {

// A tree edge of the expansion whose routes cross a failed link.
struct BrokenEdge {
  int root = -1;
  std::size_t tree = 0;
  int from = -1, to = -1;  // in the expansion
  BigInt multiplicity;     // the tree's
};

// Steps 1-3 of the header for one allgather or reduce-scatter schedule.
class FailureRerouter {
 public:
  FailureRerouter(const TopologyWithFailures& t, const Topology& g, SymmetricPipelineSchedule& s)
      : t_(t),
        g_(g),
        s_(s),
        reduce_scatter_(s.collective == Collective::kReduceScatter),
        search_graph_(reduce_scatter_ ? g.Transpose() : Topology()),
        search_(reduce_scatter_ ? search_graph_ : g) {}

  bool Run(std::string* why, SymmetricOverridesStats* stats);

 private:
  // The link of g (or of G when `intact`) that a route step x -> y loads, or -1.
  int DataLink(const Topology& t, int x, int y) const {
    const std::optional<int> e = reduce_scatter_ ? t.FindLink(y, x) : t.FindLink(x, y);
    return e ? *e : -1;
  }
  bool StepFails(int x, int y) const {
    const int a = reduce_scatter_ ? y : x, b = reduce_scatter_ ? x : y;
    const std::vector<int>& heads = failed_out_[a];
    return !heads.empty() && std::find(heads.begin(), heads.end(), b) != heads.end();
  }
  void Capacities();
  void FindBroken();
  bool Reroute(std::string* why);

  const TopologyWithFailures& t_;
  const Topology& g_;
  SymmetricPipelineSchedule& s_;
  const bool reduce_scatter_;
  const Topology search_graph_;  // g transposed for reduce-scatter
  SwitchSearch search_;
  std::vector<std::vector<int>> failed_out_;  // per node: heads of its failed out-links
  std::vector<BigInt> cap_, res_;             // per link of g: ⌊k·ratio·b_e⌋, what is left
  std::vector<BrokenEdge> broken_;
  std::vector<PermutationPowers> powers_;
};

// Step 1: the expansion's load on every link of G by link orbits, charged to g's links.
void FailureRerouter::Capacities() {
  const Topology& G = t_.intact;
  const int links = G.num_links();
  std::vector<int> parent(static_cast<std::size_t>(links));
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const std::vector<int>& p : s_.generators) {
    for (int l = 0; l < links; ++l) {
      const std::optional<int> image = G.FindLink(p[G.link(l).from], p[G.link(l).to]);
      if (image) parent[std::max(find(l), find(*image))] = std::min(find(l), find(*image));
    }
  }
  std::vector<std::int64_t> orbit_roots(s_.representatives.size(), 0);
  for (const SymmetricRoot& r : s_.roots) ++orbit_roots[r.representative];
  std::vector<BigInt> orbit_load(static_cast<std::size_t>(links));
  std::vector<std::int64_t> size(static_cast<std::size_t>(links), 0);
  for (int l = 0; l < links; ++l) ++size[find(l)];
  for (std::size_t i = 0; i < s_.representatives.size(); ++i) {
    for (const PipelineTree& tree : s_.representatives[i].trees) {
      for (const PipelineTreeEdge& e : tree.edges) {
        for (const PipelineRoute& r : e.routes) {
          for (std::size_t k = 0; k + 1 < r.path.size(); ++k) {
            const int l = DataLink(G, r.path[k], r.path[k + 1]);
            orbit_load[find(l)] += r.multiplicity * orbit_roots[i];
          }
        }
      }
    }
  }
  cap_.assign(static_cast<std::size_t>(g_.num_links()), BigInt(0));
  res_ = cap_;
  for (int e = 0; e < g_.num_links(); ++e) {
    const Link& link = g_.link(e);
    const int l = *G.FindLink(link.from, link.to);
    cap_[e] = Floor(s_.ratio * Rational(s_.k) * link.bandwidth);
    res_[e] = cap_[e] - orbit_load[find(l)] / size[find(l)];  // exact: loads are integers
  }
  failed_out_.assign(static_cast<std::size_t>(G.num_nodes()), {});
  for (int l : t_.failed) failed_out_[G.link(l).from].push_back(G.link(l).to);
}

// Step 2: every root's mapped routes checked against F; a broken edge's routes give their
// load back.
void FailureRerouter::FindBroken() {
  for (const std::vector<int>& p : s_.generators) powers_.emplace_back(p);
  const int n = g_.num_nodes();
  std::vector<int> image(static_cast<std::size_t>(n));
  for (const SymmetricRoot& root : s_.roots) {
    for (int v = 0; v < n; ++v) image[v] = ApplyGroupElement(powers_, v, root.exponents);
    const std::vector<PipelineTree>& trees = s_.representatives[root.representative].trees;
    for (std::size_t t = 0; t < trees.size(); ++t) {
      for (const PipelineTreeEdge& e : trees[t].edges) {
        bool broken = false;
        for (const PipelineRoute& r : e.routes) {
          for (std::size_t k = 0; !broken && k + 1 < r.path.size(); ++k)
            broken = StepFails(image[r.path[k]], image[r.path[k + 1]]);
        }
        if (!broken) continue;
        broken_.push_back({root.node, t, image[e.from], image[e.to], trees[t].multiplicity});
        for (const PipelineRoute& r : e.routes) {
          for (std::size_t k = 0; k + 1 < r.path.size(); ++k) {
            const int l = DataLink(g_, image[r.path[k]], image[r.path[k + 1]]);
            if (l >= 0) res_[l] += r.multiplicity;
          }
        }
      }
    }
  }
}

// Step 3: new routes for every broken edge within the residual capacity.
bool FailureRerouter::Reroute(std::string* why) {
  const Topology& search_graph = reduce_scatter_ ? search_graph_ : g_;
  SymmetricOverrides& o = *s_.overrides;
  for (const BrokenEdge& b : broken_) {
    SymmetricRouteOverride over{b.root, b.tree, b.from, b.to, {}};
    const bool ok = RouteThroughSwitches(
        search_graph, search_, b.from, b.to, b.multiplicity, res_,
        [&](const std::vector<int>& links, const BigInt& piece) {
          for (int e : links) res_[e] -= piece;  // the transpose keeps link ids
        },
        &over.routes);
    if (!ok) {
      *why = "no path through switches with room for tree " + std::to_string(b.tree) + ", edge " +
             g_.node(b.from).name + " -> " + g_.node(b.to).name + " of root " +
             g_.node(b.root).name + " at the intact ratio " + ToString(s_.ratio) +
             " (whole-root replacements are not built)";
      return false;
    }
    o.routes.push_back(std::move(over));
  }
  return true;
}

bool FailureRerouter::Run(std::string* why, SymmetricOverridesStats* stats) {
  if (s_.stabiliser_invariant) {
    *why = "overrides need a case-1 schedule (a group acting regularly)";
    return false;
  }
  Capacities();
  FindBroken();
  s_.overrides.emplace();
  for (int l : t_.failed) {
    const Link& link = t_.intact.link(l);
    s_.overrides->failed_links.push_back({link.from, link.to, link.bandwidth, link.multiplicity});
  }
  if (!Reroute(why)) return false;
  Rational ratio = 0;
  for (int e = 0; e < g_.num_links(); ++e) {
    const Rational load(cap_[e] - res_[e]);
    ratio = std::max(ratio, load / (Rational(s_.k) * g_.link(e).bandwidth));
  }
  s_.ratio = ratio;
  stats->edges_broken += static_cast<std::int64_t>(broken_.size());
  std::vector<int> roots;
  for (const SymmetricRouteOverride& r : s_.overrides->routes) {
    stats->routes_added += static_cast<std::int64_t>(r.routes.size());
    roots.push_back(r.root);
  }
  std::sort(roots.begin(), roots.end());
  stats->roots_changed +=
      static_cast<std::int64_t>(std::unique(roots.begin(), roots.end()) - roots.begin());
  return true;
}

// Whether the only violations are certificates that no longer certify (then they are dropped).
bool OnlyCertificateFails(const PipelineCheckReport& r) {
  for (const PipelineViolation& v : r.violations) {
    if (v.kind != PipelineViolationKind::kCutMismatch) return false;
  }
  return r.num_violations == static_cast<std::int64_t>(r.violations.size());
}

void DropCertificates(SymmetricPipelineSchedule& s) {
  s.bottleneck_cut.reset();
  s.single_node_cuts.reset();
  for (SymmetricPipelineSchedule& p : s.phases) DropCertificates(p);
}

}  // namespace

SymmetricOverridesResult AddFailureOverrides(const TopologyWithFailures& t,
                                             const Topology& degraded,
                                             SymmetricPipelineSchedule intact) {
  SymmetricOverridesResult out;
  out.intact_ratio = intact.ratio;
  if (intact.collective == Collective::kAllreduce) {
    Rational total = 0;
    for (SymmetricPipelineSchedule& phase : intact.phases) {
      if (!FailureRerouter(t, degraded, phase).Run(&out.why, &out.stats)) return out;
      total += phase.ratio;
    }
    intact.ratio = total;
  } else if (!FailureRerouter(t, degraded, intact).Run(&out.why, &out.stats)) {
    return out;
  }
  // The height and the certificates as the checker finds them on G − F.
  intact.height_hops = SymmetricPipelineScheduleHeightHops(intact);
  for (SymmetricPipelineSchedule& p : intact.phases)
    p.height_hops = SymmetricPipelineScheduleHeightHops(p);
  PipelineCheckReport report = CheckSymmetricPipelineSchedule(degraded, intact, 1000);
  if (!report.ok && OnlyCertificateFails(report)) {
    DropCertificates(intact);
    report = CheckSymmetricPipelineSchedule(degraded, intact);
  }
  assert(report.ok);
  out.certified = report.ok && report.verdict == PipelineVerdict::kOptimalCertified;
  out.schedule = std::move(intact);
  return out;
}

}  // namespace collsynth
