#include "proofs_check/symmetric_overrides_check.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

namespace collsynth {
namespace {

using K = PipelineViolationKind;

class OverridesChecker {
 public:
  OverridesChecker(const SymmetricPartLoads& p, std::string prefix, PipelineViolationCollector& out)
      : p_(p), s_(p.s), o_(*p.s.overrides), prefix_(std::move(prefix)), out_(out) {}
  OverridesOutcome Run();

 private:
  std::string Name(int v) const { return "'" + p_.g.node(v).name + "'"; }
  // The link a route step x -> y loads in t: x -> y, or y -> x for reduce-scatter (data flows
  // child -> parent along the reversed path).
  std::optional<int> StepLink(const Topology& t, int x, int y) const {
    return s_.collective == Collective::kReduceScatter ? t.FindLink(y, x) : t.FindLink(x, y);
  }
  void AddImage(std::size_t entry, const PipelineRoute& r, const BigInt& amount);
  void SubtractImages(std::size_t entry, const PipelineTree& t);
  const PipelineTreeEdge* RepEdge(int rep, std::size_t tree, int child);
  bool NewRoutes(const std::string& item, int u, int v, const std::vector<PipelineRoute>& routes,
                 const BigInt& multiplicity, std::int64_t* longest);
  void RouteOverride(std::size_t i);
  void Replacement(std::size_t i, PipelineTreeChecker& trees);
  std::int64_t ChangedTreeHeight(int rep, std::size_t tree, const std::map<int, std::int64_t>& len);
  void Heights(OverridesOutcome* outcome);
  void Loads(OverridesOutcome* outcome);

