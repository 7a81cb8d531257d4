#include "proofs_check/pipeline_checker.h"

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
};

// Tree (Def.: an out-tree spanning V_c rooted at its root, seed 004 §1.2/§2): every compute
// node but the root has exactly one parent, the root none, and all are reachable from the
// root. Routes: walks from the edge's tail to its head over existing links, switches inside;
// their multiplicities add up to the tree's. Reduce-scatter: the data flows child -> parent
// along the reversed path, whose links must exist and carry the load.
void PipelineChecker::CheckTree(std::size_t i, const PipelineTree& t) {
  const std::string item = prefix_ + "trees[" + std::to_string(i) + "]";
  const bool reversed = s_.collective == "reduce-scatter";
  if (!g_.IsCompute(t.root)) {
    out_.Add(K::kRootNotCompute, item, t.root, -1, "root '" + Name(t.root) + "' is a switch");
    return;
  }
  if (s_.collective == "broadcast" && s_.root && t.root != *s_.root) {
    out_.Add(K::kRootNotCompute, item, t.root, -1,
             "rooted at '" + Name(t.root) + "', but the broadcast root is '" + Name(*s_.root) + "'");
  }
  const int n = g_.num_nodes();
  std::vector<int> parent(n, -1);
  std::vector<std::vector<int>> children(n);
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
    } else if (parent[e.to] >= 0) {
      out_.Add(K::kExtraParent, eitem, e.to, -1,
               "node " + Name(e.to) + " has two parents (" + Name(parent[e.to]) + " and " +
                   Name(e.from) + ")");
    } else {
      parent[e.to] = e.from;
      children[e.from].push_back(e.to);
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
  std::vector<char> seen(n, 0);
  std::vector<int> stack{t.root};
  seen[t.root] = 1;
  while (!stack.empty()) {
    int u = stack.back();
    stack.pop_back();
    for (int c : children[u]) {
      if (!seen[c]) {
        seen[c] = 1;
        stack.push_back(c);
      }
    }
  }
  // An unreached node either lacks a parent, hangs below a node that lacks one, or hangs on
  // a cycle of parent pointers (each node has at most one parent). Each cause is reported once.
  std::vector<int> mark(n, -1);
  for (int v = 0; v < n; ++v) {
    if (!g_.IsCompute(v) || seen[v]) continue;
    if (parent[v] < 0) {
      out_.Add(K::kMissingNode, item, v, -1,
               "the tree rooted at " + Name(t.root) + " does not reach compute node " + Name(v) +
                   " (no edge enters it)");
      continue;
    }
    int u = v;
    mark[u] = v;
    while (parent[u] >= 0 && !seen[parent[u]] && mark[parent[u]] != v) {
      u = parent[u];
      mark[u] = v;
    }
    if (parent[u] < 0 || seen[parent[u]]) continue;  // below a parentless node (reported) or explained
    // parent[u] is on this walk: a cycle through parent[u]; report it unless already seen.
    const int start = parent[u];
    std::string cycle = Name(start);
    for (int w = parent[start];; w = parent[w]) {
      cycle = Name(w) + " -> " + cycle;
      if (w == start) break;
    }
    out_.Add(K::kCycle, item, start, -1,
             "tree edges form a cycle " + cycle + ", which the root " + Name(t.root) +
                 " does not reach");
    for (int w = v; !seen[w]; w = parent[w]) seen[w] = 1;  // nodes explained by this cycle
  }
}

