#include "proofs_check/pipeline_check_parts.h"

#include <algorithm>
#include <utility>

namespace collsynth {

using K = PipelineViolationKind;

void PipelineViolationCollector::Add(PipelineViolationKind kind, std::string item, int node,
                                     int link, const std::string& message) {
  ++report_.num_violations;
  if (static_cast<int>(report_.violations.size()) >= max_) return;
  std::string text = item.empty() ? message : item + ": " + message;
  report_.errors.push_back(text);
  report_.violations.push_back(PipelineViolation{kind, std::move(item), node, link, text});
}

PipelineTreeChecker::PipelineTreeChecker(const Topology& g, Collective collective,
                                         std::optional<int> broadcast_root,
                                         PipelineViolationCollector& out)
    : g_(g),
      collective_(collective),
      broadcast_root_(broadcast_root),
      out_(out),
      compute_nodes_(g.ComputeNodes()),
      parent_(g.num_nodes(), -1),
      child_head_(g.num_nodes(), -1),
      mark_(g.num_nodes(), -1),
      depth_(g.num_nodes(), 0),
      seen_(g.num_nodes(), 0) {}

// Tree (Def.: an out-tree spanning V_c rooted at its root, seed 004 §1.2/§2): every compute
// node but the root has exactly one parent, the root none, and all are reachable from the
// root. Routes: walks from the edge's tail to its head over existing links, switches inside;
// their multiplicities add up to the tree's. Reduce-scatter: the data flows child -> parent
// along the reversed path, whose links must exist and carry the load.
void PipelineTreeChecker::Check(const std::string& item, const PipelineTree& t,
                                std::vector<BigInt>& load, const BigInt& weight) {
  const bool reversed = collective_ == Collective::kReduceScatter;
  const bool unit_weight = weight == 1;
  if (!g_.IsCompute(t.root)) {
    out_.Add(K::kRootNotCompute, item, t.root, -1, "root '" + Name(t.root) + "' is a switch");
    return;
  }
  if (collective_ == Collective::kBroadcast && broadcast_root_ && t.root != *broadcast_root_) {
    out_.Add(K::kRootNotCompute, item, t.root, -1,
             "rooted at '" + Name(t.root) + "', but the broadcast root is '" +
                 Name(*broadcast_root_) + "'");
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
        if (unit_weight) {
          for (int l : links) load[l] += r.multiplicity;
        } else {
          const BigInt weighted = r.multiplicity * weight;
          for (int l : links) load[l] += weighted;
        }
      }
    }
    if (sum != t.multiplicity) {
      out_.Add(K::kRouteMultiplicity, eitem, -1, -1,
               "route multiplicities sum to " + sum.str() + ", but the tree's multiplicity is " +
                   t.multiplicity.str());
    }
  }
  // Reachability from the root (plain DFS over the child lists), and the height: a node's
  // depth is its parent's plus the links of its edge's longest route.
  std::vector<int> stack{t.root};
  seen_[t.root] = 1;
  depth_[t.root] = 0;
  height_ = 0;
  while (!stack.empty()) {
    int u = stack.back();
    stack.pop_back();
    for (int j = child_head_[u]; j >= 0; j = next_child[j]) {
      const int c = t.edges[j].to;
      if (!seen_[c]) {
        seen_[c] = 1;
        std::int64_t links = 0;  // the edge's longest route
        for (const PipelineRoute& r : t.edges[j].routes)
          links = std::max(links, static_cast<std::int64_t>(r.path.size()) - 1);
        depth_[c] = depth_[u] + links;
        height_ = std::max(height_, depth_[c]);
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

void CheckPipelineBottleneckCut(const Topology& g, Collective collective,
                                const std::vector<int>& cut, std::optional<int> root,
                                const std::string& item, PipelineCheckReport& report,
                                PipelineViolationCollector& out) {
  const CutBound b = CheckCutBound(g, collective, cut, root);
  if (!b.ok) {
    out.Add(K::kBadCut, item, -1, -1, b.error);
    return;
  }
  report.cut_ratio = b.bound;
  report.certified_optimal = b.bound == report.ratio;
  if (report.certified_optimal) report.certified_by = b.name;
  if (!report.certified_optimal) {
    const bool ingress = collective == Collective::kReduceScatter;
    out.Add(K::kCutMismatch, item, -1, -1,
            std::string("the cut gives ") +
                (ingress                                ? "|S ∩ V_c| / B-(S)"
                 : collective == Collective::kBroadcast ? "1 / B+(S)"
                                                        : "|S ∩ V_c| / B+(S)") +
                " = " + ToString(b.bound) + ", which does not equal the ratio " +
                ToString(report.ratio) + ": the optimality certificate fails");
  }
}

void AddAllreducePhase(PipelineCheckReport sub, PipelineCheckReport& report,
                       PipelineViolationCollector& out) {
  for (const PipelineViolation& v : sub.violations)
    out.Add(v.kind, v.item, v.node, v.link,
            v.message.substr(v.item.empty() ? 0 : v.item.size() + 2));
  report.num_violations += sub.num_violations - static_cast<std::int64_t>(sub.violations.size());
  report.phases.push_back(std::move(sub));
}

Rational CheckAllreducePhases(
    std::size_t num_phases,
    const std::function<void(std::size_t, const std::string&, PipelineCheckReport&)>& check_phase,
    PipelineCheckReport& report, PipelineViolationCollector& out) {
  Rational total = 0;
  for (std::size_t i = 0; i < num_phases; ++i) {
    PipelineCheckReport sub;
    check_phase(i, "phases[" + std::to_string(i) + "].", sub);
    total += sub.ratio;
    AddAllreducePhase(std::move(sub), report, out);
  }
  return total;
}

void FinishAllreduceCheck(const Topology& g, const Rational& claimed_ratio,
                          const std::optional<std::int64_t>& claimed_height,
                          const std::optional<std::vector<int>>& cut,
                          const std::optional<std::vector<std::vector<int>>>& single_node_cuts,
                          const Rational& total, PipelineCheckReport& report,
                          PipelineViolationCollector& out) {
  report.ratio = total;
  if (claimed_ratio != total) {
    out.Add(K::kWrongRatio, "ratio", -1, -1,
            "claimed ratio " + ToString(claimed_ratio) + ", but the phases' ratios sum to " +
                ToString(total));
  }
  std::int64_t height = 0;
  report.height_lower_bound_hops = 0;
  for (const PipelineCheckReport& p : report.phases) {
    height += p.height_hops;
    report.height_lower_bound_hops += p.height_lower_bound_hops;
  }
  CheckPipelineHeight(claimed_height, height, "height_hops", report, out);
  CheckAllreduceCertificate(g, cut, single_node_cuts, total, report, out);
  SetPipelineVerdict(report);
}

// Lower bounds (6) and (7); the certificate is their maximum (each is a valid bound).
void CheckAllreduceCertificate(const Topology& g, const std::optional<std::vector<int>>& cut,
                               const std::optional<std::vector<std::vector<int>>>& single_node_cuts,
                               const Rational& total, PipelineCheckReport& report,
                               PipelineViolationCollector& out) {
  std::vector<CutBound> bounds;
  if (cut) {
    CutBound b = CheckCutBound(g, Collective::kAllreduce, *cut);
    if (!b.ok) {
      out.Add(K::kBadCut, "bottleneck_cut", -1, -1, b.error);
    } else {
      bounds.push_back(std::move(b));
    }
  }
  if (single_node_cuts) {
    CutBound b = CheckSingleNodeCutsBound(g, *single_node_cuts);
    if (!b.ok) {
      out.Add(K::kBadCut, "single_node_cuts", -1, -1, b.error);
    } else {
      bounds.push_back(std::move(b));
    }
  }
  if (bounds.empty()) return;
  Rational best = bounds[0].bound;
  for (const CutBound& b : bounds) best = std::max(best, b.bound);
  report.cut_ratio = best;
  report.certified_optimal = best == total;
  std::string names, values;
  for (const CutBound& b : bounds) {
    values += (values.empty() ? "" : ", ") + b.name + " = " + ToString(b.bound);
    if (b.bound == total) names += (names.empty() ? "" : " and ") + b.name.substr(b.name.find('('));
  }
  if (report.certified_optimal) {
    report.certified_by = (names.find(" and ") != std::string::npos ? "bounds " : "bound ") + names;
  } else {
    out.Add(K::kCutMismatch, cut ? "bottleneck_cut" : "single_node_cuts", -1, -1,
            "the certificate gives " + values +
                " (N / B+(S) for (6), 2(N-1) / max_v B+(S_v) "
                "for (7)), whose maximum does not equal the ratio " +
                ToString(total));
  }
}

void CheckPipelineHeight(const std::optional<std::int64_t>& claimed, std::int64_t measured,
                         const std::string& item, PipelineCheckReport& report,
                         PipelineViolationCollector& out) {
  report.height_hops = measured;
  if (claimed && *claimed != measured) {
    out.Add(K::kWrongHeight, item, -1, -1,
            "claimed height " + std::to_string(*claimed) + ", but the trees' routes reach " +
                std::to_string(measured) + " links deep");
  }
}

void SetPipelineVerdict(PipelineCheckReport& report) {
  report.ok = report.num_violations == 0;
  report.verdict = !report.ok                 ? PipelineVerdict::kInvalid
                   : report.certified_optimal ? PipelineVerdict::kOptimalCertified
                                              : PipelineVerdict::kValid;
}

}  // namespace collsynth