  const SymmetricPartLoads& p_;
  const SymmetricPipelineSchedule& s_;
  const SymmetricOverrides& o_;
  const std::string prefix_;
  PipelineViolationCollector& out_;
  std::map<int, BigInt> delta_;          // per link of G': the overrides' change
  std::vector<BigInt> replaced_load_;    // per link of g: the replaced roots' trees
  std::map<int, std::size_t> replaced_;  // replaced root -> its index in replaced_roots
  std::set<std::tuple<int, std::size_t, int, int>> seen_;
  // (root, tree) -> (child in the representative's tree -> links of the new longest route).
  std::map<std::pair<int, std::size_t>, std::map<int, std::int64_t>> changed_;
  std::map<std::pair<int, std::size_t>, std::map<int, const PipelineTreeEdge*>> child_edge_;
  std::int64_t replaced_height_ = 0;
  std::vector<int> up_;  // ChangedTreeHeight's arrays over the nodes
  std::vector<std::int64_t> links_, depth_;
};

void OverridesChecker::AddImage(std::size_t entry, const PipelineRoute& r, const BigInt& amount) {
  for (std::size_t i = 0; i + 1 < r.path.size(); ++i) {
    const int x = p_.apply(entry, r.path[i], false), y = p_.apply(entry, r.path[i + 1], false);
    // The symmetric part's routes are links of G' (checked there) and g_s an automorphism of it.
    if (std::optional<int> e = StepLink(p_.restored, x, y)) delta_[*e] += amount;
  }
}

void OverridesChecker::SubtractImages(std::size_t entry, const PipelineTree& t) {
  for (const PipelineTreeEdge& e : t.edges) {
    for (const PipelineRoute& r : e.routes) AddImage(entry, r, -r.multiplicity);
  }
}

// The edge of the representative's tree whose head is `child` (a tree gives every node but its
// root one parent: checked on the symmetric part), or nullptr.
const PipelineTreeEdge* OverridesChecker::RepEdge(int rep, std::size_t tree, int child) {
  auto [it, fresh] = child_edge_.try_emplace({rep, tree});
  if (fresh) {
    for (const PipelineTreeEdge& e : s_.representatives[rep].trees[tree].edges)
      it->second.emplace(e.to, &e);
  }
  auto e = it->second.find(child);
  return e == it->second.end() ? nullptr : e->second;
}

// The new routes of an edge u -> v: walks from u to v over links of g with switches inside,
// multiplicities summing to the tree's; their loads are added.
bool OverridesChecker::NewRoutes(const std::string& item, int u, int v,
                                 const std::vector<PipelineRoute>& routes,
                                 const BigInt& multiplicity, std::int64_t* longest) {
  BigInt sum = 0;
  bool ok = true;
  for (std::size_t k = 0; k < routes.size(); ++k) {
    const PipelineRoute& r = routes[k];
    const std::string ritem = item + ".routes[" + std::to_string(k) + "]";
    sum += r.multiplicity;
    if (r.path.front() != u || r.path.back() != v) {
      out_.Add(K::kBadRouteEnds, ritem, r.path.front(), -1,
               "the route must run from " + Name(u) + " to " + Name(v));
      ok = false;
      continue;
    }
    std::vector<int> links;
    for (std::size_t i = 0; i + 1 < r.path.size(); ++i) {
      if (i > 0 && p_.g.IsCompute(r.path[i])) {
        out_.Add(K::kRouteThroughCompute, ritem, r.path[i], -1,
                 "compute node " + Name(r.path[i]) + " inside a route (only switches)");
        ok = false;
        break;
      }
      std::optional<int> e = StepLink(p_.g, r.path[i], r.path[i + 1]);
      if (!e) {
        out_.Add(K::kMissingLink, ritem, r.path[i], -1,
                 "the step " + Name(r.path[i]) + " -> " + Name(r.path[i + 1]) +
                     " is not a link of the topology (failed links are not)");
        ok = false;
        break;
      }
      links.push_back(*e);
    }
    if (links.size() + 1 != r.path.size()) continue;
    for (int e : links) delta_[e] += r.multiplicity;
    *longest = std::max(*longest, static_cast<std::int64_t>(links.size()));
  }
  if (sum != multiplicity) {
    out_.Add(
        K::kRouteMultiplicity, item, v, -1,
        "the routes' multiplicities sum to " + sum.str() + ", the tree's is " + multiplicity.str());
    ok = false;
  }
  return ok;
}

void OverridesChecker::RouteOverride(std::size_t i) {
  const SymmetricRouteOverride& o = o_.routes[i];
  const std::string item = prefix_ + "overrides.routes[" + std::to_string(i) + "]";
  const int entry = p_.entry[o.root];
  if (entry < 0) return;  // a root the symmetric part reported
  const int rep = s_.roots[entry].representative;
  auto bad = [&](const std::string& what) { out_.Add(K::kBadOverride, item, o.root, -1, what); };
  if (replaced_.count(o.root)) return bad(Name(o.root) + " is also a replaced root");
  if (!seen_.insert({o.root, o.tree, o.from, o.to}).second) {
    return bad("the edge " + Name(o.from) + " -> " + Name(o.to) + " of tree " +
               std::to_string(o.tree) + " of " + Name(o.root) + " is overridden twice");
  }
  if (o.tree >= s_.representatives[rep].trees.size()) {
    return bad("tree " + std::to_string(o.tree) + " of " + Name(o.root) + " does not exist (" +
               std::to_string(s_.representatives[rep].trees.size()) + " trees)");
  }
  const int a = p_.apply(entry, o.from, true), b = p_.apply(entry, o.to, true);
  const PipelineTreeEdge* e = RepEdge(rep, o.tree, b);
  if (e == nullptr || e->from != a) {
    return bad("tree " + std::to_string(o.tree) + " of " + Name(o.root) + " has no edge " +
               Name(o.from) + " -> " + Name(o.to));
  }
  const BigInt& multiplicity = s_.representatives[rep].trees[o.tree].multiplicity;
  std::int64_t longest = 0;
  if (!NewRoutes(item + ".edge", o.from, o.to, o.routes, multiplicity, &longest)) return;
  for (const PipelineRoute& r : e->routes) AddImage(entry, r, -r.multiplicity);
  changed_[{o.root, o.tree}][b] = longest;
}

void OverridesChecker::Replacement(std::size_t i, PipelineTreeChecker& trees) {
  const SymmetricRootReplacement& o = o_.replaced_roots[i];
  const std::string item = prefix_ + "overrides.replaced_roots[" + std::to_string(i) + "]";
  const int entry = p_.entry[o.root];
  if (entry < 0) return;
  if (!replaced_.emplace(o.root, i).second) {
    out_.Add(K::kBadOverride, item, o.root, -1, Name(o.root) + " is replaced twice");
    return;
  }
  BigInt sum = 0;
  for (std::size_t t = 0; t < o.trees.size(); ++t) {
    trees.Check(item + ".trees[" + std::to_string(t) + "]", o.trees[t], replaced_load_);
    replaced_height_ = std::max(replaced_height_, trees.height());
    sum += o.trees[t].multiplicity;
  }
  if (sum != s_.k) {
    out_.Add(K::kRootSum, item + ".trees", o.root, -1,
             "the trees rooted at " + Name(o.root) + " have total multiplicity " + sum.str() +
                 ", but k = " + s_.k.str());
  }
  for (const PipelineTree& t : s_.representatives[s_.roots[entry].representative].trees)
    SubtractImages(static_cast<std::size_t>(entry), t);
}

// The height of tree `tree` of the representative with some edges' longest routes changed
// (keyed by the edge's head): depths along the parent chain, each node once. O(tree size) with
// arrays over the nodes kept between calls (the tree is a checked arborescence).
std::int64_t OverridesChecker::ChangedTreeHeight(int rep, std::size_t tree,
                                                 const std::map<int, std::int64_t>& len) {
  const PipelineTree& t = s_.representatives[rep].trees[tree];
  const std::size_t n = static_cast<std::size_t>(p_.g.num_nodes());
  if (up_.size() != n) {
    up_.assign(n, -1);
    links_.assign(n, 0);
    depth_.assign(n, -1);
  }
  for (const PipelineTreeEdge& e : t.edges) {
    std::int64_t links = 0;
    for (const PipelineRoute& r : e.routes)
      links = std::max(links, static_cast<std::int64_t>(r.path.size()) - 1);
    up_[e.to] = e.from;
    links_[e.to] = links;
    depth_[e.to] = -1;
  }
  for (const auto& [child, links] : len) links_[child] = links;
  depth_[t.root] = 0;
  std::int64_t height = 0;
  std::vector<int> chain;
  for (const PipelineTreeEdge& e : t.edges) {
    chain.clear();
    for (int u = e.to; depth_[u] < 0; u = up_[u]) chain.push_back(u);
    for (auto c = chain.rbegin(); c != chain.rend(); ++c) {
      depth_[*c] = depth_[up_[*c]] + links_[*c];
      height = std::max(height, depth_[*c]);
    }
  }
  return height;
}

// The height of the changed schedule: the changed trees', the replaced roots', and each
// representative tree's when some image of it is left as it is.
void OverridesChecker::Heights(OverridesOutcome* outcome) {
  std::int64_t height = replaced_height_;
  std::map<std::pair<int, std::size_t>, std::int64_t> images_changed;
  for (const auto& [key, len] : changed_) {
    const int rep = s_.roots[p_.entry[key.first]].representative;
    ++images_changed[{rep, key.second}];
    height = std::max(height, ChangedTreeHeight(rep, key.second, len));
  }
  for (const auto& [root, i] : replaced_) {
    const int rep = s_.roots[p_.entry[root]].representative;
    for (std::size_t t = 0; t < s_.representatives[rep].trees.size(); ++t)
      ++images_changed[{rep, t}];
  }
  for (std::size_t r = 0; r < s_.representatives.size(); ++r) {
    for (std::size_t t = 0; t < p_.tree_height[r].size(); ++t) {
      auto it = images_changed.find({static_cast<int>(r), t});
      if (it != images_changed.end() && it->second >= p_.orbit_roots[r]) continue;
      height = std::max(height, p_.tree_height[r][t]);
    }
  }
  outcome->height = height;
}

// Final loads = the symmetric part's (orbit_load / |O|) + the changes; failed links must end
// with 0, links of g with at most U·b_e; the ratio over the links of g.
void OverridesChecker::Loads(OverridesOutcome* outcome) {
  const int real = p_.g.num_links();
  for (int e = 0; e < real; ++e) {
    if (replaced_load_[e] != 0) delta_[e] += replaced_load_[e];
  }
  for (int e = real; e < p_.restored.num_links(); ++e) delta_.try_emplace(e, 0);
  auto base = [&](int e) {
    const int o = p_.link_orbit[e];
    return Rational(p_.orbit_load[o]) / p_.orbit_links[o];
  };
  Rational ratio = 0;
  std::map<int, std::int64_t> touched;  // orbit -> its links with a change (failed ones too)
  for (const auto& [e, change] : delta_) {
    ++touched[p_.link_orbit[e]];
    const Link& link = p_.restored.link(e);
    const Rational load = base(e) + Rational(change);
    const std::string item =
        prefix_ + "link " + p_.g.node(link.from).name + " -> " + p_.g.node(link.to).name;
    if (e >= real) {
      if (load != 0) {
        out_.Add(K::kFailedLinkUsed, item, link.from, -1,
                 "the failed link carries " + ToString(load) +
                     " after the overrides (routes of the symmetric part still use it)");
      }
      continue;
    }
    if (load > s_.U * link.bandwidth) {
      out_.Add(K::kOverloaded, item, link.from, e,
               "load " + ToString(load) + " exceeds U·b_e = " + ToString(s_.U * link.bandwidth));
    }
    ratio = std::max(ratio, load / (Rational(s_.k) * link.bandwidth));
  }
  for (int o = 0; o < p_.restored.num_links(); ++o) {
    if (p_.link_orbit[o] != o || p_.orbit_load[o] == 0) continue;
    auto it = touched.find(o);
    if (it != touched.end() && it->second >= p_.orbit_links[o]) continue;  // none left as is
    const Link& link = p_.restored.link(o);
    const Rational load = base(o);
    if (load > s_.U * link.bandwidth) {
      out_.Add(
          K::kOverloaded,
          prefix_ + "link orbit of " + p_.g.node(link.from).name + " -> " + p_.g.node(link.to).name,
          link.from, -1,
          "each unchanged link carries " + ToString(load) +
              " > U·b_e = " + ToString(s_.U * link.bandwidth));
    }
    ratio = std::max(ratio, load / (Rational(s_.k) * link.bandwidth));
  }
  outcome->ratio = ratio;
}

OverridesOutcome OverridesChecker::Run() {
  replaced_load_.assign(static_cast<std::size_t>(p_.g.num_links()), BigInt(0));
  PipelineTreeChecker trees(p_.g, s_.collective, std::nullopt, out_);
  for (std::size_t i = 0; i < o_.replaced_roots.size(); ++i) Replacement(i, trees);
  for (std::size_t i = 0; i < o_.routes.size(); ++i) RouteOverride(i);
  OverridesOutcome outcome;
  Heights(&outcome);
  Loads(&outcome);
  return outcome;
}

}  // namespace

Topology RestoreFailedLinks(const Topology& g, const std::vector<SymmetricFailedLink>& failed,
                            const std::string& prefix, PipelineViolationCollector& out,
                            std::vector<int>* failed_ids) {
  Topology restored(g.name());
  for (const Node& n : g.nodes()) restored.AddNode(n.name, n.kind);
  for (const Link& l : g.links()) restored.AddLink(l.from, l.to, l.bandwidth, l.multiplicity);
  failed_ids->assign(failed.size(), -1);
  for (std::size_t i = 0; i < failed.size(); ++i) {
    const SymmetricFailedLink& f = failed[i];
    const std::string item = prefix + "overrides.failed_links[" + std::to_string(i) + "]";
    const std::string name = g.node(f.from).name + " -> " + g.node(f.to).name;
    if (f.from == f.to) {
      out.Add(K::kBadOverride, item, f.from, -1, name + " is a self-loop");
    } else if (g.FindLink(f.from, f.to)) {
      out.Add(K::kBadOverride, item, f.from, -1,
              name + " is a link of the topology, not a failed one");
    } else if (restored.FindLink(f.from, f.to)) {
      out.Add(K::kBadOverride, item, f.from, -1, name + " is listed twice");
    } else {
      (*failed_ids)[i] = restored.AddLink(f.from, f.to, f.bandwidth, f.multiplicity);
    }
  }
  return restored;
}

OverridesOutcome CheckSymmetricOverrides(const SymmetricPartLoads& part, const std::string& prefix,
                                         PipelineViolationCollector& out) {
  return OverridesChecker(part, prefix, out).Run();
}

}  // namespace collsynth
