#include "proofs_check/pipeline_checker.h"

#include <algorithm>
#include <map>
#include <utility>

namespace collsynth {
namespace {

using nlohmann::json;
using K = PipelineViolationKind;

class Collector {
 public:
  Collector(PipelineCheckReport& report, int max_errors) : report_(report), max_(max_errors) {}
  void Add(K kind, std::string item, int node, int link, const std::string& message) {
    ++report_.num_violations;
    if (static_cast<int>(report_.violations.size()) >= max_) return;
    std::string text = item.empty() ? message : item + ": " + message;
    report_.errors.push_back(text);
    report_.violations.push_back(PipelineViolation{kind, std::move(item), node, link, text});
  }
  // No room for more recorded violations: later ones are only counted.
  bool Full() const { return static_cast<int>(report_.violations.size()) >= max_; }
  // Counts violations found but not described (their messages could not be recorded).
  void AddUnrecorded(std::int64_t count) { report_.num_violations += count; }

 private:
  PipelineCheckReport& report_;
  int max_;
};

class PipelineChecker {
 public:
  PipelineChecker(const Topology& g, const PipelineSchedule& s, const std::string& prefix,
                  PipelineCheckReport& report, int max_errors)
      : g_(g), s_(s), prefix_(prefix), report_(report), out_(report, max_errors) {}

  void Run();

 private:
  std::string Name(int v) const { return g_.node(v).name; }
  std::string LinkName(int e) const {
    return "link " + Name(g_.link(e).from) + " -> " + Name(g_.link(e).to);
  }
  void CheckTree(std::size_t i, const PipelineTree& t);
  void CheckRootSums();
  void CheckLoads();
  void CheckCut();
  void CheckFixedKCut();