void PipelineChecker::CheckRootSums() {
  std::map<int, BigInt> sum;
  for (const PipelineTree& t : s_.trees) sum[t.root] += t.multiplicity;
  std::vector<int> roots;
  if (s_.collective == "broadcast") {
    if (s_.root) roots.push_back(*s_.root);
  } else {
    roots = g_.ComputeNodes();
  }
  for (int r : roots) {
    BigInt got = sum.count(r) ? sum[r] : BigInt(0);
    if (got != s_.k) {
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
    out_.Add(K::kWrongRatio, prefix_ + "ratio", -1, -1,
             "claimed ratio " + ToString(s_.ratio) + ", but max_e load_e/(k·b_e) = " +
                 ToString(ratio));
  }
}

// The lower bounds of seed 004: (1) allgather, its transpose for reduce-scatter, (5) broadcast.
void PipelineChecker::CheckCut() {
  if (!s_.bottleneck_cut) return;
  const std::string item = prefix_ + "bottleneck_cut";
  const int n = g_.num_nodes();
  std::vector<char> in_s(n, 0);
  for (int v : *s_.bottleneck_cut) in_s[v] = 1;
  int compute_in = 0;
  for (int v = 0; v < n; ++v) compute_in += in_s[v] && g_.IsCompute(v);
  if (compute_in == 0 || compute_in == g_.num_compute()) {
    out_.Add(K::kBadCut, item, -1, -1,
             "S must contain some but not all compute nodes (it contains " +
                 std::to_string(compute_in) + " of " + std::to_string(g_.num_compute()) + ")");
    return;
  }
  if (s_.collective == "broadcast" && s_.root && !in_s[*s_.root]) {
    out_.Add(K::kBadCut, item, *s_.root, -1,
             "a broadcast cut must contain the root " + Name(*s_.root) + " (bound (5))");
    return;
  }
  const bool ingress = s_.collective == "reduce-scatter";
  Rational crossing = 0;
  for (const Link& l : g_.links()) {
    bool out_of_s = in_s[l.from] && !in_s[l.to];
    bool into_s = !in_s[l.from] && in_s[l.to];
    if (ingress ? into_s : out_of_s) crossing += l.bandwidth;
  }
  // compute_in > 0 and < N, and the topology is strongly connected in a valid schedule, but the
  // cut is checked on its own: no crossing bandwidth means no finite bound.
  if (crossing == 0) {
    out_.Add(K::kBadCut, item, -1, -1, "no bandwidth crosses the cut, so it bounds nothing");
    return;
  }
  Rational cut = s_.collective == "broadcast" ? Rational(1) / crossing : Rational(compute_in) / crossing;
  report_.cut_ratio = cut;
  report_.certified_optimal = cut == report_.ratio;
  if (!report_.certified_optimal) {
    out_.Add(K::kCutMismatch, item, -1, -1,
             std::string("the cut gives ") + (ingress ? "|S ∩ V_c| / B-(S)" : s_.collective == "broadcast"
                                                                               ? "1 / B+(S)"
                                                                               : "|S ∩ V_c| / B+(S)") +
                 " = " + ToString(cut) + ", which does not equal the ratio " +
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
  const bool broadcast = s_.collective == "broadcast";
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
  const bool leaving = s_.collective == "reduce-scatter";
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
  for (std::size_t i = 0; i < s_.trees.size(); ++i) CheckTree(i, s_.trees[i]);
  CheckRootSums();
  CheckLoads();
  CheckCut();
  CheckFixedKCut();
  report_.ok = report_.num_violations == 0;
  report_.verdict = !report_.ok ? "invalid" : report_.certified_optimal ? "optimal (certified)" : "valid";
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
    for (const PipelineViolation& v : sub.violations) out.Add(v.kind, v.item, v.node, v.link, v.message.substr(v.item.empty() ? 0 : v.item.size() + 2));
    report.num_violations += sub.num_violations - static_cast<std::int64_t>(sub.violations.size());
    report.phases.push_back(std::move(sub));
  }
  report.fixed_k_certified = !report.phases.empty();
  for (const PipelineCheckReport& p : report.phases) report.fixed_k_certified &= p.fixed_k_certified;
  report.ratio = total;
  if (s.ratio != total) {
    out.Add(K::kWrongRatio, "ratio", -1, -1,
            "claimed ratio " + ToString(s.ratio) + ", but the phases' ratios sum to " + ToString(total));
  }
  if (s.bottleneck_cut) {
    std::vector<char> in_s(g.num_nodes(), 0);
    for (int v : *s.bottleneck_cut) in_s[v] = 1;
    int compute_in = 0;
    for (int v = 0; v < g.num_nodes(); ++v) compute_in += in_s[v] && g.IsCompute(v);
    Rational crossing = 0;
    for (const Link& l : g.links()) {
      if (in_s[l.from] && !in_s[l.to]) crossing += l.bandwidth;
    }
    if (compute_in == 0 || compute_in == g.num_compute() || crossing == 0) {
      out.Add(K::kBadCut, "bottleneck_cut", -1, -1,
              "S must contain some but not all compute nodes and have egress bandwidth (bound (6))");
    } else {
      report.cut_ratio = Rational(g.num_compute()) / crossing;
      report.certified_optimal = *report.cut_ratio == total;
      if (!report.certified_optimal) {
        out.Add(K::kCutMismatch, "bottleneck_cut", -1, -1,
                "the cut gives N / B+(S) = " + ToString(*report.cut_ratio) +
                    " (bound (6)), which does not equal the ratio " + ToString(total));
      }
    }
  }
  report.ok = report.num_violations == 0;
  report.verdict = !report.ok ? "invalid" : report.certified_optimal ? "optimal (certified)" : "valid";
}

}  // namespace

const char* PipelineViolationKindName(PipelineViolationKind kind) {
  switch (kind) {
    case K::kRootNotCompute: return "root-not-compute";
    case K::kBadEdge: return "bad-edge";
    case K::kMissingNode: return "missing-node";
    case K::kExtraParent: return "extra-parent";
    case K::kCycle: return "cycle";
    case K::kBadRouteEnds: return "bad-route-ends";
    case K::kMissingLink: return "missing-link";
    case K::kRouteThroughCompute: return "route-through-compute";
    case K::kRouteMultiplicity: return "route-multiplicity";
    case K::kRootSum: return "root-sum";
    case K::kOverloaded: return "overloaded";
    case K::kWrongRatio: return "wrong-ratio";
    case K::kBadCut: return "bad-cut";
    case K::kCutMismatch: return "cut-mismatch";
    case K::kFixedKCut: return "fixed-k-cut";
  }
  return "unknown";
}

json PipelineCheckReport::ToJson() const {
  json j;
  j["ok"] = ok;
  j["format"] = "pipeline";
  j["verdict"] = verdict;
  j["tl"] = nullptr;  // a pipeline has no step count
  j["tb"] = ToString(ratio);  // T_B in units of M/N (of M for broadcast)
  j["ratio"] = ToString(ratio);
  j["cut_ratio"] = cut_ratio ? json(ToString(*cut_ratio)) : json(nullptr);
  j["certified_optimal"] = certified_optimal;
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
  if (s.collective == "allreduce") {
    CheckAllreduce(g, s, report, max_errors);
  } else {
    PipelineChecker(g, s, "", report, max_errors).Run();
  }
  return report;
}

}  // namespace collsynth