  const Topology& g_;
  const PipelineSchedule& s_;
  const std::string prefix_;  // "phases[0]." inside an allreduce
  PipelineCheckReport& report_;
  Collector out_;
  std::vector<BigInt> load_;  // per link: sum of the multiplicities of the routes using it
  // Per-tree scratch over the nodes, allocated once per schedule and reset only where a tree
  // touched it, so a schedule of T trees costs O(|V| + size of the trees), not O(T·|V|).
  std::vector<int> compute_nodes_;
  std::vector<int> parent_, child_head_, mark_;
  std::vector<char> seen_;
  std::vector<int> touched_;
};

// Tree (Def.: an out-tree spanning V_c rooted at its root, seed 004 §1.2/§2): every compute
// node but the root has exactly one parent, the root none, and all are reachable from the
// root. Routes: walks from the edge's tail to its head over existing links, switches inside;
// their multiplicities add up to the tree's. Reduce-scatter: the data flows child -> parent
// along the reversed path, whose links must exist and carry the load.
void PipelineChecker::CheckTree(std::size_t i, const PipelineTree& t) {
  const std::string item = prefix_ + "trees[" + std::to_string(i) + "]";
  const bool reversed = s_.collective == Collective::kReduceScatter;
  if (!g_.IsCompute(t.root)) {
    out_.Add(K::kRootNotCompute, item, t.root, -1, "root '" + Name(t.root) + "' is a switch");
    return;
  }
  if (s_.collective == Collective::kBroadcast && s_.root && t.root != *s_.root) {
    out_.Add(
        K::kRootNotCompute, item, t.root, -1,
        "rooted at '" + Name(t.root) + "', but the broadcast root is '" + Name(*s_.root) + "'");
  }
  touched_.assign(1, t.root);
  std::vector<int> next_child(t.edges.size(), -1);  // child lists threaded through the edges
  std::vector<char> accepted(t.edges.size(), 0);
  std::int64_t with_parent = 0;
  for (std::size_t j = 0; j < t.edges.size(); ++j) {
    const PipelineTreeEdge& e = t.edges[j];
    const std::string eitem = item + ".edges[" + std::to_string(j) + "]";
    if (!g_.IsCompute(e.from) || !g_.IsCompute(e.to) || e.from == e.to) {
      out_.Add(K::kBadEdge, eitem, g_.IsCompute(e.from) ? e.to : e.from, -1,
               "tree edge " + Name(e.from) + " -> " + Name(e.to) +
                   " must join two distinct compute nodes");
    } else if (e.to == t.root) {
      out_.Add(K::kExtraParent, eitem, e.to, -1,
               "edge " + Name(e.from) + " -> " + Name(e.to) + " enters the root");
    } else if (parent_[e.to] >= 0) {
      out_.Add(K::kExtraParent, eitem, e.to, -1,
               "node " + Name(e.to) + " has two parents (" + Name(parent_[e.to]) + " and " +
                   Name(e.from) + ")");
    } else {
      parent_[e.to] = e.from;
      next_child[j] = child_head_[e.from];
      child_head_[e.from] = static_cast<int>(j);
      accepted[j] = 1;
      ++with_parent;
      touched_.push_back(e.to);
      touched_.push_back(e.from);
    }
    // Routes.
    BigInt sum = 0;
    for (std::size_t k = 0; k < e.routes.size(); ++k) {
      const PipelineRoute& r = e.routes[k];
      const std::string ritem = eitem + ".routes[" + std::to_string(k) + "]";
      sum += r.multiplicity;
      if (r.path.size() < 2 || r.path.front() != e.from || r.path.back() != e.to) {
        out_.Add(K::kBadRouteEnds, ritem, -1, -1,
                 "path must run from " + Name(e.from) + " to " + Name(e.to));
        continue;
      }
      bool path_ok = true;
      for (std::size_t q = 1; q + 1 < r.path.size(); ++q) {
        if (g_.IsCompute(r.path[q])) {
          out_.Add(K::kRouteThroughCompute, ritem, r.path[q], -1,
                   "path passes through compute node " + Name(r.path[q]) +
                       " (only switches may be inside a route)");
          path_ok = false;
        }
      }
      std::vector<int> links;
      for (std::size_t q = 0; q + 1 < r.path.size(); ++q) {
        int a = r.path[q], b = r.path[q + 1];
        if (reversed) std::swap(a, b);
        auto l = g_.FindLink(a, b);
        if (!l) {
          out_.Add(K::kMissingLink, ritem, a, -1,
                   "path uses link " + Name(a) + " -> " + Name(b) +
                       ", which the topology does not have" +
                       (reversed ? " (reduce-scatter data flows along the reversed path)" : ""));
          path_ok = false;
        } else {
          links.push_back(*l);
        }
      }
      if (path_ok) {
        for (int l : links) load_[l] += r.multiplicity;
      }
    }
    if (sum != t.multiplicity) {
      out_.Add(K::kRouteMultiplicity, eitem, -1, -1,
               "route multiplicities sum to " + sum.str() + ", but the tree's multiplicity is " +
                   t.multiplicity.str());
    }
  }
  // Reachability from the root (plain DFS over the child lists).
  std::vector<int> stack{t.root};
  seen_[t.root] = 1;
  while (!stack.empty()) {
    int u = stack.back();
    stack.pop_back();
    for (int j = child_head_[u]; j >= 0; j = next_child[j]) {
      const int c = t.edges[j].to;
      if (!seen_[c]) {
        seen_[c] = 1;
        stack.push_back(c);
      }
    }
  }
  // Compute nodes no edge enters, in id order: N-1-with_parent of them. Only those that can
  // be recorded are looked for (the scan meets at most |edges|+1 nodes with a parent or the
  // root first), the rest are counted, so a tree with few edges costs O(edges), not O(N).
  std::int64_t parentless = static_cast<std::int64_t>(compute_nodes_.size()) - 1 - with_parent;
  for (std::size_t c = 0; c < compute_nodes_.size() && parentless > 0 && !out_.Full(); ++c) {
    const int v = compute_nodes_[c];
    if (v == t.root || parent_[v] >= 0) continue;
    out_.Add(K::kMissingNode, item, v, -1,
             "the tree rooted at " + Name(t.root) + " does not reach compute node " + Name(v) +
                 " (no edge enters it)");
    --parentless;
  }
  out_.AddUnrecorded(parentless);
  // Unreached nodes that have a parent hang below a parentless node (reported above) or on a
  // cycle of parent pointers (each node has at most one parent). Each walk stops at a node
  // explained before, and explains the nodes it passes: O(edges) in all.
  for (std::size_t j = 0; j < t.edges.size(); ++j) {
    if (!accepted[j]) continue;
    const int v = t.edges[j].to;
    if (seen_[v]) continue;
    int u = v;
    mark_[u] = v;
    while (parent_[u] >= 0 && !seen_[parent_[u]] && mark_[parent_[u]] != v) {
      u = parent_[u];
      mark_[u] = v;
    }
    if (parent_[u] >= 0 && !seen_[parent_[u]]) {
      // parent_[u] is on this walk: a cycle through it.
      const int start = parent_[u];
      std::string cycle = Name(start);
      for (int w = parent_[start];; w = parent_[w]) {
        cycle = Name(w) + " -> " + cycle;
        if (w == start) break;
      }
      out_.Add(K::kCycle, item, start, -1,
               "tree edges form a cycle " + cycle + ", which the root " + Name(t.root) +
                   " does not reach");
    }
    for (int w = v; !seen_[w];) {  // explained: below a parentless node or on/below the cycle
      seen_[w] = 1;
      if (parent_[w] < 0) break;
      w = parent_[w];
    }
  }
  for (int v : touched_) {
    parent_[v] = -1;
    child_head_[v] = -1;
    mark_[v] = -1;
    seen_[v] = 0;
  }
}

void PipelineChecker::CheckRootSums() {
  std::map<int, BigInt> sum;
  for (const PipelineTree& t : s_.trees) sum[t.root] += t.multiplicity;
  std::vector<int> roots;
  if (s_.collective == Collective::kBroadcast) {
    if (s_.root) roots.push_back(*s_.root);
  } else {
    roots = compute_nodes_;
  }
  for (int r : roots) {
    BigInt got = sum.count(r) ? sum[r] : BigInt(0);
    if (got != s_.k && out_.Full()) {
      out_.AddUnrecorded(1);  // no message built for a violation that cannot be recorded
    } else if (got != s_.k) {
      out_.Add(K::kRootSum, prefix_ + "trees", r, -1,
               "the trees rooted at " + Name(r) + " have total multiplicity " + got.str() +
                   ", but k = " + s_.k.str());
    }
  }
}

// load_e <= U·b_e for every link; ratio = max_e load_e / (k·b_e) (seed 004 Thm 13).
void PipelineChecker::CheckLoads() {
  Rational ratio = 0;
  for (int e = 0; e < g_.num_links(); ++e) {
    if (load_[e] == 0) continue;
    const Rational& b = g_.link(e).bandwidth;
    Rational load(load_[e]);
    if (load > s_.U * b) {
      out_.Add(K::kOverloaded, LinkName(e), g_.link(e).from, e,
               "load " + load_[e].str() + " exceeds U·b_e = " + ToString(s_.U) + " · " +
                   ToString(b) + " = " + ToString(s_.U * b));
    }
    Rational r = load / (Rational(s_.k) * b);
    if (r > ratio) ratio = r;
  }
  report_.ratio = ratio;
  if (s_.ratio != ratio) {
    out_.Add(
        K::kWrongRatio, prefix_ + "ratio", -1, -1,
        "claimed ratio " + ToString(s_.ratio) + ", but max_e load_e/(k·b_e) = " + ToString(ratio));
  }
}

// The lower bounds of seed 004: (1) allgather, its transpose for reduce-scatter, (5) broadcast.
void PipelineChecker::CheckCut() {
  if (!s_.bottleneck_cut) return;
  const std::string item = prefix_ + "bottleneck_cut";
  const CutBound b = CheckCutBound(g_, s_.collective, *s_.bottleneck_cut, s_.root);
  if (!b.ok) {
    out_.Add(K::kBadCut, item, -1, -1, b.error);
    return;
  }
  report_.cut_ratio = b.bound;
  report_.certified_optimal = b.bound == report_.ratio;
  if (report_.certified_optimal) report_.certified_by = b.name;
  if (!report_.certified_optimal) {
    const bool ingress = s_.collective == Collective::kReduceScatter;
    out_.Add(K::kCutMismatch, item, -1, -1,
             std::string("the cut gives ") +
                 (ingress                                   ? "|S ∩ V_c| / B-(S)"
                  : s_.collective == Collective::kBroadcast ? "1 / B+(S)"
                                                            : "|S ∩ V_c| / B+(S)") +
                 " = " + ToString(b.bound) + ", which does not equal the ratio " +
                 ToString(report_.ratio) + ": the optimality certificate fails");
  }
}

// The fixed-k lower bound (header comment): X must hold a compute node and leave some tree
// root outside, and its crossing ⌊U'·b_e⌋ capacity must be below the trees that must cross.
void PipelineChecker::CheckFixedKCut() {
  if (!s_.fixed_k_cut) return;
  const std::string item = prefix_ + "fixed_k_cut";
  std::vector<char> in_x(g_.num_nodes(), 0);
  for (int v : *s_.fixed_k_cut) in_x[v] = 1;
  int compute_in = 0;
  for (int v = 0; v < g_.num_nodes(); ++v) compute_in += in_x[v] && g_.IsCompute(v);
  const bool broadcast = s_.collective == Collective::kBroadcast;
  BigInt roots_outside = 0;
  if (broadcast) {
    roots_outside = s_.root && !in_x[*s_.root] ? 1 : 0;
  } else {
    roots_outside = g_.num_compute() - compute_in;
  }
  if (compute_in == 0 || roots_outside == 0 || report_.ratio <= 0) {
    out_.Add(K::kFixedKCut, item, -1, -1,
             "X must contain a compute node and leave a tree root outside (it contains " +
                 std::to_string(compute_in) + " of " + std::to_string(g_.num_compute()) +
                 " compute nodes" + (broadcast ? ", and the root must be outside" : "") + ")");
    return;
  }
  const Rational u = report_.ratio * Rational(s_.k);  // the U this schedule achieves
  Rational below = 0;  // the largest U' < u with some U'·b_e integral
  for (const Link& l : g_.links()) {
    Rational prev = Rational(Ceil(u * l.bandwidth) - 1) / l.bandwidth;
    if (prev > below) below = prev;
  }
  const bool leaving = s_.collective == Collective::kReduceScatter;
  BigInt capacity = 0;
  for (const Link& l : g_.links()) {
    bool enters = !in_x[l.from] && in_x[l.to];
    bool leaves = in_x[l.from] && !in_x[l.to];
    if (leaving ? leaves : enters) capacity += Floor(below * l.bandwidth);
  }
  const BigInt needed = roots_outside * s_.k;
  report_.fixed_k_certified = capacity < needed;
  if (!report_.fixed_k_certified) {
    out_.Add(K::kFixedKCut, item, -1, -1,
             std::string("at U' = ") + ToString(below) + " the links " +
                 (leaving ? "leaving" : "entering") + " X carry " + capacity.str() +
                 " units, not fewer than the " + needed.str() +
                 " trees that must cross: the fixed-k certificate fails");
  }
}

void PipelineChecker::Run() {
  load_.assign(g_.num_links(), BigInt(0));
  compute_nodes_ = g_.ComputeNodes();
  parent_.assign(g_.num_nodes(), -1);
  child_head_.assign(g_.num_nodes(), -1);
  mark_.assign(g_.num_nodes(), -1);
  seen_.assign(g_.num_nodes(), 0);
  for (std::size_t i = 0; i < s_.trees.size(); ++i) CheckTree(i, s_.trees[i]);
  CheckRootSums();
  CheckLoads();
  CheckCut();
  CheckFixedKCut();
  report_.ok = report_.num_violations == 0;
  report_.verdict = !report_.ok                 ? PipelineVerdict::kInvalid
                    : report_.certified_optimal ? PipelineVerdict::kOptimalCertified
                                                : PipelineVerdict::kValid;
}

// Allreduce (seed 004 App. B): reduce-scatter then allgather; ratio = the sum; an optional
// top-level cut certifies against bound (6): T_B >= M / B+(S), i.e. N / B+(S) in M/N units.
void CheckAllreduce(const Topology& g, const PipelineSchedule& s, PipelineCheckReport& report,
                    int max_errors) {
  Collector out(report, max_errors);
  Rational total = 0;
  bool phases_ok = true;
  for (std::size_t i = 0; i < s.phases.size(); ++i) {
    PipelineCheckReport sub;
    PipelineChecker(g, s.phases[i], "phases[" + std::to_string(i) + "].", sub, max_errors).Run();
    total += sub.ratio;
    phases_ok = phases_ok && sub.ok;
    for (const PipelineViolation& v : sub.violations)
      out.Add(v.kind, v.item, v.node, v.link,
              v.message.substr(v.item.empty() ? 0 : v.item.size() + 2));
    report.num_violations += sub.num_violations - static_cast<std::int64_t>(sub.violations.size());
    report.phases.push_back(std::move(sub));
  }
  report.fixed_k_certified = !report.phases.empty();
  for (const PipelineCheckReport& p : report.phases)
    report.fixed_k_certified &= p.fixed_k_certified;
  report.ratio = total;
  if (s.ratio != total) {
    out.Add(K::kWrongRatio, "ratio", -1, -1,
            "claimed ratio " + ToString(s.ratio) + ", but the phases' ratios sum to " +
                ToString(total));
  }
  // Lower bounds (6) and (7); the certificate is their maximum (each is a valid bound).
  std::vector<CutBound> bounds;
  if (s.bottleneck_cut) {
    CutBound b = CheckCutBound(g, Collective::kAllreduce, *s.bottleneck_cut);
    if (!b.ok) {
      out.Add(K::kBadCut, "bottleneck_cut", -1, -1, b.error);
    } else {
      bounds.push_back(std::move(b));
    }
  }
  if (s.single_node_cuts) {
    CutBound b = CheckSingleNodeCutsBound(g, *s.single_node_cuts);
    if (!b.ok) {
      out.Add(K::kBadCut, "single_node_cuts", -1, -1, b.error);
    } else {
      bounds.push_back(std::move(b));
    }
  }
  if (!bounds.empty()) {
    Rational best = bounds[0].bound;
    for (const CutBound& b : bounds) best = std::max(best, b.bound);
    report.cut_ratio = best;
    report.certified_optimal = best == total;
    std::string names, values;
    for (const CutBound& b : bounds) {
      values += (values.empty() ? "" : ", ") + b.name + " = " + ToString(b.bound);
      if (b.bound == total)
        names += (names.empty() ? "" : " and ") + b.name.substr(b.name.find('('));
    }
    if (report.certified_optimal) {
      report.certified_by =
          (names.find(" and ") != std::string::npos ? "bounds " : "bound ") + names;
    } else {
      out.Add(K::kCutMismatch, s.bottleneck_cut ? "bottleneck_cut" : "single_node_cuts", -1, -1,
              "the certificate gives " + values +
                  " (N / B+(S) for (6), 2(N-1) / max_v B+(S_v) "
                  "for (7)), whose maximum does not equal the ratio " +
                  ToString(total));
    }
  }
  report.ok = report.num_violations == 0;
  report.verdict = !report.ok                 ? PipelineVerdict::kInvalid
                   : report.certified_optimal ? PipelineVerdict::kOptimalCertified
                                              : PipelineVerdict::kValid;
}

}  // namespace

CutBound CheckCutBound(const Topology& g, Collective collective, const std::vector<int>& cut,
                       std::optional<int> root) {
  CutBound b;
  const bool allreduce = collective == Collective::kAllreduce,
             broadcast = collective == Collective::kBroadcast;
  const bool ingress = collective == Collective::kReduceScatter;
  b.name = allreduce   ? "bound (6)"
           : broadcast ? "bound (5)"
           : ingress   ? "bound (1) on G^T"
                       : "bound (1)";
  const int n = g.num_nodes();
  std::vector<char> in_s(n, 0);
  for (int v : cut) in_s[v] = 1;
  int compute_in = 0;
  for (int v = 0; v < n; ++v) compute_in += in_s[v] && g.IsCompute(v);
  if (compute_in == 0 || compute_in == g.num_compute()) {
    b.error = "S must contain some but not all compute nodes (it contains " +
              std::to_string(compute_in) + " of " + std::to_string(g.num_compute()) + ")" +
              (allreduce ? " (bound (6))" : "");
    return b;
  }
  if (broadcast && root && !in_s[*root]) {
    b.error = "a broadcast cut must contain the root " + g.node(*root).name + " (bound (5))";
    return b;
  }
  Rational crossing = 0;
  for (const Link& l : g.links()) {
    const bool out_of_s = in_s[l.from] && !in_s[l.to];
    const bool into_s = !in_s[l.from] && in_s[l.to];
    if (ingress ? into_s : out_of_s) crossing += l.bandwidth;
  }
  // No crossing bandwidth (a topology that is not strongly connected): no finite bound.
  if (crossing == 0) {
    b.error = "no bandwidth crosses the cut, so it bounds nothing";
    return b;
  }
  b.bound = broadcast ? Rational(1) / crossing
                      : Rational(allreduce ? g.num_compute() : compute_in) / crossing;
  b.ok = true;
  return b;
}

CutBound CheckSingleNodeCutsBound(const Topology& g, const std::vector<std::vector<int>>& cuts) {
  CutBound b;
  b.name = "bound (7)";
  const int n = g.num_nodes();
  const int num_compute = g.num_compute();
  if (num_compute < 2) {
    b.error = "bound (7) needs at least two compute nodes";
    return b;
  }
  if (cuts.size() != static_cast<std::size_t>(num_compute)) {
    b.error = "bound (7) needs one set S_v per compute node (" + std::to_string(num_compute) +
              "), got " + std::to_string(cuts.size());
    return b;
  }
  std::vector<int> owner(n, -1);  // compute node v -> index of its S_v
  std::vector<char> in_s(n, 0);
  Rational max_crossing = 0;
  for (std::size_t c = 0; c < cuts.size(); ++c) {
    const std::string item = "single_node_cuts[" + std::to_string(c) + "]";
    int compute = -1, compute_count = 0;
    for (int v : cuts[c]) {
      if (in_s[v]) continue;  // a node listed twice counts once
      in_s[v] = 1;
      if (g.IsCompute(v)) {
        ++compute_count;
        compute = v;
      }
    }
    Rational crossing = 0;
    if (compute_count == 1) {
      for (int v : cuts[c]) {
        if (in_s[v] != 1) continue;  // counted already (listed twice)
        for (int e : g.OutLinks(v)) {
          if (!in_s[g.link(e).to]) crossing += g.link(e).bandwidth;
        }
        in_s[v] = 2;  // its out-links are counted; the mark stays "in S"
      }
    }
    for (int v : cuts[c]) in_s[v] = 0;
    if (compute_count != 1) {
      b.error = item + ": S_v must hold exactly one compute node, it holds " +
                std::to_string(compute_count);
      return b;
    }
    if (owner[compute] >= 0) {
      b.error = item + ": compute node " + g.node(compute).name +
                " already has its set (single_node_cuts[" + std::to_string(owner[compute]) + "])";
      return b;
    }
    owner[compute] = static_cast<int>(c);
    max_crossing = std::max(max_crossing, crossing);
  }
  // Every compute node has its set (N sets, no compute node twice).
  if (max_crossing == 0) {
    b.error = "no bandwidth leaves any S_v, so the sets bound nothing";
    return b;
  }
  b.bound = Rational(2 * static_cast<std::int64_t>(num_compute - 1)) / max_crossing;
  b.ok = true;
  return b;
}

const char* PipelineViolationKindName(PipelineViolationKind kind) {
  switch (kind) {
    case K::kRootNotCompute:
      return "root-not-compute";
    case K::kBadEdge:
      return "bad-edge";
    case K::kMissingNode:
      return "missing-node";
    case K::kExtraParent:
      return "extra-parent";
    case K::kCycle:
      return "cycle";
    case K::kBadRouteEnds:
      return "bad-route-ends";
    case K::kMissingLink:
      return "missing-link";
    case K::kRouteThroughCompute:
      return "route-through-compute";
    case K::kRouteMultiplicity:
      return "route-multiplicity";
    case K::kRootSum:
      return "root-sum";
    case K::kOverloaded:
      return "overloaded";
    case K::kWrongRatio:
      return "wrong-ratio";
    case K::kBadCut:
      return "bad-cut";
    case K::kCutMismatch:
      return "cut-mismatch";
    case K::kFixedKCut:
      return "fixed-k-cut";
  }
  return "unknown";
}

const char* PipelineVerdictName(PipelineVerdict v) {
  switch (v) {
    case PipelineVerdict::kInvalid:
      return "invalid";
    case PipelineVerdict::kValid:
      return "valid";
    case PipelineVerdict::kOptimalCertified:
      return "optimal (certified)";
  }
  return "?";  // not reached: every enumerator is listed
}

json PipelineCheckReport::ToJson() const {
  json j;
  j["ok"] = ok;
  j["format"] = "pipeline";
  j["verdict"] = PipelineVerdictName(verdict);
  j["tl"] = nullptr;          // a pipeline has no step count
  j["tb"] = ToString(ratio);  // T_B in units of M/N (of M for broadcast)
  j["ratio"] = ToString(ratio);
  j["cut_ratio"] = cut_ratio ? json(ToString(*cut_ratio)) : json(nullptr);
  j["certified_optimal"] = certified_optimal;
  j["certified_by"] = certified_by.empty() ? json(nullptr) : json(certified_by);
  j["fixed_k_certified"] = fixed_k_certified;
  j["errors"] = errors;
  j["num_violations"] = num_violations;
  json kinds = json::array();
  for (const PipelineViolation& v : violations) kinds.push_back(PipelineViolationKindName(v.kind));
  j["error_kinds"] = std::move(kinds);
  if (!phases.empty()) {
    json ph = json::array();
    for (const PipelineCheckReport& p : phases) ph.push_back(p.ToJson());
    j["phases"] = std::move(ph);
  }
  return j;
}

PipelineCheckReport CheckPipelineSchedule(const Topology& g, const PipelineSchedule& s,
                                          int max_errors) {
  PipelineCheckReport report;
  if (s.collective == Collective::kAllreduce) {
    CheckAllreduce(g, s, report, max_errors);
  } else {
    PipelineChecker(g, s, "", report, max_errors).Run();
  }
  return report;
}

}  // namespace collsynth
